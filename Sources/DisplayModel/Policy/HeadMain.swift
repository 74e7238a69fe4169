// Which head is main, and which is the built-in panel, over a snapshot of heads: what the
// daemon asks of a desk to decide its surfaces, the lid and the built-in layouts. Each takes
// the snapshot `bounded()`, as the planners do, so that a name picks one head.

/// Main among heads, as the head planner and `Config.mainOutput(in:vendors:)` find it.
enum HeadMain {
  /// Main: `named` when that head is connected and lit, else the snapshot's (primary,
  /// built-in panel, first connected) when lit, else the first lit head. A head a rule makes
  /// primary (`madePrimary`) is a monitor to arrange, not main, unless `named` names it.
  static func main(in snapshot: HeadSnapshot, named: String?, madePrimary: (Head) -> Bool) -> Head? {
    let connected = snapshot.heads.filter(\.connected)
    let found = plain(snapshot, connected, named: named)
    guard let found, found.name != named, madePrimary(found) else { return found }
    let others = connected.filter { !madePrimary($0) }
    let lit = others.filter { $0.rect != nil }
    return lit.first(where: \.isInternalPanel) ?? lit.first ?? others.first(where: \.isInternalPanel) ?? others.first
      ?? found
  }

  /// Main before the rules' `primary` are counted.
  static func plain(_ snapshot: HeadSnapshot, _ connected: [Head], named: String?) -> Head? {
    let lit = { (head: Head) in head.connected && head.rect != nil }
    if let named, let head = snapshot.head(named: named), lit(head) { return head }
    let fallback = ofSnapshot(snapshot, connected)
    if let fallback, lit(fallback) { return fallback }
    return connected.first(where: lit) ?? fallback
  }

  /// The snapshot's main head: the primary when connected, else the first connected built-in
  /// panel, else the first connected head.
  static func ofSnapshot(_ snapshot: HeadSnapshot, _ connected: [Head]) -> Head? {
    if let primary = snapshot.primary, let head = connected.first(where: { $0.name == primary }) { return head }
    return connected.first(where: \.isInternalPanel) ?? connected.first
  }
}

extension Config {
  /// The main head: `main` when that head is connected and lit, else the snapshot's primary,
  /// built-in panel or first connected head when lit, else the first lit head. A head a
  /// `monitors` rule makes primary (`primary: true`) is a monitor the daemon arranges, not
  /// main, unless `main` names it: then main is the built-in panel, else the first other
  /// connected head (lit ones first). `vendors`: the PNP ids of a make, for rules matching a
  /// head without an EDID.
  public func mainOutput(in snapshot: HeadSnapshot, vendors: PNPVendors = .none) -> Head? {
    HeadMain.main(in: snapshot.bounded().snapshot, named: main) { settings(for: $0, vendors: vendors)?.primary == true }
  }
}

extension LidPolicy {
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
    snapshot: HeadSnapshot, config: Config, profile: Profile? = nil, assignment: HeadProfileAssignment? = nil,
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
}

extension BuiltinLayouts {
  /// Main for the layouts: the head `main` names, else the built-in panel, else the primary,
  /// else the first connected head by name; of the heads a profile accounts for (connected,
  /// not `non-desktop`). Connected, not necessarily lit: so `main-only` after
  /// `external-only` lights the panel again.
  public static func main(in snapshot: HeadSnapshot, config: Config) -> Head? {
    let desk = HeadProfileMatcher.desk(snapshot.bounded().snapshot)
    let inDesk = { (name: String) in desk.first { $0.name == name } }
    if let name = config.main, let named = inDesk(name) { return named }
    if let panel = LidPolicy.panel(in: snapshot, config: config), let head = inDesk(panel.name) { return head }
    if let primary = snapshot.primary, let head = inDesk(primary) { return head }
    return desk.first
  }
}
