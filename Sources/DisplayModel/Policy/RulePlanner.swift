/// What the rules make of a desk of heads: the configuration of the heads that change, the
/// warnings, and the heads the plan configures.
public struct RulePlan: Hashable, Sendable {
  public var configuration: OutputConfiguration
  public var warnings: [PlanWarning] = []
  /// Heads this plan configures: the daemon leaves them alone afterwards.
  public var configures: Set<String> = []

  public init(configuration: OutputConfiguration, warnings: [PlanWarning] = [], configures: Set<String> = []) {
    self.configuration = configuration
    self.warnings = warnings
    self.configures = configures
  }

  /// Nothing to send: no head, primary or physical size to change.
  public var isEmpty: Bool {
    configuration.heads.isEmpty && configuration.primary == nil && configuration.physicalSize == nil
  }
}

/// The rule planner over the output-management port's values: from a snapshot of heads and
/// the config, which connected external heads light, with which mode (`ModePolicy`), where
/// (`PositionRequest.origin`), turned, scaled and primary by their rules, and the heads of
/// monitors that are gone turned off. A rule's `enabled: false` turns its head off, never the
/// last one lit; main is lit and otherwise left as it is. What a head cannot do by its
/// `capabilities` (a transform, a scale) is planned without, with a warning; what only the
/// server knows (what is free to light a head, its maximum screen, a transform it refuses) is the backend's to
/// refuse. Pure.
public struct RulePlanner {
  public var snapshot: HeadSnapshot
  public var config: Config
  /// The PNP ids a head's make stands for, for rules matching a monitor without an EDID.
  public var vendors: PNPVendors
  /// Each head's settings by name; absent for a head a rule ignores.
  let settings: [String: MonitorSettings]
  /// Main, lit and not settled, is planned too, for its mode alone (where it is, as it is
  /// turned): the daemon asks this for a main it lit itself whose rule now gives another mode.
  public var replanningMain = false
  /// Heads that could not turn as asked (the backend's answer to an apply): planned unturned.
  public var noRotation: Set<String> = []

  /// Main (`mainHead()`), found once from the snapshot and config the planner was made with
  /// (as `settings`): the plan asks for it several times.
  private(set) var main: Head?

  public init(snapshot: HeadSnapshot, config: Config, vendors: PNPVendors = .none) {
    self.init(snapshot: snapshot, config: config, vendors: vendors, main: nil)
    main = MainHead.main(in: self.snapshot, named: config.main, madePrimary: madePrimary)
  }

  /// The planner with `main` its caller found already: what `config.mainOutput(in: snapshot,
  /// vendors: vendors)` says.
  public init(snapshot: HeadSnapshot, config: Config, vendors: PNPVendors = .none, main: Head?) {
    self.snapshot = snapshot.bounded().snapshot
    self.config = config
    self.vendors = vendors
    var settings = [String: MonitorSettings](minimumCapacity: self.snapshot.heads.count)
    for head in self.snapshot.heads {
      settings[head.name] = config.settings(for: head, vendors: vendors)
    }
    self.settings = settings
    self.main = main
  }

  /// Modes tried after the chosen one when the backend refuses it: each is a round trip
  /// under the server's grab.
  static let maxFallbacks = 3

  var heads: [Head] { snapshot.heads }
  var connected: [Head] { heads.filter(\.connected) }

  /// Whether the head is lit with a mode it lists: where it is, `rect`, is known.
  func isLit(_ head: Head) -> Bool { head.rect != nil }

  /// Plans for the heads not in `settled` (heads the daemon configured before and now leaves
  /// as they are). When the rules' `enabled: false` would leave no head lit, those heads stay
  /// on as they are, with a warning, and are not counted as configured (never a dark desk).
  public func plan(settled: Set<String> = []) -> RulePlan {
    let plan = arrange(settled: settled)
    // Mostly no rule turns a head off: no heads to look through then.
    guard !config.defaults.enabled || config.monitors.contains(where: { $0.enabled == false }) else { return plan }
    let offs = pending(settled, main: mainHead()).filter { !$0.settings.enabled && isLit($0.head) }
    guard !offs.isEmpty, leavesDark(plan) else { return plan }
    var kept = arrange(settled: settled.union(offs.map(\.head.name)))
    kept.warnings.append(.keptOn(outputs: offs.map(\.head.name)))
    return kept
  }

  /// The connected heads to plan for, with their settings: not main (but a dark main, first,
  /// settled or not: never a dark desk; and a main `replanningMain` asks for, with only its
  /// mode from the rule), not settled, not non-desktop, not ignored.
  func pending(_ settled: Set<String>, main: Head?) -> [(head: Head, settings: MonitorSettings)] {
    let darkMain = main.map { !isLit($0) } ?? false
    var found = connected.compactMap { head -> (head: Head, settings: MonitorSettings)? in
      let isMain = head.name == main?.name
      let replanned = isMain && replanningMain && !settled.contains(head.name)
      guard !isMain || darkMain || replanned, isMain || !settled.contains(head.name), !head.nonDesktop,
        var settings = settings[head.name]
      else { return nil }
      if replanned && head.enabled {
        // The layout keys are not applied to main (`mainWarnings`): its mode alone changes.
        settings.position = .absolute(x: head.x, y: head.y)
        (settings.transform, settings.scale, settings.primary, settings.enabled) = (nil, nil, false, true)
      }
      return (head, settings)
    }
    // Main first, the rest in their order (a bounded snapshot names each head once).
    if let i = found.firstIndex(where: { $0.head.name == main?.name }), i > 0 {
      found.insert(found.remove(at: i), at: 0)
    }
    return found
  }

