import DisplayKit
import DisplayModel
import DisplaySupport

extension DaemonService {
  /// Answers `profile-switch` and `profile-cycle`: the one place a layout is chosen by hand
  /// (a profile, a built-in layout, the next of the cycle) or automatic choice resumes.
  /// `{"ok": true, "changed": BOOL, "layout": LAYOUT, "profile": PROFILE}`, or why not.
  func switchLayout(_ request: ControlProtocol.SwitchRequest) -> JSON {
    let outcome: Result<Bool, ProfileSwitchRefusal>
    if let refusal = layoutRefusal("profile switch") { return refusal }
    do {
      switch request {
      case .profile(let name?) where !name.isEmpty: outcome = try daemon.switchTo(.profile(name))
      case .profile: return ControlProtocol.error("profile-switch needs a \"name\", a \"layout\" or \"auto\": true")
      case .ambiguous: return ControlProtocol.error("profile-switch takes one of \"name\", \"layout\" and \"auto\"")
      case .layout(let name):
        guard let layout = BuiltinLayout(rawValue: name) else {
          return ControlProtocol.error("no built-in layout '\(name)' (layouts: \(BuiltinLayout.names))")
        }
        outcome = try daemon.switchTo(.layout(layout))
      case .automatic: outcome = .success(try daemon.resumeAutomatic())
      case .cycle: outcome = try daemon.cycle().map(\.changed)
      }
    } catch {
      return ControlProtocol.error("profile switch: \(error)")
    }
    switch outcome {
    case .failure(let refusal):
      log.warning("profile switch refused: \(refusal)")
      return ControlProtocol.error("\(refusal)")
    case .success(let changed):
      return .object([
        ("ok", .bool(true)), ("changed", .bool(changed)), ("layout", JSON.record(daemon.layoutRecord)),
        ("profile", profileJSON),
      ])
    }
  }

  /// Answers `apply`: the desk arranged once as at start-up (or in profile `name`):
  /// `{"ok": true, "result": "applied" | "in-force", "what": ..., "profile": ...}`, or why not.
  func apply(profile name: String?) -> JSON {
    if let refusal = layoutRefusal("apply") { return refusal }
    let result: ApplyOnceResult
    do { result = try daemon.applyOnce(profile: name) } catch { return ControlProtocol.error("apply: \(error)") }
    switch result {
    case .refused(let reason):
      log.warning("apply refused: \(reason)")
      return ControlProtocol.error(reason)
    case .applied(let what), .inForce(let what):
      return .object([
        ("ok", .bool(true)), ("result", .string(result.word)), ("what", .string(what)), ("profile", profileJSON),
      ])
    }
  }

  /// Answers `profile-list`: each profile, whether it matches the monitors present (and why
  /// not), and which is active.
  func profileList() -> JSON {
    guard case .object(let members) = JSON.record(daemon.profileListAnswer) else {
      return ControlProtocol.error("profile-list")
    }
    return .object([("ok", .bool(true))] + members)
  }

  /// `{"name": NAME or null, "reason": "matched" | "switched" | "none"}`.
  var profileJSON: JSON {
    let active = daemon.activeProfile
    return .object([("name", JSON.optional(active.name) { .string($0) }), ("reason", .string(active.reason.rawValue))])
  }

  /// Runs the profile's `hooks.applied`, with `DISPLAYD_EVENT=applied` and `DISPLAYD_PROFILE`.
  func profileApplied(_ profile: Profile) {
    let env = [
      "DISPLAYD_EVENT": "applied", "DISPLAYD_PROFILE": profile.name, "DISPLAYD_OUTPUT": "",
      "DISPLAYD_DPI": daemon.xftDPI.map(String.init) ?? "",
    ]
    for argv in profile.appliedHooks { hooks.start(argv, environment: env) }
  }
}
