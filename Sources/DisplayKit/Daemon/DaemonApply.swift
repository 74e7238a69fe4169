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
    if let name {
      guard let profile = config.profiles.first(where: { $0.name == name }) else {
        return .refused(reason: "\(ProfileSwitchRefusal.unknown(name: name, known: config.profiles.map(\.name)))")
      }
      if case .failure(let why) = ProfileMatcher.match(profile, topology: topology, lid: lid) {
        return .refused(reason: "\(ProfileSwitchRefusal.mismatch(name: name, why))")
      }
    }
    (settled, failures) = ([:], [:])
    if let name {
      // A profile named by hand is a choice by hand, as `profile switch` makes it.
      if profileRuntime.manual == nil { profileRuntime.automaticLayout = topology }
      profileRuntime.manual = (.profile(name), desk)
    } else {
      (profileRuntime.manual, profileRuntime.automaticLayout) = (nil, nil)
    }
    (profileRuntime.applied, profileRuntime.lidDesk) = (nil, nil)
    let (changedBefore, errorsBefore) = (counters.reconcilesChanged, log.errors)
    let old = topology
    report(try arrange(reason: "apply"), old)
    if managesWindows { syncWindows() }
    let what = activeProfile.name.map { "profile '\($0)'" } ?? "the monitors rules"
    if log.errors > errorsBefore {
      let error = log.lastError.map { ": " + $0 } ?? ""
      return .refused(reason: "\(what) not applied\(error); the layout before it was restored")
    }
    return counters.reconcilesChanged > changedBefore ? .applied(what: what) : .inForce(what: what)
  }
}
