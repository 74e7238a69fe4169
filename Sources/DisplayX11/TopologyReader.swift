import CXrandr
import DisplayModel

extension XConnection {
  /// Takes one consistent snapshot of the screen's RandR state: the CRTCs and outputs are
  /// separate requests, and the server may change between them (a monitor plugged, another
  /// client's `xrandr`), so a snapshot whose parts disagree is read again, up to `attempts`
  /// times; the last one is returned either way (`Topology.isConsistent` tells).
  public func readTopology(_ options: ReadOptions = ReadOptions(), attempts: Int = 5) throws(DisplayError) -> Topology {
    var topology = try readOnce(options)
    var tries = 1
    while !topology.isConsistent && tries < attempts {
      topology = try readOnce(ReadOptions(probe: false, properties: options.properties))
      tries += 1
    }
    return topology
  }

  private func readOnce(_ options: ReadOptions) throws(DisplayError) -> Topology {
    try checkAlive()
    let resources =
      options.probe
      ? XRRGetScreenResources(display, root) : XRRGetScreenResourcesCurrent(display, root)
    guard let resources else {
      try checkAlive()
      throw .request(takeErrors().first ?? unknownFailure("XRRGetScreenResources"))
    }
    defer { XRRFreeScreenResources(resources) }
    let res = resources.pointee
    let modes = readModes(res)
    let crtcs = buffer(res.crtcs, res.ncrtc).map { readCrtc(resources, CrtcID(rawValue: UInt($0))) }
    let outputs = buffer(res.outputs, res.noutput).compactMap {
      readOutput(resources, OutputID(rawValue: UInt($0)), options: options)
    }
    let primary = XRRGetOutputPrimary(display, root)
    try checkAlive()
    _ = takeErrors()  // an output that vanished mid-read is simply left out
    return Topology(
      screen: screenSize(), outputs: outputs, crtcs: crtcs.compactMap { $0 }, modes: modes,
      primary: primary == 0 ? nil : OutputID(rawValue: UInt(primary)),
      configTimestamp: UInt(res.configTimestamp), timestamp: UInt(res.timestamp))
  }

  private func readModes(_ res: XRRScreenResources) -> [ModeID: Mode] {
    var modes: [ModeID: Mode] = [:]
    for info in buffer(res.modes, res.nmode) {
      let id = ModeID(rawValue: UInt(info.id))
      let name = info.name.map {
        String(decoding: UnsafeRawBufferPointer(start: $0, count: Int(info.nameLength)), as: UTF8.self)
      }
      modes[id] = Mode(
        id: id, name: name ?? "\(info.width)x\(info.height)", width: Int(info.width),
        height: Int(info.height), dotClock: UInt64(info.dotClock), hTotal: Int(info.hTotal),
        vTotal: Int(info.vTotal), flags: ModeFlags(rawValue: UInt(info.modeFlags)))
    }
    return modes
  }

  private func readCrtc(_ res: UnsafeMutablePointer<XRRScreenResources>, _ id: CrtcID) -> Crtc? {
    guard let info = XRRGetCrtcInfo(display, res, RRCrtc(id.rawValue)) else { return nil }
    defer { XRRFreeCrtcInfo(info) }
    let c = info.pointee
    return Crtc(
      id: id, x: Int(c.x), y: Int(c.y), width: Int(c.width), height: Int(c.height),
      mode: c.mode == 0 ? nil : ModeID(rawValue: UInt(c.mode)),
      rotation: DisplayModel.Rotation(rawValue: UInt16(truncatingIfNeeded: c.rotation)),
      outputs: buffer(c.outputs, c.noutput).map { OutputID(rawValue: UInt($0)) },
      possibleOutputs: buffer(c.possible, c.npossible).map { OutputID(rawValue: UInt($0)) },
      rotations: DisplayModel.Rotation(rawValue: UInt16(truncatingIfNeeded: c.rotations)))
  }

