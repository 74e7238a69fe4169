import DisplayX11

@testable import DisplayModel

/// One entry of the profile on its way to a CRTC.
struct Slot {
  var entry: ProfileOutput
  var output: Output
  var on: Bool
  /// The mode chain; the first is the choice.
  var modes: [Mode] = []
  var rotation = Rotation.normal
  var crtc: Crtc?
  /// The slot whose CRTC this one shares (RandR clone).
  var sharesWith: Int?
  var transform = CrtcTransform.identity
  /// The area of the screen it shows, before the layout is moved to start at 0,0.
  var size = (width: 0, height: 0)
  var rect: Rect?

  var mode: Mode? { modes.first }
  var lit: Bool { on && crtc != nil && mode != nil }
}

/// The profile planner over RandR's outputs and CRTCs: the RandR-shaped reference
/// `HeadProfilePlanner` is pinned against in the differential tests (random desks and
/// profiles planned both ways must agree).
///
/// A profile and the outputs its entries took → the plan that puts the desk in that state.
///
/// Modes come through `ModePolicy` (the request, else preferred, else largest); CRTCs as
/// `Planner` gives them (the output's own, else a free one that can drive it, counting CRTCs
/// of outputs this plan turns off as free); rotations, reflections and scales the CRTC cannot
/// do fall back to normal with a warning, the rest of the profile still applying. Planning
/// against a topology already in the profile's state gives an empty plan. Pure.
struct ProfilePlanner {
  var topology: Topology
  var config: Config
  var lid: LidState
  /// CRTCs known to refuse transforms (`RRSetCrtcTransform` answered BadValue).
  var noTransform: Set<CrtcID>

  init(topology: Topology, config: Config, lid: LidState = .open, noTransform: Set<CrtcID> = []) {
    self.topology = topology
    self.config = config
    self.lid = lid
    self.noTransform = noTransform
  }

  /// The plan, or why the profile cannot be applied.
  func plan(_ profile: Profile, assignment: ProfileAssignment) throws(ProfilePlanError) -> ReferencePlan {
    var plan = ReferencePlan()
    var slots = try makeSlots(profile, assignment, &plan.warnings)
    allocate(&slots, profile, &plan.warnings)
    sizeAll(&slots, profile, &plan.warnings)
    guard slots.contains(where: \.lit) else { throw .dark(profile: profile.name) }
    layout(&slots, profile, &plan.warnings)
    plan.screen = try screen(slots, profile)
    plan.changes = changes(slots)
    plan.customModes = CustomModes.collect(slots.map(\.modes))
    plan.configures = Set(slots.map(\.output.id))
    plan.primary = primary(slots, profile, &plan.warnings)
    plan.dpi = dpi(slots, profile, &plan.warnings)
    plan.screenMillimetres = plan.dpi.flatMap { millimetres($0, screen: plan.screen) }
    return plan
  }

  /// Whether this output is the built-in panel: the one `panel` names, else a connector
  /// named `eDP*`, `LVDS*` or `DSI*`.
  func isPanel(_ output: Output) -> Bool {
    config.panel.map { $0 == output.name } ?? output.isInternalPanel
  }

  func makeSlots(
    _ profile: Profile, _ assignment: ProfileAssignment, _ warnings: inout [PlanWarning]
  ) throws(ProfilePlanError) -> [Slot] {
    guard assignment.outputs.count == profile.outputs.count else { throw .assignment(profile: profile.name) }
    var outputs: [Output] = []
    for id in assignment.outputs {
      guard let output = topology.output(id) else { throw .assignment(profile: profile.name) }
      outputs.append(output)
    }
    // `lid_closed: "disable"` also turns off a panel whose entry does not say `enabled`,
    // while another entry is on.
    let othersOn = zip(profile.outputs, outputs).contains { $0.enabled != false && !isPanel($1) }
    var slots: [Slot] = []
    for (entry, output) in zip(profile.outputs, outputs) {
      let closedPanel = lid == .closed && config.lidClosed == .disable && isPanel(output) && othersOn
      var slot = Slot(entry: entry, output: output, on: entry.enabled ?? !closedPanel)
      if slot.on {
        let (modes, warning) = ModePolicy.candidates(entry.mode, custom: entry.custom, for: output, in: topology)
        if let warning { warnings.append(warning) }
        if modes.isEmpty { warnings.append(.noModes(output: output.name, leftOff: true)) }
        slot.modes = modes
        slot.on = !modes.isEmpty
      }
      slots.append(slot)
    }
    return slots
  }

  /// The slot a position's target names: an alias, an output of the profile, or `main`.
  func target(_ name: String, _ slots: [Slot], _ profile: Profile) -> Int? {
    if name == "main" { return mainSlot(slots) }
    return profile.entry(named: name) ?? slots.firstIndex { $0.output.name == name }
  }

  /// Main within a profile: the output `main` names, the `primary` entry, the RandR
  /// primary, the built-in panel (each when lit), else the first lit entry. Before CRTCs
  /// are given out, "lit" reads "on".
  func mainSlot(_ slots: [Slot]) -> Int? {
    let allocated = slots.contains(where: \.lit)
    let candidate: (Slot) -> Bool = { allocated ? $0.lit : $0.on }
    let preferences: [(Slot) -> Bool] = [
      { $0.output.name == config.main }, { $0.entry.primary }, { $0.output.id == topology.primary },
      { config.main == nil && isPanel($0.output) },
    ]
    for wanted in preferences {
      if let i = slots.firstIndex(where: { candidate($0) && wanted($0) }) { return i }
    }
    return slots.firstIndex(where: candidate)
  }
}
