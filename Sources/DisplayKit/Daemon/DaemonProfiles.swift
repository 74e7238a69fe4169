import DisplayModel

/// Why the profile in force is in force.
public enum ProfileReason: String, Sendable {
  /// The first profile whose outputs match the monitors present.
  case matched
  /// Chosen by hand (`profile switch`); it stays until the monitors, the lid or the config change.
  case switched
  /// No profile matches: the per-monitor rules (and `defaults.lid_closed`) apply.
  case none
}

/// The profile in force, and why; `name` is nil when none is.
public struct ActiveProfile: Equatable, Sendable {
  public var name: String?
  public var reason: ProfileReason
}

/// One profile as `profile list` shows it.
public struct ProfileListing: Sendable {
  public var name: String
  /// Why it does not match the monitors present; nil when it matches.
  public var mismatch: ProfileMismatch?
  public var active: Bool
}

/// What a profile's choice depends on: the connected monitors (connector and `MonitorKey`),
/// the lid and the config. While it stays the same, a profile once applied is not applied
/// again, so the daemon's own RandR events and a user's later `xrandr` change nothing.
struct DeskKey: Equatable {
  var monitors: [String: MonitorKey]
  var lid: LidState
  var config: Config

  init(_ snapshot: HeadSnapshot, lid: LidState, config: Config) {
    self.monitors = Self.monitors(of: snapshot)
    self.lid = lid
    self.config = config
  }

  /// The connected monitors of `snapshot`, by connector.
  static func monitors(of snapshot: HeadSnapshot) -> [String: MonitorKey] {
    var monitors: [String: MonitorKey] = [:]
    for head in snapshot.heads where head.connected { monitors[head.name] = MonitorKey(head) }
    return monitors
  }
}

/// The daemon's memory of profiles and the lid.
struct ProfileRuntime {
  var active = ActiveProfile(name: nil, reason: .none)
  /// The active profile and the heads its entries took, for the windows.
  var chosen: (profile: Profile, assignment: HeadProfileAssignment)?
  /// Whether a profile is chosen, without a copy of it.
  var hasChosen: Bool {
    guard case .some = chosen else { return false }
    return true
  }
  /// The profile or built-in layout chosen by hand, and the desk it was chosen on.
  var manual: (choice: LayoutChoice, desk: DeskKey)?
  /// The layout automatic choice had when the first manual choice was made: put back when
  /// automatic choice resumes.
  var automaticLayout: SavedLayout?
  /// The heads the daemon had lit then (`Daemon.litByDaemon`): what a put-back layout
  /// holds lit as automatic choice had it is lit by whom it was then, not by the choice.
  var automaticLit: Set<String> = []
  /// The profile last brought into force (or that failed), and the desk then.
  var applied: (name: String, desk: DeskKey)?
  /// Whether the last apply of the chosen profile failed (and was rolled back).
  var failed = false
  /// The server reset a monitor of the desk (`Daemon.serverReset`): the profile in force is
  /// planned again once, though the desk is the same.
  var serverReset = false
  /// The desk the lid policy last ran for, and where the panel was before it went off.
  var lidDesk: DeskKey?
  var panelRect: Rect?
}

extension Daemon {
  /// The profile in force and why.
  public var activeProfile: ActiveProfile { profileRuntime.active }

  /// Every profile of the config: whether it matches the monitors present now, and which is active.
  public var profileListings: [ProfileListing] {
    let vendors = layoutServer.vendors(of: heads)
    return config.profiles.map { profile in
      var mismatch: ProfileMismatch?
      if case .failure(let why) = HeadProfileMatcher.match(profile, snapshot: heads, lid: lid, vendors: vendors) {
        mismatch = why
      }
      let active = profile.name == activeProfile.name && !isBuiltinInForce
      return ProfileListing(name: profile.name, mismatch: mismatch, active: active)
    }
  }

  /// The main output as the daemon treats it: with a profile in force, `LidPolicy.main`.
  public var mainOutput: Head? {
    let vendors = layoutServer.vendors(of: heads)
    // Without a profile the windows' config is the config: no copy of it made.
    return profileRuntime.hasChosen
      ? windowConfig.mainOutput(in: heads, vendors: vendors) : config.mainOutput(in: heads, vendors: vendors)
  }

  /// `mainOutput`'s name.
  var mainName: String? { mainOutput?.name }

  /// Main as the rules find it (`Config.mainOutput(in:vendors:)` of the config): while no
  /// profile is chosen the windows' config is the config, and this is `mainOutput`.
  var rulesMain: Head? {
    guard profileRuntime.hasChosen else { return mainOutput }
    return config.mainOutput(in: heads, vendors: layoutServer.vendors(of: heads))
  }

