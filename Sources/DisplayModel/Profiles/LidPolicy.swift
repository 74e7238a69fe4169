/// The built-in panel, what the lid asks of it when no profile matches
/// (`defaults.lid_closed`), and which head is main once heads may be off. Keyed by head
/// name; the screen's size and what lights the panel are the backend's business. Pure.
public enum LidPolicy {
  /// What the lid asks of the panel, with `lid_closed: "disable"`: closed, the panel goes off
  /// when another connected head is lit (the lit heads move so the desk starts at 0,0, each
  /// keeping its mode, transform and scale; main takes over as primary); open (or closed with
  /// no head lit), a dark panel comes back at its preferred mode, unturned and unscaled, at
  /// `previous` (where it was) when that place is free, else left of everything. Otherwise
  /// an empty configuration: closing with no other head lit changes nothing. The plan
  /// configures the panel. Call it when the lid or the monitors change.
  public static func plan(
    snapshot: HeadSnapshot, config: Config, lid: LidState, previous: Rect? = nil, vendors: PNPVendors = .none
  ) -> RulePlan {
    let snapshot = snapshot.bounded().snapshot
    guard config.lidClosed == .disable, let panel = panel(in: snapshot, config: config) else {
      return empty(snapshot)
    }
    switch (lid, panel.enabled) {
    case (.closed, true): return close(panel, snapshot, config, vendors)
    case (.open, false): return open(panel, snapshot, previous)
    // Closed with the panel dark and nothing else lit (the last monitor went): the panel
    // comes back on, never a dark desk.
    case (.closed, false) where !snapshot.heads.contains(where: { $0.connected && $0.enabled }):
      return open(panel, snapshot, previous)
    default: return empty(snapshot)
    }
  }

  static func empty(_ snapshot: HeadSnapshot) -> RulePlan {
    RulePlan(configuration: OutputConfiguration(generation: snapshot.generation, heads: []))
  }

  static func close(_ panel: Head, _ snapshot: HeadSnapshot, _ config: Config, _ vendors: PNPVendors) -> RulePlan {
    guard snapshot.heads.contains(where: { $0.connected && $0.enabled && $0.name != panel.name }) else {
      return empty(snapshot)
    }
    // Every other lit head stays lit, a monitor gone but still lit too: only their places move.
    let lit = snapshot.heads.filter { $0.enabled && $0.name != panel.name }
    let primary =
      snapshot.primary == panel.name
      ? main(snapshot: snapshot, config: config, without: panel.name, vendors: vendors)?.name : nil
    let configuration = OutputConfiguration(
      generation: snapshot.generation, heads: [.off(panel.name)] + relayout(lit, adding: nil), primary: primary)
    return RulePlan(configuration: configuration, configures: [panel.name])
  }

  static func open(_ panel: Head, _ snapshot: HeadSnapshot, _ previous: Rect?) -> RulePlan {
    guard let mode = ModePolicy.candidates(.preferred, for: panel).modes.first else { return empty(snapshot) }
    let lit = snapshot.heads.filter { $0.enabled && $0.name != panel.name }
    let rects = lit.compactMap(\.rect)
    var rect = Rect(x: previous?.x ?? 0, y: previous?.y ?? 0, width: mode.width, height: mode.height)
    if previous == nil || rects.contains(where: { $0.intersects(rect) }) {
      rect.x = minus(rects.map(\.x).min() ?? 0, mode.width)
      rect.y = rects.map(\.y).min() ?? 0
    }
    let lighting = HeadConfiguration(name: panel.name, enabled: true, mode: mode.request)
    let configuration = OutputConfiguration(
      generation: snapshot.generation, heads: relayout(lit, adding: (lighting, rect)))
    return RulePlan(configuration: configuration, configures: [panel.name])
  }

