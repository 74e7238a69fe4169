import DisplayKit

/// What `check-config` prints: each connected monitor and what the config gives it.
public enum CheckReport {
  public static func text(config: Config, topology: Topology) -> String {
    let plan = Planner(topology: topology, config: config).plan(settled: [])
    let main = config.mainOutput(in: topology)
    var lines: [String] = []
    for output in topology.connectedOutputs {
      let edid = output.identity
      let name = output.name + (edid.map { " [" + EDIDReport.identityLine($0) + "]" } ?? "")
      if output.id == main?.id {
        lines.append("\(name): main output, left as it is")
        continue
      }
      guard let settings = config.settings(for: output, identity: edid) else {
        lines.append("\(name): ignored by a rule")
        continue
      }
      let change = plan.changes.first { $0.outputs.contains(output.id) }
      let mode = (change?.mode ?? topology.currentMode(of: output)?.id).flatMap { topology.modes[$0] }
      let place = change.map { "\($0.x),\($0.y)" } ?? topology.geometry(of: output).map { "\($0.x),\($0.y)" } ?? "?"
      lines.append(
        "\(name): mode \(mode.map(\.label) ?? "none") (\(settings.mode)) at \(place) (\(settings.position)), "
          + "content \(settings.content.rawValue), level \(settings.level.rawValue)")
    }
    for warning in plan.warnings { lines.append("warning: \(warning)") }
    return lines.map { $0 + "\n" }.joined()
  }
}