  /// Puts the desk in the named profile, by hand: refused, with the reason, when there is no
  /// such profile or it does not match the monitors present. It stays in force until the
  /// monitors, the lid or the config change.
  public func switchProfile(_ name: String) throws(DisplayError) -> ProfileSwitchRefusal? {
    if case .failure(let refusal) = try switchTo(.profile(name)) { return refusal }
    return nil
  }

  /// What a profile's choice depends on now: the monitors, the lid and the config.
  var desk: DeskKey { DeskKey(heads, lid: lid, config: config) }

  /// The profile to apply: the one (or the built-in layout) chosen by hand while the desk
  /// is the same and it still fits, else the first that matches.
  func chooseProfile() -> (profile: Profile, assignment: HeadProfileAssignment, reason: ProfileReason)? {
    if let manual = profileRuntime.manual, manual.desk == desk, case .success(let chosen) = resolve(manual.choice) {
      return (chosen.profile, chosen.assignment, .switched)
    }
    (profileRuntime.manual, profileRuntime.automaticLayout) = (nil, nil)
    return HeadProfileMatcher.choose(
      config.profiles, snapshot: heads, lid: lid, vendors: layoutServer.vendors(of: heads)
    ).map {
      ($0.profile, $0.assignment, .matched)
    }
  }

  /// Chooses a profile and, unless it is in force on this desk already, applies it. Returns
  /// whether a profile was chosen (else the per-monitor rules apply) and the events seen.
  /// The choice is made again in every round of the apply loop: a stale snapshot may show
  /// other monitors.
  func arrangeProfile(_ n: Int, reason: String) throws(DisplayError) -> (handled: Bool, events: [HeadEvent]) {
    var events: [HeadEvent] = []
    var handled = true
    var name = ""
    // Whether the profile is in force, once an apply or a planning error said so.
    var result: (profile: Profile, applied: Bool)?
    let words = ApplyWording(subject: { "profile '\(name)'" }, unscaled: "no scale for it")
    let ended = try applyConfigurations(n, reason, words, &events) { noRotation in
      result = nil
      guard let choice = chooseProfile() else {
        noProfileMatches()
        handled = false
        return nil
      }
      name = choice.profile.name
      switch planProfile(choice, n, reason, noRotation) {
      case .inForce: return nil
      case .failed:
        result = (choice.profile, false)
        return nil
      case .plan(let plan):
        result = (choice.profile, false)
        return plan
      }
    } judge: { step in
      switch step {
      case .unchanged:
        log.debug("reconcile \(n) (\(reason)): profile '\(name)' in force; nothing to change")
        result?.applied = true
      case .applied(let plan, let report, let errors):
        result?.applied = self.report(report, errors, plan, name, n, reason)
        // Once the choice ends, the rules plan a main it lit for its rule's mode, as the
        // outputs they lit themselves.
        if result?.applied == true {
          litByDaemon.formUnion(listed(Set(plan.configuration.heads.filter(\.enabled).map(\.name))))
        }
        // Refused and rolled back to a dark desk: tried again.
        if result?.applied == false && deskIsDark { return false }
      }
      return true
    }
    guard ended else {
      log.error("reconcile \(n) (\(reason)): the profile could not be applied in \(Self.maxRounds) rounds")
      return (true, events)
    }
    guard handled, let result else { return (handled, events) }
    record(result.profile, applied: result.applied)
    return (true, events)
  }

  /// None is active: the per-monitor rules apply, and `Xft.dpi` follows no profile.
  private func noProfileMatches() {
    if profileRuntime.active.name != nil {
      log.info("profile: none matches the monitors present")
      // The profile may have lit the panel on a desk the lid policy was done with: it looks again.
      if lid == .closed { profileRuntime.lidDesk = nil }
    }
    profileRuntime.active = ActiveProfile(name: nil, reason: .none)
    (profileRuntime.chosen, profileRuntime.applied) = (nil, nil)
    followXftDPI(nil)
  }

  /// The profile was applied on this desk (or failed, and is not tried again on it).
  private func record(_ profile: Profile, applied: Bool) {
    // Put back after the server reset a monitor: in force again, not newly applied (no hook).
    let again = profileRuntime.serverReset && profileRuntime.applied?.name == profile.name
    profileRuntime.serverReset = false
    (profileRuntime.applied, profileRuntime.failed) = ((profile.name, desk), !applied)
    // Leaving the profile later, every monitor gets the per-monitor rules afresh.
    (settled, failures) = ([:], [:])
    guard applied, !again else { return }
    followXftDPI(profile)
    onProfileApplied?(profile)
  }

