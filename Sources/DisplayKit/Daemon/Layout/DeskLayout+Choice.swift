import DisplayModel

extension DeskLayout {
  /// The layout chosen by hand and still in force; nil while the choice is automatic.
  var layoutChoice: LayoutChoice? { profileRuntime.manual?.choice }

  /// Whether the layout in force is a built-in one (so no profile of the config is active).
  var isBuiltinInForce: Bool {
    if case .layout? = layoutChoice { return activeProfile.reason == .switched }
    return false
  }

  /// Makes `choice` the choice by hand on this desk; the first one also keeps the layout
  /// automatic choice had, to put back when it resumes.
  func beginManual(_ choice: LayoutChoice) {
    if profileRuntime.manual == nil {
      let saved = SavedLayout(heads: heads)
      (profileRuntime.automaticLayout, profileRuntime.automaticLit) = (saved, litByDaemon)
    }
    profileRuntime.manual = (choice, desk)
  }

  /// Puts the desk in `choice` by hand: refused, with the reason, when the profile does not
  /// match or the layout is not possible with the monitors present. It stays in force until
  /// the set of monitors, the lid or the config changes; then, or on `resumeAutomatic()`,
  /// automatic choice resumes and what the manual choices changed is put back. Returns
  /// whether the layout changed (false: it was in force already), with the events seen (nil
  /// when refused up front).
  func switchTo(_ choice: LayoutChoice) throws(DisplayError) -> (
    result: Result<Bool, ProfileSwitchRefusal>, events: [HeadEvent]?
  ) {
    if case .failure(let refusal) = resolve(choice, planned: true) { return (.failure(refusal), nil) }
    // What a refused choice must not change: the outputs configured before stay settled.
    let (previous, wasSettled, hadFailed) = (profileRuntime, settled, failures)
    beginManual(choice)
    (profileRuntime.applied, profileRuntime.failed) = (nil, false)
    let before = counters.reconcilesChanged
    let events = try arrange(reason: "profile switch")
    let failed = profileRuntime.failed
    if failed {
      // Rolled back to the layout before it: so is the choice (what was learnt, the backend
      // keeps).
      profileRuntime = previous
      (settled, failures) = (wasSettled, hadFailed)
    }
    return (failed ? .failure(.notApplied(choice)) : .success(counters.reconcilesChanged != before), events)
  }

  /// Ends a manual choice at once: the layout automatic choice had is put back, then chosen
  /// again. Returns the events seen; nil when the choice was automatic already (nothing is
  /// done).
  func resumeAutomatic() throws(DisplayError) -> [HeadEvent]? {
    guard profileRuntime.manual != nil else { return nil }
    counters.reconciles += 1
    let events = try resumeAutomatic(counters.reconciles, reason: "automatic choice")
    return events + (try arrange(reason: "automatic choice"))
  }

  /// What `profile cycle` steps through: the profiles that match the monitors present, in
  /// config order, then the built-in layouts possible now, in `BuiltinLayout` order.
  var cycleOrder: [LayoutChoice] {
    let vendors = self.vendors
    let profiles = config.profiles.filter { profile in
      if case .success = ProfileMatcher.match(profile, snapshot: heads, lid: lid, vendors: vendors) { return true }
      return false
    }
    let layouts = BuiltinLayout.allCases.filter { layout in
      if case .success = resolve(.layout(layout), planned: true) { return true }
      return false
    }
    return profiles.map { .profile($0.name) } + layouts.map { .layout($0) }
  }

  /// The entry of `cycleOrder` after the one in force (the manual choice, else the matched
  /// profile), wrapping around; the first when neither is in the order; nil when the order
  /// is empty.
  var nextInCycle: LayoutChoice? {
    let order = cycleOrder
    guard let first = order.first else { return nil }
    let current = layoutChoice ?? activeProfile.name.map { LayoutChoice.profile($0) }
    return current.flatMap { order.firstIndex(of: $0) }.map { order[($0 + 1) % order.count] } ?? first
  }

  /// The profile a choice stands for on the desk now, with the heads its entries take;
  /// `planned` also asks the planner the apply uses, so a built-in layout that cannot be
  /// planned is refused up front.
  func resolve(_ choice: LayoutChoice, planned: Bool = false) -> Result<BuiltinProfile, ProfileSwitchRefusal> {
    let vendors = self.vendors
    switch choice {
    case .profile(let name):
      guard let profile = config.profiles.first(where: { $0.name == name }) else {
        return .failure(.unknown(name: name, known: config.profiles.map(\.name)))
      }
      switch ProfileMatcher.match(profile, snapshot: heads, lid: lid, vendors: vendors) {
      case .success(let assignment): return .success(BuiltinProfile(profile: profile, assignment: assignment))
      case .failure(let why): return .failure(.mismatch(name: name, why))
      }
    case .layout(let layout):
      let chosen: BuiltinProfile
      switch BuiltinLayouts.profile(
        layout, snapshot: heads, config: config, mainMode: automaticMainMode, vendors: vendors)
      {
      case .success(let made): chosen = made
      case .failure(let why): return .failure(.layout(layout, why))
      }
      guard planned else { return .success(chosen) }
      let planner = ProfilePlanner(snapshot: heads, config: config, lid: lid)
      do {
        let plan = try planner.plan(chosen.profile, assignment: chosen.assignment)
        if let tooLarge = beyondScreen(plan, chosen.profile.name) { return .failure(.layoutPlan(layout, tooLarge)) }
      } catch {
        return .failure(.layoutPlan(layout, error))
      }
      return .success(chosen)
    }
  }