  /// The lit heads, and `adding` (the panel coming on, at its rectangle), moved so that the
  /// desk starts at 0,0: `adding` and the heads that move, each with the mode, transform and
  /// scale it shows. A lit head without a mode it lists (no known area) stays where it is.
  static func relayout(_ lit: [Head], adding: (HeadConfiguration, Rect)?) -> [HeadConfiguration] {
    let placed = lit.compactMap { head in head.rect.map { (head, $0) } }
    let rects = placed.map(\.1) + (adding.map { [$0.1] } ?? [])
    let (dx, dy) = (rects.map(\.x).min() ?? 0, rects.map(\.y).min() ?? 0)
    var heads: [HeadConfiguration] = []
    if case (var lighting, let rect)? = adding {
      (lighting.x, lighting.y) = (minus(rect.x, dx), minus(rect.y, dy))
      heads.append(lighting)
    }
    for (i, (head, rect)) in placed.enumerated() {
      let (x, y) = (minus(rect.x, dx), minus(rect.y, dy))
      guard (x, y) != (head.x, head.y), let mode = head.mode else { continue }
      var moved = HeadConfiguration(
        name: head.name, enabled: true, mode: PlannedMode(mode).request, x: x, y: y, transform: head.transform,
        spelling: head.spelling, scale: head.scale)
      // A clone (X: one scan-out driving both) moves with the head it shows the same as.
      let target = placed[..<i].first { $0.1 == rect && $0.0.mode == mode && $0.0.transform == head.transform }
      moved.sameAs = target?.0.name
      heads.append(moved)
    }
    return heads
  }

  /// `a - b`, saturating: a head's place comes from outside.
  static func minus(_ a: Int, _ b: Int) -> Int {
    let (difference, overflow) = a.subtractingReportingOverflow(b)
    return overflow ? (b < 0 ? Int.max : Int.min) : difference
  }

  /// The built-in panel: the connected head `panel` names, else the first connected head
  /// that is a built-in panel (`Head.isInternalPanel`).
  public static func panel(in snapshot: HeadSnapshot, config: Config) -> Head? {
    let snapshot = snapshot.bounded().snapshot
    if let name = config.panel { return snapshot.head(named: name).flatMap { $0.connected ? $0 : nil } }
    return snapshot.heads.first { $0.connected && $0.isInternalPanel }
  }

  /// Main once heads may be off: the head `main` names (else the built-in panel) when lit;
  /// else the primary when lit; else the head of the profile's first enabled entry that is
  /// lit; else the first lit head. With neither `main` nor a panel connected: the rules'
  /// main (`Config.mainOutput(in:vendors:)`). `without` counts as off (a head a plan is
  /// turning off).
  public static func main(
    snapshot: HeadSnapshot, config: Config, profile: Profile? = nil, assignment: ProfileAssignment? = nil,
    without: String? = nil, vendors: PNPVendors = .none
  ) -> Head? {
    let snapshot = snapshot.bounded().snapshot
    let lit = { (head: Head) in head.name != without && head.connected && head.rect != nil }
    let named =
      config.main.flatMap(snapshot.head(named:)) ?? (config.main == nil ? panel(in: snapshot, config: config) : nil)
    guard let named, named.connected else { return config.mainOutput(in: snapshot, vendors: vendors) }
    if lit(named) { return named }
    if let primary = snapshot.primary.flatMap(snapshot.head(named:)), lit(primary) { return primary }
    if let profile, let assignment {
      for (entry, name) in zip(profile.outputs, assignment.heads) where entry.enabled != false {
        if let head = snapshot.head(named: name), lit(head) { return head }
      }
    }
    return snapshot.heads.first(where: lit)
  }

  /// Whether the built-in panel (`panel(in:config:)`) is lit and no other connected head is:
  /// with the lid closed, nothing for the lid to do on this desk.
  public static func panelAlone(in snapshot: HeadSnapshot, config: Config) -> Bool {
    guard let panel = panel(in: snapshot, config: config), panel.rect != nil else { return false }
    return !snapshot.bounded().snapshot.heads.contains { $0.connected && $0.name != panel.name && $0.rect != nil }
  }
}
