import CXrandr
import DisplayModel

extension XConnection {
  /// Applies a plan in one server grab, all or nothing: CRTCs that would not fit the new
  /// screen go off first, the screen grows, CRTCs are set (the next candidate mode when the
  /// server refuses one), then the screen shrinks to the bounding box. A change that fails
  /// with every mode rolls back what was done, back to `topology`, the snapshot the plan was
  /// made from (CRTC rectangles and mode sizes come from it, not from the server again).
  /// When the server's timestamps no longer match that snapshot nothing is done: a plan made
  /// on stale data is never applied.
  public func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome {
    var outcome = ApplyOutcome()
    guard !plan.isEmpty else { return outcome }
    XGrabServer(display)
    defer {
      XUngrabServer(display)
      XFlush(display)
    }
    let resources = ScreenResources(self)
    guard let res = resources.pointer,
      UInt(res.pointee.configTimestamp) == topology.configTimestamp, UInt(res.pointee.timestamp) == topology.timestamp
    else {
      try checkAlive()
      outcome.stale = true
      return outcome
    }
    let original = (width: topology.screen.width, height: topology.screen.height)
    var current = (width: Int(XDisplayWidth(display, screenNumber)), height: Int(XDisplayHeight(display, screenNumber)))
    let target = plan.screen ?? current
    var touched: [CrtcID] = []
    for change in plan.changes {
      let info = topology.crtc(change.crtc).flatMap { $0.isActive ? $0.rect : nil }
      if change.mode == nil
        || (info.map { $0.x + $0.width > target.width || $0.y + $0.height > target.height } ?? false)
      {
        _ = setCrtc(change.crtc, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], resources)
        touched.append(change.crtc)
      }
    }
    let grown = (width: max(current.width, target.width), height: max(current.height, target.height))
    if grown != current {
      setScreenSize(grown)
      current = grown
    }
    for change in plan.changes {
      guard change.mode != nil else {
        outcome.applied.append((change, nil))
        continue
      }
      touched.append(change.crtc)
      switch setWithFallbacks(change, modes: topology.modes, resources, screen: &current) {
      case .success(let mode): outcome.applied.append((change, mode))
      case .failure(let reason):
        outcome.failed.append((change, reason.text))
        rollBack(touched, to: topology, screen: original, from: current, resources)
        try checkAlive()
        return outcome
      }
    }
    if let wanted = plan.screen, wanted != current {
      setScreenSize(wanted)
      current = wanted
    }
    try checkAlive()
    if plan.screen != nil { outcome.screen = current }
    return outcome
  }

  /// Puts the CRTCs in `touched` back as `topology` had them, and the screen size.
  private func rollBack(
    _ touched: [CrtcID], to topology: Topology, screen: (width: Int, height: Int),
    from current: (width: Int, height: Int),
    _ resources: ScreenResources
  ) {
    let crtcs = Set(touched)
    for id in crtcs { _ = setCrtc(id, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], resources) }
    let room = (width: max(current.width, screen.width), height: max(current.height, screen.height))
    if room != current { setScreenSize(room) }
    for id in crtcs {
      guard let old = topology.crtc(id), old.isActive else { continue }
      if setCrtc(id, mode: old.mode, x: old.x, y: old.y, rotation: old.rotation, outputs: old.outputs, resources)
        == .stale
      {
        resources.refresh()
        _ = setCrtc(id, mode: old.mode, x: old.x, y: old.y, rotation: old.rotation, outputs: old.outputs, resources)
      }
    }
    if room != screen { setScreenSize(screen) }
  }

  private struct ApplyFailure: Error { var text: String }

  private func setWithFallbacks(
    _ change: CrtcChange, modes: [ModeID: Mode], _ resources: ScreenResources,
    screen: inout (width: Int, height: Int)
  ) -> Result<ModeID, ApplyFailure> {
    var reasons: [String] = []
    for mode in [change.mode].compactMap({ $0 }) + change.fallbacks {
      if let size = modes[mode].map({ (width: $0.width, height: $0.height) }) {
        let need = (width: max(screen.width, change.x + size.width), height: max(screen.height, change.y + size.height))
        if need != screen {
          setScreenSize(need)
          screen = need
        }
      }
      let set = {
        self.setCrtc(
          change.crtc, mode: mode, x: change.x, y: change.y, rotation: change.rotation, outputs: change.outputs,
          resources)
      }
      var status = set()
      if status == .stale {
        resources.refresh()
        status = set()
      }
      if case .failed(let why) = status {
        reasons.append("mode \(mode): \(why)")
        continue
      }
      if status == .ok { return .success(mode) }
      reasons.append("mode \(mode): config timestamp stale twice")
    }
    return .failure(ApplyFailure(text: reasons.joined(separator: "; ")))
  }

  private enum CrtcStatus: Equatable {
    case ok, stale
    case failed(String)
  }

  /// One `XRRSetCrtcConfig`, quoting the config timestamp of `resources`.
  private func setCrtc(
    _ crtc: CrtcID, mode: ModeID?, x: Int, y: Int, rotation: DisplayModel.Rotation, outputs: [OutputID],
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

  private func setScreenSize(_ size: (width: Int, height: Int)) {
    // Keep 96 dpi: the physical size only feeds DPI guesses of clients.
    let mm = { (px: Int) in Int32(clamping: max(1, px * 254 / 960)) }
    XRRSetScreenSize(
      display, root, Int32(clamping: size.width), Int32(clamping: size.height), mm(size.width), mm(size.height))
  }

}

/// The screen resources (for their config timestamp) during one apply: read once, read again
/// only when the server says the timestamp is stale; freed on deinit.
final class ScreenResources {
  private let connection: XConnection
  private(set) var pointer: UnsafeMutablePointer<XRRScreenResources>?

  init(_ connection: XConnection) {
    self.connection = connection
    pointer = XRRGetScreenResourcesCurrent(connection.display, connection.root)
  }

  func refresh() {
    if let pointer { XRRFreeScreenResources(pointer) }
    pointer = XRRGetScreenResourcesCurrent(connection.display, connection.root)
  }

  deinit { if let pointer { XRRFreeScreenResources(pointer) } }
}
