// Which head is main over a snapshot of heads: what the daemon asks of a desk to decide its
// surfaces. It takes the snapshot `bounded()`, as the planners do, so that a name picks one
// head.

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
    HeadMain.main(in: snapshot.bounded().snapshot, named: main) { makesPrimary($0, vendors: vendors) }
  }
}
