/// What a profile makes of a desk of heads: the configuration of the heads that change (with
/// the primary and, for a `dpi`, the desk's physical size), the warnings, the heads the plan
/// configures, the profile's dpi, and where each head it lights is then.
public struct ProfilePlan: Hashable, Sendable {
  public var configuration: OutputConfiguration
  public var warnings: [PlanWarning] = []
  /// Heads this plan configures: the daemon leaves them alone afterwards.
  public var configures: Set<String> = []
  /// A profile's `dpi` (measured for `auto`), whether or not the physical size changes: what
  /// `Xft.dpi` follows. Nil for no `dpi` or an `auto` that found no size.
  public var dpi: Double?
  /// The area each head the profile lights covers afterwards (the layout starting at 0,0),
  /// by name, whether or not its configuration changes: the desk's extent.
  public var areas: [String: Rect] = [:]

  public init(
    configuration: OutputConfiguration, warnings: [PlanWarning] = [], configures: Set<String> = [],
    dpi: Double? = nil, areas: [String: Rect] = [:]
  ) {
    self.configuration = configuration
    self.warnings = warnings
    self.configures = configures
    self.dpi = dpi
    self.areas = areas
  }
}

/// One entry of the profile on its way to a head's configuration.
struct ProfileSlot {
  var entry: ProfileOutput
  var head: Head
  var on: Bool
  /// The mode chain; the first is the choice.
  var modes: [PlannedMode] = []
  var transform = Transform.normal
  var spelling = TransformSpelling.turned
  /// The scales asked of the backend (the config's meaning), across and down.
  var scale = (x: 1.0, y: 1.0)
  var filter = ScaleFilter.bilinear
  /// The lit slot a `same-as` entry shows the area of.
  var cloneOf: Int?
  /// The slot this one shows the same as, sharing what it shows (X: what lights it).
  var sharesWith: Int?
  /// The area of the desk it shows, before the layout is moved to start at 0,0.
  var size = (width: 0, height: 0)
  var rect: Rect?

  var mode: PlannedMode? { modes.first }
  var lit: Bool { on && mode != nil }
}

/// The profile planner over the output-management port's values: a profile and the heads its
/// entries took → the configuration that puts the desk in that state. Modes come through
/// `ModePolicy` (the request, else preferred, else largest; fallbacks of the same size);
/// transforms and scales a head cannot show by its `capabilities` are planned without, with a
/// warning; a `same-as` entry shows its target's mode, place, transform and scale
/// (`HeadConfiguration.sameAs`) where it lists that mode at its own size and can be turned
/// alike, else its own mode scaled to the target's area. What only the server knows (what is
/// free to light a head, its largest screen, and so the largest mode that fits it, a transform
/// a head refuses) is the backend's to refuse. Planning against a desk already in the profile's
/// state gives an empty configuration (physical size aside: heads do not say the desk's). Pure.
public struct ProfilePlanner {
  public var snapshot: HeadSnapshot
  public var config: Config
  public var lid: LidState

  public init(snapshot: HeadSnapshot, config: Config, lid: LidState = .open) {
    self.snapshot = snapshot.bounded().snapshot
    self.config = config
    self.lid = lid
  }

  /// The plan, or why the profile cannot be applied (`dark`, `assignment`; a desk larger
  /// than the server takes is the backend's to refuse).
  public func plan(_ profile: Profile, assignment: ProfileAssignment) throws(ProfilePlanError)
    -> ProfilePlan
  {
    var warnings: [PlanWarning] = []
    var slots = try makeSlots(profile, assignment, &warnings)
    fit(&slots, profile, &warnings)
    sizeAll(&slots, profile, &warnings)
    guard slots.contains(where: \.lit) else { throw .dark(profile: profile.name) }
    layout(&slots, profile, &warnings)
    let primary = primary(slots, &warnings)
    let dpi = dpi(slots, profile, &warnings)
    let configuration = OutputConfiguration(
      generation: snapshot.generation, heads: changes(slots), primary: primary,
      physicalSize: dpi.flatMap { physicalSize($0, slots) })
    var areas: [String: Rect] = [:]
    for slot in slots where slot.lit { areas[slot.head.name] = slot.rect }
    return ProfilePlan(
      configuration: configuration, warnings: warnings, configures: Set(assignment.heads), dpi: dpi, areas: areas)
  }

  /// Whether this head is the built-in panel: the one `panel` names, else one the backend
  /// marks (`eDP*`, `LVDS*`, `DSI*` on X).
  public func isPanel(_ head: Head) -> Bool {
    config.panel.map { $0 == head.name } ?? head.isInternalPanel
  }

  func makeSlots(_ profile: Profile, _ assignment: ProfileAssignment, _ warnings: inout [PlanWarning])
    throws(ProfilePlanError) -> [ProfileSlot]
  {
    guard assignment.heads.count == profile.outputs.count else { throw .assignment(profile: profile.name) }
    var heads: [Head] = []
    for name in assignment.heads {
      guard let head = snapshot.head(named: name) else { throw .assignment(profile: profile.name) }
      heads.append(head)
    }
    // `lid_closed: "disable"` also turns off a panel whose entry does not say `enabled`,
    // while another entry is on.
    let othersOn = zip(profile.outputs, heads).contains { $0.enabled != false && !isPanel($1) }
    var slots: [ProfileSlot] = []
    for (entry, head) in zip(profile.outputs, heads) {
      let closedPanel = lid == .closed && config.lidClosed == .disable && isPanel(head) && othersOn
      var slot = ProfileSlot(entry: entry, head: head, on: entry.enabled ?? !closedPanel)
      slot.filter = entry.scaleFilter
      if slot.on {
        let (modes, warning) = ModePolicy.candidates(entry.mode, custom: entry.custom, for: head)
        if let warning { warnings.append(warning) }
        if modes.isEmpty { warnings.append(.noModes(output: head.name, leftOff: true)) }
        slot.modes = modes
        slot.on = !modes.isEmpty
      }
      slots.append(slot)
    }
    return slots
  }

  /// The slot a position's target names: an alias, a head of the profile, or `main`.
  func target(_ name: String, _ slots: [ProfileSlot], _ profile: Profile) -> Int? {
    if name == "main" { return mainSlot(slots) }
    return profile.entry(named: name) ?? slots.firstIndex { $0.head.name == name }
  }

  /// Main within a profile: the head `main` names, the `primary` entry, the snapshot's
  /// primary, the built-in panel (each when lit), else the first lit entry.
  func mainSlot(_ slots: [ProfileSlot]) -> Int? {
    let preferences: [(ProfileSlot) -> Bool] = [
      { $0.head.name == config.main }, { $0.entry.primary }, { $0.head.name == snapshot.primary },
      { config.main == nil && isPanel($0.head) },
    ]
    for wanted in preferences {
      if let i = slots.firstIndex(where: { $0.lit && wanted($0) }) { return i }
    }
    return slots.firstIndex(where: \.lit)
  }

  /// The slot a `same-as` entry shows the area of, when it is another entry that is lit.
  func cloneTarget(_ i: Int, _ slots: [ProfileSlot], _ profile: Profile) -> Int? {
    guard case .sameAs(let name) = slots[i].entry.position, let t = target(name, slots, profile), t != i,
      slots[t].lit
    else { return nil }
    return t
  }
}
