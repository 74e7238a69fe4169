import CXrandr
import DisplayModel

/// The single RandR requests an apply is made of, each with its own error check, and the
/// reads that verify them. Used under the apply's server grab.
extension XConnection {
  enum CrtcStatus: Equatable {
    case ok, stale
    case failed(String)
  }

  /// One `XRRSetCrtcConfig`, quoting the config timestamp of `resources`.
  func setCrtc(
    _ crtc: CrtcID, mode: ModeID?, x: Int, y: Int, rotation: Rotation, outputs: [OutputID],
    _ resources: ScreenResources
  ) -> CrtcStatus {
    guard let res = resources.pointer else { return .failed("no screen resources") }
    var ids = outputs.map { RROutput($0.rawValue) }
    let first = nextRequest
    // CurrentTime is safe here: the plan was checked against the snapshot's timestamps under
    // this grab, so no other client changed the configuration since.
    let status = ids.withUnsafeMutableBufferPointer { buf in
      XRRSetCrtcConfig(
        display, res, RRCrtc(crtc.rawValue), Time(CurrentTime), Int32(clamping: x), Int32(clamping: y),
        RRMode(mode?.rawValue ?? 0), rotation.rawValue, buf.baseAddress, Int32(clamping: buf.count))
    }
    if let error = takeErrors().first(where: { $0.serial >= first }) { return .failed(error.text) }
    switch Int32(status) {
    case RRSetConfigSuccess: return .ok
    case RRSetConfigInvalidConfigTime, RRSetConfigInvalidTime: return .stale
    default: return .failed("server refused (status \(status))")
    }
  }

  /// One `XRRSetScreenSize`; the error text when the server refused it.
  func setScreenSize(_ size: ScreenGeometry) -> String? {
    let first = nextRequest
    XRRSetScreenSize(
      display, root, Int32(clamping: size.width), Int32(clamping: size.height), Int32(clamping: size.mmWidth),
      Int32(clamping: size.mmHeight))
    return requestError(since: first)
  }

  /// One `XRRSetOutputPrimary` (nil: no primary); the error text when the server refused it.
  func setPrimary(_ output: OutputID?) -> String? {
    let first = nextRequest
    XRRSetOutputPrimary(display, root, RROutput(output?.rawValue ?? 0))
    return requestError(since: first)
  }

  /// The RandR primary output as the server has it now.
  func currentPrimary() -> OutputID? {
    let id = XRRGetOutputPrimary(display, root)
    return id == 0 ? nil : OutputID(rawValue: UInt(id))
  }

  /// The root window's size as the server has it now: Xlib's `DisplayWidth` is only updated
  /// when the client handles RRScreenChangeNotify, so it can lag behind our own resizes.
  func rootSize() -> (width: Int, height: Int)? {
    var rootReturn: Window = 0
    var x: Int32 = 0
    var y: Int32 = 0
    var width: UInt32 = 0
    var height: UInt32 = 0
    var border: UInt32 = 0
    var depth: UInt32 = 0
    guard XGetGeometry(display, root, &rootReturn, &x, &y, &width, &height, &border, &depth) != 0 else { return nil }
    return (Int(width), Int(height))
  }

  /// A CRTC's configuration as the server has it now.
  func crtcState(_ crtc: CrtcID, _ resources: ScreenResources) -> CrtcState? {
    guard let res = resources.pointer, let info = XRRGetCrtcInfo(display, res, RRCrtc(crtc.rawValue)) else {
      return nil
    }
    defer { XRRFreeCrtcInfo(info) }
    let c = info.pointee
    return CrtcState(
      mode: c.mode == 0 ? nil : ModeID(rawValue: UInt(c.mode)), x: Int(c.x), y: Int(c.y),
      rotation: Rotation(rawValue: UInt16(truncatingIfNeeded: c.rotation)),
      outputs: Set(buffer(c.outputs, c.noutput).map { OutputID(rawValue: UInt($0)) }))
  }

  /// A CRTC's current transform as fixed-point numbers, nil when the server has none to tell
  /// (RandR before 1.3).
  func crtcTransform(_ crtc: CrtcID) -> FixedTransform? {
    guard randrVersion >= (1, 3) else { return nil }
    var attributes: UnsafeMutablePointer<XRRCrtcTransformAttributes>?
    guard XRRGetCrtcTransform(display, RRCrtc(crtc.rawValue), &attributes) != 0, let attributes else {
      _ = takeErrors()
      return nil
    }
    defer { XFree(attributes) }
    let m = attributes.pointee.currentTransform.matrix
    let filter = attributes.pointee.currentFilter.map { String(cString: $0) } ?? ""
    return FixedTransform(
      matrix: [m.0.0, m.0.1, m.0.2, m.1.0, m.1.1, m.1.2, m.2.0, m.2.1, m.2.2], filter: filter)
  }

  /// One `XRRSetCrtcTransform`: pending until the CRTC's next `XRRSetCrtcConfig`. The error
  /// text when the server refused it (BadValue: the CRTC cannot transform).
  func setCrtcTransform(_ crtc: CrtcID, _ transform: FixedTransform) -> String? {
    guard randrVersion >= (1, 3) else { return "RandR \(randrVersion.major).\(randrVersion.minor) has no transforms" }
    let m = transform.matrix
    var x = XTransform(matrix: ((m[0], m[1], m[2]), (m[3], m[4], m[5]), (m[6], m[7], m[8])))
    let first = nextRequest
    transform.filter.withCString { XRRSetCrtcTransform(display, RRCrtc(crtc.rawValue), &x, $0, nil, 0) }
    return requestError(since: first)
  }

  /// Waits for the server, then the text of the first error caused since `serial`.
  private func requestError(since serial: UInt) -> String? {
    XSync(display, 0)
    return takeErrors().first { $0.serial >= serial }?.text
  }
}

/// What one CRTC shows, as read back from the server.
struct CrtcState: Equatable {
  var mode: ModeID?
  var x: Int
  var y: Int
  var rotation: Rotation
  var outputs: Set<OutputID>

  init(mode: ModeID?, x: Int, y: Int, rotation: Rotation, outputs: Set<OutputID>) {
    self.mode = mode
    self.x = mode == nil ? 0 : x
    self.y = mode == nil ? 0 : y
    self.rotation = mode == nil ? .normal : rotation
    self.outputs = mode == nil ? [] : outputs
  }

  init(_ crtc: Crtc) {
    self.init(mode: crtc.mode, x: crtc.x, y: crtc.y, rotation: crtc.rotation, outputs: Set(crtc.outputs))
  }

  init(_ change: CrtcChange, mode: ModeID?) {
    self.init(mode: mode, x: change.x, y: change.y, rotation: change.rotation, outputs: Set(change.outputs))
  }
}

/// The screen's size in pixels and millimetres, as `XRRSetScreenSize` takes it.
struct ScreenGeometry: Equatable {
  var width: Int
  var height: Int
  var mmWidth: Int
  var mmHeight: Int
}
