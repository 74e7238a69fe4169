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
  /// shrinks to the bounding box.
  public func apply(_ plan: Plan) throws(DisplayError) -> ApplyOutcome {
    var outcome = ApplyOutcome()
    guard !plan.isEmpty else { return outcome }
    XGrabServer(display)
    defer {
      XUngrabServer(display)
      XFlush(display)
    }
    var current = (width: Int(XDisplayWidth(display, screenNumber)), height: Int(XDisplayHeight(display, screenNumber)))
    let target = plan.screen ?? current
    for change in plan.changes {
      let info = crtcRect(change.crtc)
      if change.mode == nil
        || (info.map { $0.x + $0.width > target.width || $0.y + $0.height > target.height } ?? false)
      {
        _ = setCrtc(change.crtc, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [])
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
      switch setWithFallbacks(change, screen: &current) {
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
    _ change: CrtcChange, screen: inout (width: Int, height: Int)
  ) -> Result<ModeID, ApplyFailure> {
    var reasons: [String] = []
    for mode in [change.mode].compactMap({ $0 }) + change.fallbacks {
      if let size = modeSize(mode) {
        let need = (width: max(screen.width, change.x + size.width), height: max(screen.height, change.y + size.height))
        if need != screen {
          setScreenSize(need)
          screen = need
        }
      }
      var status = setCrtc(
        change.crtc, mode: mode, x: change.x, y: change.y, rotation: change.rotation, outputs: change.outputs)
      if status == .stale {
        status = setCrtc(
          change.crtc, mode: mode, x: change.x, y: change.y, rotation: change.rotation, outputs: change.outputs)
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

  /// One `XRRSetCrtcConfig` with a fresh config timestamp.
  private func setCrtc(
    _ crtc: CrtcID, mode: ModeID?, x: Int, y: Int, rotation: Rotation, outputs: [OutputID]
  ) -> CrtcStatus {
    guard let res = XRRGetScreenResourcesCurrent(display, root) else { return .failed("no screen resources") }
    defer { XRRFreeScreenResources(res) }
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

  private func crtcRect(_ crtc: CrtcID) -> Rect? {
    guard let res = XRRGetScreenResourcesCurrent(display, root) else { return nil }
    defer { XRRFreeScreenResources(res) }
    guard let info = XRRGetCrtcInfo(display, res, RRCrtc(crtc.rawValue)) else { return nil }
    defer { XRRFreeCrtcInfo(info) }
    guard info.pointee.mode != 0 else { return nil }
    return Rect(
      x: Int(info.pointee.x), y: Int(info.pointee.y), width: Int(info.pointee.width), height: Int(info.pointee.height))
  }

  private func modeSize(_ mode: ModeID) -> (width: Int, height: Int)? {
    guard let res = XRRGetScreenResourcesCurrent(display, root) else { return nil }
    defer { XRRFreeScreenResources(res) }
    return buffer(res.pointee.modes, res.pointee.nmode).first { UInt($0.id) == mode.rawValue }.map {
      (Int($0.width), Int($0.height))
    }
  }
}
