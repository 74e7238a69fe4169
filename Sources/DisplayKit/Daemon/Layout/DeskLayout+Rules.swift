import DisplayModel

extension DeskLayout {
  /// The per-monitor rules for the heads not settled (nor failed too often, nor waiting for
  /// the grace, nor the panel the lid policy keeps off), planned over the daemon's heads and
  /// applied through the port. Monitors whose configuration failed are counted, and the rest
  /// planned again without them.
  func arrangeRules(_ n: Int, _ reason: String, _ events: inout [HeadEvent]) throws(DisplayError) {
    var excluded = Set(failures.filter { $0.value.count >= Self.maxAttempts }.keys)
    let words = ApplyWording(subject: { "reconcile \(n) (\(reason))" }, unscaled: "scale 1 instead")
    _ = try applyConfigurations(n, reason, words, &events) { noRotation in
      // A round after a stale snapshot sees the new one: a monitor swapped meanwhile on a
      // settled output is a new monitor.
      forgetGoneMonitors()
      let main = unsettledMain()
      if let main, main.inItsMode { settle(main.name) }
      // The lid policy alone lights or darkens the panel while the lid is closed: planned here,
      // it would be lit only to go off again (and stay lit if the lid policy is done on this desk).
      // A transform a CRTC refused the backend remembers: its heads then say they cannot scale.
      var planner = RulePlanner(
        snapshot: heads, config: config, vendors: layoutServer.vendors(of: heads), main: rulesMain)
      planner.noRotation = noRotation
      planner.replanningMain = main.map { !$0.inItsMode && litByDaemon.contains($0.name) } ?? false
      let left = Set(settled.keys).union(excluded).union(pendingNames).union(closedPanel)
      return planner.plan(settled: listed(left))
    } judge: { step in
      if let plan = Self.setNothing(step) {
        for name in plan.configures { settle(name) }
        log.debug("reconcile \(n) (\(reason)): nothing to change")
        return true
      }
      guard case .applied(let plan, let report, let errors) = step,
        let failed = judgeRules(n, reason, plan, report, errors)
      else { return true }
      excluded.formUnion(failed)
      return false
    }
  }

  /// Logs what an apply of the rules did; settles the heads it configured (and counts those
  /// it lit as the daemon's) when it is in force, else counts a failure for each monitor to
  /// blame and returns their heads, to plan again without them.
  private func judgeRules(
    _ n: Int, _ reason: String, _ plan: RulePlan, _ report: ApplyReport, _ errors: [ApplyProblem]
  ) -> Set<String>? {
    counters.reconcilesChanged += report.entries.isEmpty || !errors.isEmpty ? 0 : 1
    log.info("reconcile \(n) (\(reason)): " + describe(report))
    for problem in errors { log.error("\(problem)") }
    var failed = Set(report.failed.flatMap(\.heads)).intersection(plan.configures)
    // A monitor that was only to move failed, or the screen: every new one is to blame.
    if failed.isEmpty && !errors.isEmpty { failed = plan.configures }
    guard !failed.isEmpty else {
      for name in plan.configures { settle(name) }
      let lit = Set(plan.configuration.heads.filter(\.enabled).map(\.name))
      litByDaemon.formUnion(listed(plan.configures.intersection(lit)))
      return nil
    }
    let names = listed(failed)
    countFailures(names)
    return names
  }

  /// The plan of a step that set nothing: nothing to send, or a backend that found every head
  /// already as asked (a mode given way to the one the head shows), with no desk size and no
  /// primary to set; nil for any other step.
  private static func setNothing(_ step: ConfigurationStep) -> RulePlan? {
    switch step {
    case .unchanged(let plan): return plan
    case .applied(let plan, let report, let errors):
      let nothing =
        errors.isEmpty && report.entries.isEmpty && report.deskSize == nil && report.failed.isEmpty
        && plan.configuration.primary == nil
      return nothing ? plan : nil
    }
  }

  /// Main, lit, not settled, not in its grace, and kept on by its rule, with whether it is in
  /// the mode its rule asks (or its rule asks none); nil for any other main.
  ///
  /// In its mode, main is settled where it is: the rules never move it, and when another
  /// output becomes main (one lit after it, the primary lit again) it is not placed afresh by
  /// the next look as a monitor never configured. In another mode, on an output the daemon lit
  /// (another monitor swapped on it, a reload gave it another rule, or a profile or a layout
  /// chosen by hand lit it and is no longer in force), it is planned for its
  /// mode, as a fresh daemon would have planned it before it became main; a main the daemon
  /// never lit (the panel at start-up, one lit by hand) stays as it is, and is planned once it
  /// is no longer main (in the same reconcile: `arrange`).
  ///
  /// A main whose rule turns it off is lit only because it is main (never a dark desk): not
  /// settled, so the rule turns it off once another output is main.
  private func unsettledMain() -> (name: String, inItsMode: Bool)? {
    guard let main = rulesMain, settled[main.name] == nil, !pendingNames.contains(main.name), main.rect != nil,
      let current = main.mode, let settings = config.settings(for: main, vendors: layoutServer.vendors(of: heads)),
      settings.enabled
    else { return nil }
    let wanted = ModePolicy.candidates(settings.mode, custom: settings.custom, for: main).modes.first
    return (main.name, wanted.map { $0.listed == current } ?? true)
  }

  /// One more failure in a row for each head's monitor (the first for a new monitor).
  private func countFailures(_ failed: Set<String>) {
    for name in failed {
      let monitor = MonitorKey(heads.head(named: name))
      let before = failures[name].flatMap { $0.monitor == monitor ? $0.count : nil } ?? 0
      failures[name] = (monitor, before + 1)
    }
  }
}
