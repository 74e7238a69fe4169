import DisplayModel

/// What `displayd apply` did.
public enum ApplyOnceResult: Equatable, Sendable {
  /// The layout was changed; `what` names the profile or says the rules applied.
  case applied(what: String)
  /// The layout was what it would have become: nothing changed.
  case inForce(what: String)
  /// Nothing was put in force; the reason says why (the layout before was restored).
  case refused(reason: String)

  /// The answer's word on the control socket: `applied`, `in-force` or `refused`.
  public var word: String {
    switch self {
    case .applied: return "applied"
    case .inForce: return "in-force"
    case .refused: return "refused"
    }
  }
}

extension Daemon {
  /// Arranges the desk once as at start-up: the profile chosen by the monitors and the lid
  /// (or `profile`, refused when it does not match), else the rules and the lid policy.
  /// Forgets what was settled and applied before, so a layout changed by hand is put back;
  /// a layout already as it would become changes nothing. Windows follow when this daemon
  /// manages them.
  public func applyOnce(profile name: String? = nil) throws(DisplayError) -> ApplyOnceResult {
    if let name, case .failure(let refusal) = resolve(.profile(name)) { return .refused(reason: "\(refusal)") }
    (settled, failures) = ([:], [:])
    if let name {
      // A profile named by hand is a choice by hand, as `profile switch` makes it.
      beginManual(.profile(name))
    } else {
      (profileRuntime.manual, profileRuntime.automaticLayout) = (nil, nil)
    }
    (profileRuntime.applied, profileRuntime.lidDesk) = (nil, nil)
    let (changedBefore, errorsBefore) = (counters.reconcilesChanged, log.errors)
    let old = heads
    report(try arrange(reason: "apply"), old)
    // Only the arrange's errors say the layout was not applied; a window's come after it.
    let (failed, lastError) = (log.errors > errorsBefore, log.lastError)
    if managesWindows { syncWindows() }
    let what = activeProfile.name.map { "profile '\($0)'" } ?? "the monitors rules"
    if failed {
      let error = lastError.map { ": " + $0 } ?? ""
      return .refused(reason: "\(what) not applied\(error); the layout before it was restored")
    }
    return counters.reconcilesChanged > changedBefore ? .applied(what: what) : .inForce(what: what)
  }
}