  enum ProfilePlanning {
    /// Applied on this desk already: nothing to do.
    case inForce
    /// The planner refused it (logged).
    case failed
    case plan(HeadPlan)
  }

  /// Makes the chosen profile the one in force and plans it (unless it is in force on this
  /// desk already), without rotation for the outputs in `noRotation`.
  private func planProfile(
    _ choice: (profile: Profile, assignment: HeadProfileAssignment, reason: ProfileReason), _ n: Int, _ reason: String,
    _ noRotation: Set<String>
  ) -> ProfilePlanning {
    let active = ActiveProfile(name: choice.profile.name, reason: choice.reason)
    if active != profileRuntime.active { log.info("profile '\(choice.profile.name)' \(choice.reason.rawValue)") }
    profileRuntime.active = active
    profileRuntime.chosen = (choice.profile, choice.assignment)
    // A dark desk is never in force (another client turned the last monitor off, or a head
    // came back off): planned again, never left dark.
    if let applied = profileRuntime.applied, applied.name == choice.profile.name, applied.desk == desk, !deskIsDark,
      !profileRuntime.serverReset
    {
      log.debug("reconcile \(n) (\(reason)): profile '\(choice.profile.name)' in force; nothing to change")
      return .inForce
    }
    var planned = choice.profile
    for (i, name) in choice.assignment.heads.enumerated() where noRotation.contains(name) {
      (planned.outputs[i].transform, planned.outputs[i].transformSpelling) = (.normal, .turned)
    }
    let planner = HeadProfilePlanner(snapshot: heads, config: config, lid: lid)
    do {
      var plan = try planner.plan(planned, assignment: choice.assignment)
      xft.planned = plan.dpi
      // Heads do not say the desk's millimetres: one the screen has already is none to set.
      let mm = PhysicalSize(width: screen.mmWidth, height: screen.mmHeight)
      if plan.configuration.physicalSize == mm { plan.configuration.physicalSize = nil }
      return .plan(HeadPlan(configuration: plan.configuration, warnings: plan.warnings, configures: plan.configures))
    } catch {
      log.error("reconcile \(n) (\(reason)): \(error)")
      return .failed
    }
  }

  /// Logs what an apply did; whether it put the profile in force.
  private func report(
    _ report: ApplyReport, _ errors: [ApplyProblem], _ plan: HeadPlan, _ name: String, _ n: Int, _ reason: String
  ) -> Bool {
    guard errors.isEmpty else {
      for problem in errors { log.error("\(problem)") }
      log.error("reconcile \(n) (\(reason)): profile '\(name)' not applied; the layout before it was restored")
      return false
    }
    counters.reconcilesChanged += 1
    var parts = [describe(report)].filter { !$0.isEmpty }
    if let primary = plan.configuration.primary { parts.append("primary \(primary)") }
    if let mm = plan.configuration.physicalSize { parts.append("\(mm.width)x\(mm.height) mm") }
    log.info("reconcile \(n) (\(reason)): profile '\(name)': " + parts.joined(separator: ", "))
    return true
  }
}

/// Why `profile switch` was refused.
public enum ProfileSwitchRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  case unknown(name: String, known: [String])
  case mismatch(name: String, ProfileMismatch)
  /// A built-in layout the monitors present do not allow.
  case layout(BuiltinLayout, LayoutRefusal)
  /// A built-in layout the planner refuses (it would not fit the screen, or leave it dark).
  case layoutPlan(BuiltinLayout, ProfilePlanError)
  /// `profile cycle` with no profile matching and no built-in layout possible.
  case nothingToCycle
  /// Planned, but the server refused it: rolled back, the choice before it stays.
  case notApplied(LayoutChoice)

  public var description: String {
    switch self {
    case .unknown(let name, let known):
      return "no profile named '\(name)'"
        + (known.isEmpty ? "; the config has none" : " (profiles: \(known.joined(separator: ", ")))")
    case .mismatch(let name, let why): return "profile '\(name)' does not match the monitors present: \(why)"
    case .layout(let layout, let why): return "layout '\(layout.rawValue)' is not possible: \(why)"
    case .layoutPlan(let layout, let why): return "layout '\(layout.rawValue)' is not possible: \(why)"
    case .nothingToCycle: return "no profile matches the monitors present and no built-in layout is possible"
    case .notApplied(let choice):
      return "\(choice) could not be applied (the server refused it; the log says why): the layout before it stays"
    }
  }
}
