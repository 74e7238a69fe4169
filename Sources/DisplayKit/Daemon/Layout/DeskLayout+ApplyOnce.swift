import DisplayModel

extension DeskLayout {
  /// Arranges the desk once as at start-up: the profile chosen by the monitors and the lid
  /// (or `profile`, refused when it does not match), else the rules and the lid policy.
  /// Forgets what was settled and applied before, so a layout changed by hand is put back;
  /// a layout already as it would become changes nothing. `arranged` gets the events seen,
  /// unless the profile was refused up front; errors it logs count as the apply's.
  func applyOnce(profile name: String?, arranged: ([HeadEvent]) -> Void) throws(DisplayError) -> ApplyOnceResult {
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
    arranged(try arrange(reason: "apply"))
    // Only the arrange's errors say the layout was not applied; a window's come after it.
    let (failed, lastError) = (log.errors > errorsBefore, log.lastError)
    let what = activeProfile.name.map { "profile '\($0)'" } ?? "the monitors rules"
    if failed {
      let error = lastError.map { ": " + $0 } ?? ""
      return .refused(reason: "\(what) not applied\(error); the layout before it was restored")
    }
    return counters.reconcilesChanged > changedBefore ? .applied(what: what) : .inForce(what: what)
  }
}