  private func readOutput(
    _ res: UnsafeMutablePointer<XRRScreenResources>, _ id: OutputID, options: ReadOptions
  ) -> Output? {
    guard let info = XRRGetOutputInfo(display, res, RROutput(id.rawValue)) else { return nil }
    defer { XRRFreeOutputInfo(info) }
    let o = info.pointee
    let name = String(
      decoding: UnsafeRawBufferPointer(start: o.name, count: Int(o.nameLen)), as: UTF8.self)
    let connection: DisplayModel.Connection =
      switch Int32(o.connection) {
      case RR_Connected: .connected
      case RR_Disconnected: .disconnected
      default: .unknown
      }
    var output = Output(
      id: id, name: name, connection: connection,
      crtc: o.crtc == 0 ? nil : CrtcID(rawValue: UInt(o.crtc)),
      mmWidth: Int(o.mm_width), mmHeight: Int(o.mm_height),
      modes: buffer(o.modes, o.nmode).map { ModeID(rawValue: UInt($0)) },
      preferredCount: Int(o.npreferred),
      possibleCrtcs: buffer(o.crtcs, o.ncrtc).map { CrtcID(rawValue: UInt($0)) })
    if options.properties && connection == .connected {
      output.edid = outputProperty(id, "EDID")
      output.nonDesktop = (outputProperty(id, "non-desktop")?.first ?? 0) != 0
    }
    return output
  }

  /// The bytes of an output property, nil when the output does not have it.
  func outputProperty(_ output: OutputID, _ name: String) -> [UInt8]? {
    // Interned (and so cached) once per connection, not looked up again for every output of
    // every snapshot when no monitor has set it yet.
    let atom = atom(name)
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    // 8192 32-bit units: the largest EDID (256 blocks of 128 bytes).
    let status = XRRGetOutputProperty(
      display, RROutput(output.rawValue), atom, 0, 8192, 0, 0, Atom(AnyPropertyType),
      &type, &format, &count, &after, &data)
    defer { if let data { XFree(data) } }
    guard status == Success, type != 0, let data else { return nil }
    // Xlib returns 32-bit items as C longs.
    let itemSize = format == 32 ? MemoryLayout<CLong>.size : Int(format) / 8
    guard format == 8 else {
      return (0..<Int(count)).map { data.advanced(by: $0 * itemSize).pointee }
    }
    return Array(UnsafeBufferPointer(start: data, count: Int(count)))
  }

  /// Sets the `EDID` property of an output, as a monitor's driver would; for test rigs.
  public func setEDID(_ bytes: [UInt8], on output: OutputID) throws(DisplayError) {
    let atom = atom("EDID")
    bytes.withUnsafeBufferPointer { buf in
      XRRChangeOutputProperty(
        display, RROutput(output.rawValue), atom, XA_INTEGER, 8, PropModeReplace,
        buf.baseAddress, Int32(buf.count))
    }
    try sync()
  }

  private func screenSize() -> ScreenSize {
    if screenRange == nil {
      var minW: Int32 = 0
      var minH: Int32 = 0
      var maxW: Int32 = 0
      var maxH: Int32 = 0
      XRRGetScreenSizeRange(display, root, &minW, &minH, &maxW, &maxH)
      screenRange = (Int(minW), Int(minH), Int(maxW), Int(maxH))
    }
    let r = screenRange ?? (0, 0, 0, 0)
    return ScreenSize(
      width: Int(XDisplayWidth(display, screenNumber)),
      height: Int(XDisplayHeight(display, screenNumber)),
      minWidth: r.minW, minHeight: r.minH, maxWidth: r.maxW, maxHeight: r.maxH,
      mmWidth: Int(XDisplayWidthMM(display, screenNumber)), mmHeight: Int(XDisplayHeightMM(display, screenNumber)))
  }

  func unknownFailure(_ request: String) -> XErrorRecord {
    XErrorRecord(errorCode: 0, requestCode: 0, minorCode: 0, resourceID: 0, serial: 0, text: "\(request) failed")
  }
}

/// A C array as a Swift buffer; empty for a null pointer.
func buffer<T>(_ pointer: UnsafeMutablePointer<T>?, _ count: Int32) -> UnsafeBufferPointer<T> {
  UnsafeBufferPointer(start: count > 0 ? pointer : nil, count: pointer == nil ? 0 : Int(max(0, count)))
}
