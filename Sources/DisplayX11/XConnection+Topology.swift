import CXrandr
import DisplayModel

extension XConnection {
  /// Takes one consistent snapshot of the screen's RandR state (`readPipelined`: about two
  /// round trips however many outputs there are): the CRTCs and outputs are separate requests, and the server may change between them (a monitor plugged, another
  /// client's `xrandr`), so a snapshot whose parts disagree is read again, up to `attempts`
  /// times; the last one is returned either way (`Topology.isConsistent` tells).
  public func readTopology(_ options: ReadOptions = ReadOptions(), attempts: Int = 5) throws(DisplayError) -> Topology {
    var topology = try readPipelined(options)
    var tries = 1
    while !topology.isConsistent && tries < attempts {
      topology = try readPipelined(ReadOptions(probe: false, properties: options.properties))
      tries += 1
    }
    return topology
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

  func screenSize() -> ScreenSize {
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

  func unknownFailure(_ request: String) -> RequestFailure {
    XErrorRecord(errorCode: 0, requestCode: 0, minorCode: 0, resourceID: 0, serial: 0, text: "\(request) failed")
      .failure
  }
}

/// A C array as a Swift buffer; empty for a null pointer.
func buffer<T>(_ pointer: UnsafeMutablePointer<T>?, _ count: Int32) -> UnsafeBufferPointer<T> {
  UnsafeBufferPointer(start: count > 0 ? pointer : nil, count: pointer == nil ? 0 : Int(max(0, count)))
}

extension Topology {
  /// Whether the CRTCs and outputs tell the same story: every output a CRTC drives names
  /// that CRTC, and every output's CRTC lists it. A snapshot read across a change (CRTCs
  /// before it, outputs after) fails this, and is read again (`readTopology`).
  public var isConsistent: Bool {
    for crtc in crtcs {
      for id in crtc.outputs where output(id)?.crtc != crtc.id { return false }
    }
    for output in outputs {
      guard let id = output.crtc else { continue }
      guard let crtc = crtc(id), crtc.outputs.contains(output.id) else { return false }
    }
    return true
  }
}
