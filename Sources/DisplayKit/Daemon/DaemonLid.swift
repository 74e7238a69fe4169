import DisplayModel

extension Daemon {
  /// `defaults.lid_closed` when no profile matches: once per desk (monitors, lid, config),
  /// while the lid is closed, the built-in panel goes off if another output is lit; when it
  /// opens again, the panel comes back where it was. Outputs it turns off or on are settled.
  func arrangeLid(_ n: Int) throws(DisplayError) -> [TopologyEvent] {
    let now = desk
    guard config.lidClosed == .disable, now != profileRuntime.lidDesk,
      lid == .closed || profileRuntime.lidDesk?.lid == .closed
    else { return [] }
    profileRuntime.lidDesk = now
    var events: [TopologyEvent] = []
    for _ in 0..<Self.maxRounds {
      let panel = LidPolicy.panel(in: topology, config: config)
      let plan = LidPolicy.plan(topology: topology, config: config, lid: lid, previous: profileRuntime.panelRect)
      for warning in plan.warnings { log.warning(warning) }
      guard !plan.isEmpty else { break }
      let before = panel.flatMap { topology.geometry(of: $0) }
      let outcome = try connection.apply(plan, in: topology)
      events += adopt(try connection.snapshot())
      if outcome.stale { continue }
      let problems =
        outcome.failed.map { "could not configure \($0.change.outputName): \($0.reason)" } + outcome.problems
        + [outcome.refused].compactMap { $0 } + outcome.notRestored.map { "not restored: " + $0 }
      guard problems.isEmpty else {
        for problem in problems { log.error("lid \(lid.rawValue): \(problem)") }
        break
      }
      if lid == .closed, let before { profileRuntime.panelRect = before }
      for id in plan.configures { settle(id) }
      counters.reconcilesChanged += 1
      let name = panel?.name ?? "the panel"
      let on = panel.flatMap { topology.output($0.id) }.flatMap { topology.geometry(of: $0) } != nil
      log.info("reconcile \(n): lid \(lid.rawValue), \(name) \(on ? "on" : "off"): " + describe(outcome))
      break
    }
    return events
  }
}
