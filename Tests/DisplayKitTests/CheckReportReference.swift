import DisplayCLI
import DisplayModel
import DisplaySupport

@testable import DisplayX11

/// `check-config`'s report over RandR's topology (`Planner`, `Config.mainOutput(in:)` and
/// `ProfileExplain` over a `Topology`): the reference `CheckReport` over heads must print
/// byte for byte (`CheckReportOverHeads`).
enum CheckReportReference {
  static func text(config: Config, topology: Topology, lid: LidState) -> String {
    guard !config.profiles.isEmpty else {
      var text = text(config: config, topology: topology)
      if config.lidClosed == .disable, let panel = LidPolicy.panel(in: topology, config: config) {
        text +=
          "lid \(lid.rawValue): lid_closed disable turns \(printable(panel.name)) off while the lid is closed and another output is lit\n"
      }
      return text
    }
    return printableLines(ProfileExplain.lines(config: config, topology: topology, lid: lid))
  }

  /// Without profiles: each connected monitor and what the `monitors` rules give it.
  static func text(config: Config, topology: Topology) -> String {
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
      guard let settings = config.settings(for: output) else {
        lines.append("\(name): ignored by a rule")
        continue
      }
      if !settings.enabled && plan.configures.contains(output.id) {
        lines.append("\(name): off (enabled: false)")
        continue
      }
      let change = plan.changes.first { $0.outputs.contains(output.id) }
      let mode = (change?.mode ?? topology.currentMode(of: output)?.id).flatMap { plan.mode($0, in: topology) }
      let place = change.map { "\($0.x),\($0.y)" } ?? topology.geometry(of: output).map { "\($0.x),\($0.y)" } ?? "?"
      lines.append(
        "\(name): mode \(mode.map(\.label) ?? "none") (\(settings.mode)) at \(place) (\(settings.position)), "
          + "content \(settings.content.rawValue), level \(settings.level.rawValue)" + layout(change, plan, output))
    }
    for warning in plan.warnings { lines.append("warning: \(warning)") }
    return printableLines(lines)
  }

  /// What a rule's layout keys do to the monitor: its rotation, scale and primary, when any.
  static func layout(_ change: CrtcChange?, _ plan: ReferencePlan, _ output: Output) -> String {
    var words: [String] = []
    if let r = change?.rotation, r != .normal {
      if r.name != "normal" { words.append("rotate \(r.name)") }
      let reflect = [r.contains(.reflectX) ? "x" : "", r.contains(.reflectY) ? "y" : ""].joined()
      if !reflect.isEmpty { words.append("reflect \(reflect)") }
    }
    if let t = change?.transform, !t.isIdentity, t.matrix.count == 9 {
      words.append("scale \(t.matrix[0]) (\(t.filter.rawValue))")
    }
    if plan.primary == output.id { words.append("primary") }
    return words.map { ", " + $0 }.joined()
  }
}

extension Topology {
  /// The heads the RandR backend reads of this desk, from a server holding it.
  func randrHeads() throws -> HeadSnapshot { try RandROutputManager(server: FakeRandRServer(self)).heads(probe: false) }
}