  /// Where each head lit afterwards is, and what the planned ones become.
  struct Layout {
    var rects: [String: Rect] = [:]
    var targets: [String: RuleTarget] = [:]
    var warnings: [PlanWarning] = []
    var configures: Set<String> = []
  }

  func arrange(settled: Set<String>) -> RulePlan {
    let main = mainHead()
    let pending = pending(settled, main: main)
    var layout = Layout()
    for head in connected where !pending.contains(where: { $0.head.name == head.name }) {
      if let r = head.rect { layout.rects[head.name] = r }
    }
    for (head, settings) in pending {
      // Main is dark only when no connected head is lit: it is lit, whatever the rule says.
      guard settings.enabled || head.name == main?.name else {
        layout.configures.insert(head.name)
        continue
      }
      guard let target = target(head, settings, main: main, &layout) else { continue }
      layout.targets[head.name] = target
      layout.configures.insert(head.name)
    }
    Rect.shiftToOrigin(&layout.rects)
    let disabled = Set(pending.filter { !$0.settings.enabled && $0.head.name != main?.name }.map(\.head.name))
    let changed = changes(layout) + turningOff(disabled) + releases()
    var warnings = layout.warnings
    let primary = primary(pending, lit: Set(layout.targets.keys), disabled: disabled, main: main, &warnings)
    warnings += mainWarnings(main)
    let configuration = OutputConfiguration(generation: snapshot.generation, heads: changed, primary: primary)
    return RulePlan(configuration: configuration, warnings: warnings, configures: layout.configures)
  }

  /// The mode, transform and scale of a head that is on, and its place in the layout; nil
  /// (with a warning) when it has no mode to show.
  func target(_ head: Head, _ settings: MonitorSettings, main: Head?, _ layout: inout Layout) -> RuleTarget? {
    let (modes, warning) = ModePolicy.candidates(settings.mode, custom: settings.custom, for: head)
    if let warning { layout.warnings.append(warning) }
    guard !modes.isEmpty else {
      layout.warnings.append(.noModes(output: head.name, leftOff: false))
      return nil
    }
    let transform = transform(head, settings, &layout.warnings)
    let scale = scale(head, settings, &layout.warnings)
    let sized = modes.lazy.compactMap { mode in
      self.footprint(head, mode, transform, scale).map { (mode, $0) }
    }
    guard let (mode, size) = sized.first, let index = modes.firstIndex(of: mode) else {
      layout.warnings.append(.noModes(output: head.name, leftOff: false))
      return nil
    }
    let origin = place(size, settings.position, main: main, rects: layout.rects)
    layout.rects[head.name] = Rect(x: origin.x, y: origin.y, width: size.width, height: size.height)
    return RuleTarget(
      mode: mode, fallbacks: Self.fallbacks(modes[(index + 1)...], after: mode), transform: transform,
      spelling: spelling(head, settings, transform), scale: scale, filter: settings.scaleFilter,
      scaled: settings.scale != nil, modeIsDefault: settings.mode == .preferred && settings.custom == nil)
  }

  /// A few fallbacks for `mode`, no larger than it, as the X backend's planner tries them: the
  /// first `maxFallbacks` of `later`, a request already asked not tried again (a head may
  /// list one size and rate twice).
  static func fallbacks(_ later: ArraySlice<PlannedMode>, after mode: PlannedMode) -> [PlannedMode] {
    var asked = [mode.request]
    var fallbacks: [PlannedMode] = []
    for candidate in later where candidate.width <= mode.width && candidate.height <= mode.height {
      guard fallbacks.count < maxFallbacks else { break }
      guard !asked.contains(candidate.request) else { continue }
      asked.append(candidate.request)
      fallbacks.append(candidate)
    }
    return fallbacks
  }

  /// The spelling of the transform a head gets (`TransformSpelling`): the rule's, when the head gets the one
  /// the rule asks; the head's own, when it keeps the one it shows; else the plainer.
  func spelling(_ head: Head, _ settings: MonitorSettings, _ transform: Transform) -> TransformSpelling {
    if let wanted = settings.transform { return transform == wanted ? settings.transformSpelling : .turned }
    return head.enabled && transform == head.transform ? head.spelling : .turned
  }

  /// The area a mode covers on the head turned and scaled, as its backend rounds it
  /// (`ScaledArea.footprint`); nil when it covers none.
  func footprint(_ head: Head, _ mode: PlannedMode, _ transform: Transform, _ scale: Double) -> (
    width: Int, height: Int
  )? {
    head.scaledArea.footprint(width: mode.width, height: mode.height, transform: transform, scale: (scale, scale))
  }

  /// Where a head of `size` goes: beside its anchor (main's place when the anchor is not
  /// lit), pushed past the heads already placed, taken in the snapshot's order.
  func place(_ size: (Int, Int), _ request: PositionRequest, main: Head?, rects: [String: Rect]) -> (
    x: Int, y: Int
  ) {
    let anchor = request.anchor.flatMap { $0 == "main" ? main?.name : $0 }
    let target = anchor.flatMap { rects[$0] } ?? main.flatMap { rects[$0.name] }
    let occupied = heads.compactMap { rects[$0.name] }
    return request.origin(size, beside: target, avoiding: occupied)
  }
}

/// What a head that is on becomes.
struct RuleTarget {
  var mode: PlannedMode
  /// Modes to try in turn when the backend refuses `mode`.
  var fallbacks: [PlannedMode]
  var transform: Transform
  var spelling: TransformSpelling
  /// The config's scale (1 where the rule gives none or the head cannot scale).
  var scale: Double
  var filter: ScaleFilter
  /// Whether a rule gives a `scale`: then the head's area must match too.
  var scaled: Bool
  /// Whether the rules ask no mode (`HeadConfiguration.modeIsDefault`).
  var modeIsDefault: Bool
}
