import DisplayKit

extension DaemonService {
  /// Answers `profile-switch`: the desk put in the named profile, or why not.
  func switchProfile(_ name: String?) -> JSON {
    guard let name, !name.isEmpty else { return ControlProtocol.error("profile-switch needs a \"name\"") }
    do {
      if let refusal = try daemon.switchProfile(name) {
        log.warning("profile switch refused: \(refusal)")
        return ControlProtocol.error("\(refusal)")
      }
    } catch {
      return ControlProtocol.error("profile switch: \(error)")
    }
    return .object([("ok", .bool(true)), ("profile", profileJSON)])
  }

  /// Answers `apply`: the desk arranged once as at start-up (or in profile `name`):
  /// `{"ok": true, "result": "applied" | "in-force", "what": ..., "profile": ...}`, or why not.
  func apply(profile name: String?) -> JSON {
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
    let env = ["DISPLAYD_EVENT": "applied", "DISPLAYD_PROFILE": profile.name, "DISPLAYD_OUTPUT": ""]
    for argv in profile.appliedHooks { hooks.start(argv, environment: env) }
  }
}
