import DisplayX11

@testable import DisplayModel

// A config read over RandR's outputs, for the RandR-shaped reference planners (`Planner`,
// `ProfilePlanner`, `BuiltinLayouts.profile`, `LidPolicy.plan(topology:…)`, `wantedWindows`).
extension Config {
  /// The first `monitors` rule matching the output: the one that gives its settings and
  /// its extras.
  func rule(for output: Output) -> MonitorRule? {
    monitors.first { $0.match.matches(output, output.identity) }
  }

  /// The settings for a monitor: nil when a rule says to ignore it.
  func settings(for output: Output) -> MonitorSettings? { settings(by: rule(for: output)) }

  /// What the first `monitors` rule matching the output asks besides its layout (the rule
  /// that gives its settings); nil when none does, or the rule ignores the output.
  func extras(for output: Output) -> OutputExtras? {
    extras(by: rule(for: output))
  }

  /// The main output. An output a `monitors` rule makes primary (`primary: true`) is a
  /// monitor the daemon arranges, not main, unless `main` names it: else making it primary
  /// would make it main and turn the old main into a monitor to arrange. Then main is the
  /// built-in panel, else the first other connected output (lit ones first).
  func mainOutput(in topology: Topology) -> Output? {
    let found = plainMain(in: topology)
    guard let found, found.name != main, madePrimary(found) else { return found }
    let others = topology.connectedOutputs.filter { !madePrimary($0) }
    let lit = others.filter { topology.geometry(of: $0) != nil }
    return lit.first(where: \.isInternalPanel) ?? lit.first ?? others.first(where: \.isInternalPanel) ?? others.first
      ?? found
  }

  /// Whether a `monitors` rule makes this output primary.
  func madePrimary(_ output: Output) -> Bool { settings(for: output)?.primary == true }

  /// `main` from the config when that output is connected and lit, else the topology's
  /// (RandR primary, built-in panel, first connected) when lit, else the first lit output (a
  /// profile or the lid may have turned main off), else the topology's.
  func plainMain(in topology: Topology) -> Output? {
    let lit = { (output: Output) in output.isConnected && topology.geometry(of: output) != nil }
    if let name = main, let output = topology.output(named: name), lit(output) { return output }
    if let output = topology.mainOutput, lit(output) { return output }
    return topology.connectedOutputs.first(where: lit) ?? topology.mainOutput
  }
}

extension MonitorMatch {
  /// Whether the output (and its EDID) has every field given; string fields are globs. Without
  /// an EDID the identity keys match the head's make, model and serial (`HeadIdentity`).
  func matches(_ output: Output, _ edid: EDID?) -> Bool {
    matches(name: output.name, edid, identity: output.headIdentity)
  }
}