  /// A desk larger than the server's largest screen, which its backend would refuse: so
  /// `profile cycle` steps over the layout. Left to the backend when a head alone is larger
  /// (it may give that head a smaller mode).
  private func beyondScreen(_ plan: ProfilePlan, _ name: String) -> ProfilePlanError? {
    let (screen, areas) = (self.screen, plan.areas.values)
    guard areas.allSatisfy({ screen.holds($0.width, $0.height) }) else { return nil }
    let width = max(screen.minWidth, areas.map { $0.x.addingReportingOverflow($0.width).partialValue }.max() ?? 0)
    let height = max(screen.minHeight, areas.map { $0.y.addingReportingOverflow($0.height).partialValue }.max() ?? 0)
    guard !screen.holds(width, height) else { return nil }
    let (maxWidth, maxHeight) = screen.largest
    return .tooLarge(profile: name, width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
  }

  /// The mode main had under automatic choice (so `mirror`'s common mode is not kept by the
  /// next layout), when the same monitor was main and lit then and still lists the mode;
  /// nil: the mode it has.
  var automaticMainMode: HeadMode? {
    guard let saved = profileRuntime.automaticLayout?.heads,
      let main = BuiltinLayouts.main(in: heads, config: config),
      let before = saved.head(named: main.name), before.edid == main.edid,
      (before.make, before.model, before.serial) == (main.make, main.model, main.serial), before.enabled,
      let mode = before.mode, main.modes.contains(where: { Self.sameMode($0, mode) })
    else { return nil }
    return mode
  }

  /// Whether two modes a head lists are the same one: the same size and rate, and the same
  /// server handle where the server gives modes one (RandR's mode XID).
  static func sameMode(_ a: HeadMode, _ b: HeadMode) -> Bool {
    a.serverID == b.serverID && a.width == b.width && a.height == b.height && a.refreshMilliHz == b.refreshMilliHz
      && a.interlaced == b.interlaced
  }

  /// The built-in panel while the lid is closed and the config turns it off then: not lit
  /// again by a restore.
  var closedPanel: Set<String> {
    guard lid == .closed, config.lidClosed == .disable, let panel = LidPolicy.panel(in: heads, config: config)
    else { return [] }
    return [panel.name]
  }

  /// Drops the manual choice and puts back the layout automatic choice had
  /// (`LayoutRestore`, with the screen's physical size), in one apply (the apply loop
  /// over the port's); automatic choice then runs as usual.
  func resumeAutomatic(_ n: Int, reason: String) throws(DisplayError) -> [HeadEvent] {
    let saved = profileRuntime.automaticLayout
    log.info("manual \(profileRuntime.manual?.choice.description ?? "choice") ends (\(reason)): automatic choice")
    (profileRuntime.manual, profileRuntime.automaticLayout, profileRuntime.applied) = (nil, nil, nil)
    // Every monitor gets automatic choice afresh, as after leaving a profile.
    (settled, failures) = ([:], [:])
    // The choice may have lit the panel on a desk the lid policy was done with: it looks again.
    if lid == .closed { profileRuntime.lidDesk = nil }
    guard let saved else { return [] }
    var events: [HeadEvent] = []
    let words = ApplyWording(subject: { "the layout before the manual choice" }, unscaled: "scale 1 instead")
    _ = try applyConfigurations(n, reason, words, &events) { _ in
      LayoutRestore.plan(
        saved: saved.heads, now: heads, keptOff: closedPanel, screen: (saved: saved.screen, now: screen))
    } judge: { step in
      guard case .applied(_, let report, let errors) = step else { return true }
      for problem in errors {
        // A restore names what it could not put back as such.
        if case .couldNotConfigure(let output, let why) = problem {
          log.error("could not restore \(output): \(why)")
        } else {
          log.error("\(problem)")
        }
      }
      if errors.isEmpty { log.info("reconcile \(n) (\(reason)): restored " + describe(report)) }
      // Refused and rolled back to a dark desk: tried again.
      return errors.isEmpty || !deskIsDark
    }
    litByDaemon = profileRuntime.automaticLit.union(keptLit(saved.heads))
    return events
  }

  /// Lit as automatic choice had it: by whom it was then. Lit where it was off then (kept
  /// so that the desk is not dark): by the choice, so the rules plan it for its mode.
  private func keptLit(_ saved: HeadSnapshot) -> [String] {
    heads.heads.filter { $0.connected && $0.rect != nil && saved.head(named: $0.name)?.rect == nil }.map(\.name)
  }
}
