import DisplayX11

@testable import DisplayModel

// The lid over RandR's outputs and CRTCs: the RandR-shaped reference `LidPolicy` and
// `LidPolicy`'s head functions are pinned against in the differential tests.
extension LidPolicy {
  /// The built-in panel: the connected output `panel` names, else the first connected
  /// `eDP*`, `LVDS*` or `DSI*` output.
  static func panel(in topology: Topology, config: Config) -> Output? {
    if let name = config.panel { return topology.output(named: name).flatMap { $0.isConnected ? $0 : nil } }
    return topology.connectedOutputs.first(where: \.isInternalPanel)
  }

  /// What the lid asks of the panel, with `lid_closed: "disable"`: closed, the panel goes off
  /// when another output is lit (the rest moves to start at 0,0; main takes over as primary);
  /// open (or closed with no output lit), a dark panel comes back at its preferred mode, at
  /// `previous` (where it was) when that place is free, else left of everything. Otherwise
  /// an empty plan: closing with no other output lit changes nothing. Call it when the lid
  /// or the monitors change.
  static func plan(topology: Topology, config: Config, lid: LidState, previous: Rect? = nil) -> ReferencePlan {
    guard config.lidClosed == .disable, let panel = panel(in: topology, config: config) else { return ReferencePlan() }
    switch (lid, topology.activeCrtc(of: panel)) {
    case (.closed, let crtc?): return close(panel, crtc, topology, config)
    case (.open, nil): return open(panel, topology, previous)
    // Closed with the panel dark and nothing else lit (the last monitor went): the panel
    // comes back on, never a dark desk.
    case (.closed, nil) where !topology.connectedOutputs.contains(where: { topology.geometry(of: $0) != nil }):
      return open(panel, topology, previous)
    default: return ReferencePlan()
    }
  }

  static func close(_ panel: Output, _ crtc: Crtc, _ t: Topology, _ config: Config) -> ReferencePlan {
    let others = t.connectedOutputs.filter { $0.id != panel.id && t.geometry(of: $0) != nil }
    guard !others.isEmpty else { return ReferencePlan() }
    // Every active CRTC without the panel, turned and transformed as it is; one that drove
    // only the panel goes off.
    var after: [CrtcChange] = t.crtcs.filter(\.isActive).map { c in
      CrtcChange(
        crtc: c.id, mode: c.mode, x: c.x, y: c.y, rotation: c.rotation, outputs: c.outputs.filter { $0 != panel.id },
        fallbacks: [], outputName: c.outputs.compactMap { t.output($0)?.name }.joined(separator: ","),
        transform: c.transform)
    }
    for i in after.indices where after[i].outputs.isEmpty { after[i].mode = nil }
    var plan = relayout(after, t, extra: nil)
    if t.primary == panel.id { plan.primary = main(topology: t, config: config, without: panel.id)?.id }
    plan.configures = [panel.id]
    return plan
  }

  static func open(_ panel: Output, _ t: Topology, _ previous: Rect?) -> ReferencePlan {
    guard let mode = ModePolicy.candidates(.preferred, for: panel, in: t).modes.first else { return ReferencePlan() }
    var crtcs = CrtcAllocator(t)
    guard let crtc = crtcs.free(for: panel) else {
      var plan = ReferencePlan()
      plan.warnings = [.cannotLight(output: panel.name, leftOff: true)]
      return plan
    }
    let lit = t.crtcs.filter(\.isActive)
    var rect = Rect(x: previous?.x ?? 0, y: previous?.y ?? 0, width: mode.width, height: mode.height)
    if previous == nil || lit.contains(where: { $0.rect.intersects(rect) }) {
      rect.x = (lit.map(\.x).min() ?? 0) - mode.width
      rect.y = lit.map(\.y).min() ?? 0
    }
    let after = lit.map { c in
      CrtcChange(
        crtc: c.id, mode: c.mode, x: c.x, y: c.y, rotation: c.rotation, outputs: c.outputs, fallbacks: [],
        outputName: c.outputs.compactMap { t.output($0)?.name }.joined(separator: ","), transform: c.transform)
    }
    let panelChange = CrtcChange(
      crtc: crtc.id, mode: mode.id, x: rect.x, y: rect.y, rotation: .normal, outputs: [panel.id], fallbacks: [],
      outputName: panel.name)
    var plan = relayout(after, t, extra: (panelChange, rect))
    plan.configures = [panel.id]
    return plan
  }

  /// The CRTCs as `after` (plus `extra`) wants them, moved so the layout starts at 0,0:
  /// the changes where they differ from the server's, and the screen's new size.
  static func relayout(_ after: [CrtcChange], _ t: Topology, extra: (CrtcChange, Rect)?) -> ReferencePlan {
    var lit: [(CrtcChange, Rect)] = after.compactMap { change in
      guard change.mode != nil, let c = t.crtc(change.crtc) else { return nil }
      return (change, Rect(x: change.x, y: change.y, width: c.width, height: c.height))
    }
    if let extra { lit.append(extra) }
    let (dx, dy) = (lit.map(\.1.x).min() ?? 0, lit.map(\.1.y).min() ?? 0)
    var plan = ReferencePlan()
    plan.changes = after.filter { $0.mode == nil }
    for (var change, rect) in lit {
      (change.x, change.y) = (rect.x - dx, rect.y - dy)
      guard let c = t.crtc(change.crtc) else { continue }
      if c.mode != change.mode || (c.x, c.y) != (change.x, change.y) || c.outputs != change.outputs {
        plan.changes.append(change)
      }
    }
    let w = max(t.screen.minWidth, lit.map { $0.1.x + $0.1.width - dx }.max() ?? 0)
    let h = max(t.screen.minHeight, lit.map { $0.1.y + $0.1.height - dy }.max() ?? 0)
    guard t.screen.holds(w, h) else {
      var refused = ReferencePlan()
      refused.warnings = [.panelTooLarge(width: w, height: h)]
      return refused
    }
    if (w, h) != (t.screen.width, t.screen.height) { plan.screen = (w, h) }
    return plan
  }

  /// Main once outputs may be off: the output `main` names (else the built-in panel) when
  /// lit; else the RandR primary when lit; else the profile's first enabled entry that is
  /// lit; else the first lit output. With neither `main` nor a panel: today's rule
  /// (`Config.mainOutput`). `without` counts as off (an output a plan is turning off).
  static func main(
    topology t: Topology, config: Config, profile: Profile? = nil, assignment: ProfileAssignment? = nil,
    without: OutputID? = nil
  ) -> Output? {
    let lit: (Output) -> Bool = { $0.id != without && $0.isConnected && t.geometry(of: $0) != nil }
    let named = config.main.flatMap { t.output(named: $0) } ?? (config.main == nil ? panel(in: t, config: config) : nil)
    guard let named, named.isConnected else { return config.mainOutput(in: t) }
    if lit(named) { return named }
    if let p = t.primary.flatMap(t.output), lit(p) { return p }
    if let profile, let assignment {
      for (entry, id) in zip(profile.outputs, assignment.outputs) where entry.enabled != false {
        if let o = t.output(id), lit(o) { return o }
      }
    }
    return t.connectedOutputs.first(where: lit)
  }
}
