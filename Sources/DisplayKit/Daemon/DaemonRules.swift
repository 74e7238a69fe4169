import DisplayModel

extension Daemon {
  /// The per-monitor rules for the outputs not settled (nor failed too often, nor waiting for
  /// the grace, nor the panel the lid policy keeps off). Outputs whose configuration failed
  /// are counted, and the rest planned again without them.
  func arrangeRules(_ n: Int, _ reason: String, _ events: inout [TopologyEvent]) throws(DisplayError) {
    var excluded = Set(failures.filter { $0.value.count >= Self.maxAttempts }.keys)
    let words = ApplyWording(subject: { "reconcile \(n) (\(reason))" }, unscaled: "scale 1 instead")
    _ = try applyLoop(n, reason, words, &events) { noRotation in
      // A round after a stale snapshot sees the new one: a monitor swapped meanwhile on a
      // settled output is a new monitor.
      forgetGoneMonitors()
      let main = unsettledMain()
      if let main, main.inItsMode { settle(main.output.id) }
      // CRTCs that refused a transform once are planned unscaled from then on, as for profiles.
      // The lid policy alone lights or darkens the panel while the lid is closed: planned here,
      // it would be lit only to go off again (and stay lit if the lid policy is done on this desk).
      var planner = Planner(
        topology: topology, config: config, noTransform: profileRuntime.noTransform, noRotation: noRotation)
      planner.replanningMain = main.map { !$0.inItsMode && litByDaemon.contains($0.output.id) } ?? false
      return planner.plan(settled: Set(settled.keys).union(excluded).union(grace.pending.keys).union(closedPanel))
    } judge: { step in
      let (plan, outcome, errors): (Plan, ApplyOutcome, [ApplyProblem])
      switch step {
      case .unchanged(let plan):
        for id in plan.configures { settle(id) }
        log.debug("reconcile \(n) (\(reason)): nothing to change")
        return true
      case .applied(let p, let o, let e): (plan, outcome, errors) = (p, o, e)
      }
      counters.reconcilesChanged += outcome.applied.isEmpty || !outcome.failed.isEmpty ? 0 : 1
      log.info("reconcile \(n) (\(reason)): " + describe(outcome))
      for problem in errors { log.error("\(problem)") }
      var failed = Set(outcome.failed.flatMap(\.change.outputs)).intersection(plan.configures)
      // A monitor that was only to move failed, or the screen: every new one is to blame.
      if failed.isEmpty && !errors.isEmpty { failed = plan.configures }
      guard !failed.isEmpty else {
        for id in plan.configures { settle(id) }
        let lit = Set(plan.changes.filter { $0.mode != nil }.flatMap(\.outputs))
        litByDaemon.formUnion(plan.configures.intersection(lit))
        return true
      }
      countFailures(failed)
      excluded.formUnion(failed)
      return false
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
  private func unsettledMain() -> (output: Output, inItsMode: Bool)? {
    guard let main = config.mainOutput(in: topology), settled[main.id] == nil, grace.pending[main.id] == nil,
      let crtc = topology.activeCrtc(of: main), let settings = config.settings(for: main), settings.enabled
    else { return nil }
    let wanted = ModePolicy.candidates(settings.mode, custom: settings.custom, for: main, in: topology).modes.first
    return (main, wanted == nil || wanted?.id == crtc.mode)
  }

  /// One more failure in a row for each output's monitor (the first for a new monitor).
  private func countFailures(_ failed: Set<OutputID>) {
    for id in failed {
      let monitor = MonitorKey(topology.output(id))
      let before = failures[id].flatMap { $0.monitor == monitor ? $0.count : nil } ?? 0
      failures[id] = (monitor, before + 1)
    }
  }
}
