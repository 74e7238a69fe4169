import CXrandr

/// What applying a plan did.
public struct ApplyOutcome: Sendable {
  /// Changes the server accepted, with the mode it took (nil: turned off).
  public var applied: [(change: CrtcChange, mode: ModeID?)] = []
  /// Changes that failed with every candidate mode, with the reason.
  public var failed: [(change: CrtcChange, reason: String)] = []
  /// The screen size set, if it was changed.
  public var screen: (width: Int, height: Int)?
}

extension XConnection {
  /// Applies a plan in one server grab: CRTCs that would not fit the new screen go off first,
  /// the screen grows, CRTCs are set (quoting the config timestamp; re-read and retried once
  /// when it is stale; the next candidate mode when the server refuses one), then the screen
  /// shrinks to the bounding box. `topology` is the snapshot the plan was made from: CRTC
  /// rectangles and mode sizes come from it, not from the server again.
  public func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome {
    var outcome = ApplyOutcome()
    guard !plan.isEmpty else { return outcome }
    XGrabServer(display)
    defer {
      XUngrabServer(display)
      XFlush(display)
    }
    var current = (width: Int(XDisplayWidth(display, screenNumber)), height: Int(XDisplayHeight(display, screenNumber)))
    let target = plan.screen ?? current
    let resources = ScreenResources(self)
    for change in plan.changes {
      let info = topology.crtc(change.crtc).flatMap { $0.isActive ? $0.rect : nil }
      if change.mode == nil
        || (info.map { $0.x + $0.width > target.width || $0.y + $0.height > target.height } ?? false)
      {
        _ = setCrtc(change.crtc, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], resources)
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
      switch setWithFallbacks(change, modes: topology.modes, resources, screen: &current) {
      case .success(let mode): outcome.applied.append((change, mode))
      case .failure(let reason): outcome.failed.append((change, reason.text))
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
    _ crtc: CrtcID, mode: ModeID?, x: Int, y: Int, rotation: Rotation, outputs: [OutputID],
    _ resources: ScreenResources
  ) -> CrtcStatus {
    guard let res = resources.pointer else { return .failed("no screen resources") }
    var ids = outputs.map { RROutput($0.rawValue) }
    _ = takeErrors()
    let status = ids.withUnsafeMutableBufferPointer { buf in
      XRRSetCrtcConfig(
        display, res, RRCrtc(crtc.rawValue), Time(CurrentTime), Int32(x), Int32(y),
        RRMode(mode?.rawValue ?? 0), rotation.rawValue, buf.baseAddress, Int32(buf.count))
    }
    if let error = takeErrors().first { return .failed(error.text) }
    switch Int32(status) {
    case RRSetConfigSuccess: return .ok
    case RRSetConfigInvalidConfigTime, RRSetConfigInvalidTime: return .stale
    default: return .failed("server refused (status \(status))")
    }
  }

  private func setScreenSize(_ size: (width: Int, height: Int)) {
    // Keep 96 dpi: the physical size only feeds DPI guesses of clients.
    let mm = { (px: Int) in Int32(max(1, Double(px) * 25.4 / 96)) }
    XRRSetScreenSize(display, root, Int32(size.width), Int32(size.height), mm(size.width), mm(size.height))
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
