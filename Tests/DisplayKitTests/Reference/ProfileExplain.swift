import DisplayX11

@testable import DisplayModel

extension Topology {
  /// What the server would hold after `plan`, were every request to succeed: CRTCs, the
  /// outputs on them, the screen's size, primary and physical size. What the tests read a
  /// RandR-shaped reference plan back by.
  func after(_ plan: Plan) -> Topology {
    var t = self
    for (id, mode) in plan.customModes { t.modes[id] = mode }
    for change in plan.changes {
      guard let ci = t.crtcs.firstIndex(where: { $0.id == change.crtc }) else { continue }
      for i in t.outputs.indices where t.outputs[i].crtc == change.crtc { t.outputs[i].crtc = nil }
      var crtc = t.crtcs[ci]
      (crtc.mode, crtc.x, crtc.y, crtc.rotation, crtc.outputs) = (change.mode, change.x, change.y, change.rotation, [])
      (crtc.width, crtc.height, crtc.transform) = (0, 0, .identity)
      if let id = change.mode, let mode = t.modes[id], let size = mode.footprint(change.rotation, change.transform) {
        (crtc.width, crtc.height, crtc.transform) = (size.width, size.height, change.transform)
        crtc.outputs = change.outputs
        for i in t.outputs.indices where change.outputs.contains(t.outputs[i].id) { t.outputs[i].crtc = crtc.id }
      }
      t.crtcs[ci] = crtc
    }
    if let s = plan.screen { (t.screen.width, t.screen.height) = s }
    if let p = plan.primary { t.primary = p }
    if let mm = plan.screenMillimetres { (t.screen.mmWidth, t.screen.mmHeight) = mm }
    return t
  }
}

// `check-config`'s account over RandR's outputs and CRTCs: the RandR-shaped reference the
// report over heads is pinned against (`CheckReportReference`).
extension ProfileExplain {
  static func lines(config: Config, topology t: Topology, lid: LidState, noTransform: Set<CrtcID> = [])
    -> [String]
  {
    let (matched, chosen) = matching(config.profiles, lid: lid) { ProfileMatcher.match($0, topology: t, lid: lid) }
    var lines = matched
    guard let (profile, assignment) = chosen else {
      return lines + ["no profile matches: the monitors rules and defaults apply"] + rules(config, t, lid)
    }
    let planner = ProfilePlanner(topology: t, config: config, lid: lid, noTransform: noTransform)
    do {
      let plan = try planner.plan(profile, assignment: assignment)
      let after = t.after(plan.plan)
      for (entry, id) in zip(profile.outputs, assignment.outputs) {
        guard let output = after.output(id) else { continue }
        lines.append("  \(output.name): " + describe(output, entry, after))
      }
      lines.append(
        "  screen: \(after.screen.width)x\(after.screen.height), \(after.screen.mmWidth)x\(after.screen.mmHeight) mm")
      lines += plan.warnings.map { "  warning: \($0)" }
      if changesNothing(plan.plan) { lines.append("  already in force: nothing to change") }
    } catch {
      lines.append("  refused: \(error)")
    }
    return lines
  }

  static func changesNothing(_ plan: Plan) -> Bool {
    plan.changes.isEmpty && plan.screen == nil && plan.primary == nil && plan.screenMillimetres == nil
  }

  /// `1920x1080@60.00 at 0,0, rotate left, scale 1.5, primary, content placeholder`, or `off`.
  static func describe(_ output: Output, _ entry: ProfileOutput, _ t: Topology) -> String {
    guard let crtc = t.activeCrtc(of: output), let mode = t.currentMode(of: output) else { return "off" }
    var parts = ["\(mode.label) at \(crtc.x),\(crtc.y)"]
    if crtc.rotation.name != "normal" { parts.append("rotate \(crtc.rotation.name)") }
    let reflect = crtc.rotation.intersection([.reflectX, .reflectY])
    if !reflect.isEmpty {
      parts.append("reflect " + (reflect.contains(.reflectX) ? "x" : "") + (reflect.contains(.reflectY) ? "y" : ""))
    }
    if (crtc.width, crtc.height) != crtc.rotation.turned(mode.width, mode.height) {
      parts.append("showing \(crtc.width)x\(crtc.height)")
    }
    let others = crtc.outputs.filter { $0 != output.id }.compactMap { t.output($0)?.name }
    if !others.isEmpty { parts.append("same CRTC as " + others.joined(separator: ", ")) }
    if t.primary == output.id { parts.append("primary") }
    parts.append("content \(entry.content.rawValue)")
    return parts.joined(separator: ", ")
  }

  /// Without a profile: what each connected output gets from `monitors` and `defaults`.
  static func rules(_ config: Config, _ t: Topology, _ lid: LidState) -> [String] {
    var lines = t.connectedOutputs.map { ruleLine($0.name, config.settings(for: $0)) }
    if config.lidClosed == .disable, let panel = LidPolicy.panel(in: t, config: config) {
      lines.append(lidLine(panel.name))
    }
    return lines
  }
}
