import DisplayModel

extension DeskLayout {
  /// The profile in force and why.
  var activeProfile: ActiveProfile { profileRuntime.active }

  /// Every profile of the config: whether it matches the monitors present now, and which is active.
  var profileListings: [ProfileListing] {
    let vendors = self.vendors
    return config.profiles.map { profile in
      let active = profile.name == activeProfile.name && !isBuiltinInForce
      return ProfileListing(name: profile.name, mismatch: mismatch(profile, vendors: vendors), active: active)
    }
  }

  /// Why `profile` does not match the monitors present and the lid; nil when it matches.
  func mismatch(_ profile: Profile, vendors: PNPVendors) -> ProfileMismatch? {
    guard case .failure(let why) = ProfileMatcher.match(profile, snapshot: heads, lid: lid, vendors: vendors)
    else { return nil }
    return why
  }

  /// The main output as the daemon treats it: with a profile in force, `LidPolicy.main`.
  var mainOutput: Head? {
    let vendors = self.vendors
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
    return config.mainOutput(in: heads, vendors: vendors)
  }

  /// What a profile's choice depends on now: the monitors, the lid and the config.
  var desk: DeskKey { DeskKey(heads, lid: lid, config: config) }

  /// The profile to apply: the one (or the built-in layout) chosen by hand while the desk
  /// is the same and it still fits, else the first that matches.
  func chooseProfile() -> (profile: Profile, assignment: ProfileAssignment, reason: ProfileReason)? {
    if let manual = profileRuntime.manual, manual.desk == desk, case .success(let chosen) = resolve(manual.choice) {
      return (chosen.profile, chosen.assignment, .switched)
    }
    (profileRuntime.manual, profileRuntime.automaticLayout) = (nil, nil)
    return ProfileMatcher.choose(
      config.profiles, snapshot: heads, lid: lid, vendors: vendors
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
    hooks.profileInForce(nil, nil)
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
    hooks.profileInForce(profile, profileRuntime.plannedDPI)
    hooks.profileApplied(profile)
  }

  enum ProfilePlanning {
    /// Applied on this desk already: nothing to do.
    case inForce
    /// The planner refused it (logged).
    case failed
    case plan(RulePlan)
  }

  /// Makes the chosen profile the one in force and plans it (unless it is in force on this
  /// desk already), without rotation for the outputs in `noRotation`.
  private func planProfile(
    _ choice: (profile: Profile, assignment: ProfileAssignment, reason: ProfileReason), _ n: Int, _ reason: String,
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
    let planner = ProfilePlanner(snapshot: heads, config: config, lid: lid)
    do {
      var plan = try planner.plan(planned, assignment: choice.assignment)
      profileRuntime.plannedDPI = plan.dpi
      // Heads do not say the desk's millimetres: one the screen has already is none to set.
      let mm = PhysicalSize(width: screen.mmWidth, height: screen.mmHeight)
      if plan.configuration.physicalSize == mm { plan.configuration.physicalSize = nil }
      return .plan(RulePlan(configuration: plan.configuration, warnings: plan.warnings, configures: plan.configures))
    } catch {
      log.error("reconcile \(n) (\(reason)): \(error)")
      return .failed
    }
  }

  /// Logs what an apply did; whether it put the profile in force (its lit heads then count
  /// as the daemon's).
  private func report(
    _ report: ApplyReport, _ errors: [ApplyProblem], _ plan: RulePlan, _ name: String, _ n: Int, _ reason: String
  ) -> Bool {
    guard errors.isEmpty else {
      for problem in errors { log.error("\(problem)") }
      log.error("reconcile \(n) (\(reason)): profile '\(name)' not applied; the layout before it was restored")
      return false
    }
    counters.reconcilesChanged += 1
    // Once the choice ends, the rules plan a main it lit for its rule's mode, as the outputs
    // they lit themselves.
    litByDaemon.formUnion(listed(Set(plan.configuration.heads.filter(\.enabled).map(\.name))))
    var parts = [describe(report)].filter { !$0.isEmpty }
    if let primary = plan.configuration.primary { parts.append("primary \(primary)") }
    if let mm = plan.configuration.physicalSize { parts.append("\(mm.width)x\(mm.height) mm") }
    log.info("reconcile \(n) (\(reason)): profile '\(name)': " + parts.joined(separator: ", "))
    return true
  }
}
