// Which head is main over a snapshot of heads: what the daemon asks of a desk to decide its
// surfaces. It takes the snapshot `bounded()`, as the planners do, so that a name picks one
// head.

/// Main among heads, as the head planner and `Config.mainOutput(in:vendors:)` find it. The
/// heads are told by their index in the snapshot: main is found several times per event,
/// and only the one found is copied out.
enum MainHead {
  /// Main: `named` when that head is connected and lit, else the snapshot's (primary,
  /// built-in panel, first connected) when lit, else the first lit head. A head a rule makes
  /// primary (`madePrimary`) is a monitor to arrange, not main, unless `named` names it.
  static func main(in snapshot: HeadSnapshot, named: String?, madePrimary: (Head) -> Bool) -> Head? {
    let heads = snapshot.heads
    let connected = heads.indices.filter { heads[$0].connected }
    guard let found = plain(snapshot, connected, named: named) else { return nil }
    guard heads[found].name != named, madePrimary(heads[found]) else { return heads[found] }
    let others = connected.filter { !madePrimary(heads[$0]) }
    let lit = others.filter { heads[$0].rect != nil }
    let panel = { (i: Int) in heads[i].isInternalPanel }
    let chosen = lit.first(where: panel) ?? lit.first ?? others.first(where: panel) ?? others.first ?? found
    return heads[chosen]
  }

  /// Main before the rules' `primary` are counted: its index among the snapshot's heads, of
  /// which `connected` are the connected ones.
  static func plain(_ snapshot: HeadSnapshot, _ connected: [Int], named: String?) -> Int? {
    let heads = snapshot.heads
    let lit = { (i: Int) in heads[i].connected && heads[i].rect != nil }
    if let named, let i = heads.firstIndex(where: { $0.name == named }), lit(i) { return i }
    let fallback = ofSnapshot(snapshot, connected)
    if let fallback, lit(fallback) { return fallback }
    return connected.first(where: lit) ?? fallback
  }

  /// The snapshot's main head, by index: the primary when connected, else the first
  /// connected built-in panel, else the first connected head.
  static func ofSnapshot(_ snapshot: HeadSnapshot, _ connected: [Int]) -> Int? {
    let heads = snapshot.heads
    if let primary = snapshot.primary, let i = connected.first(where: { heads[$0].name == primary }) { return i }
    return connected.first(where: { heads[$0].isInternalPanel }) ?? connected.first
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
    MainHead.main(in: snapshot.bounded().snapshot, named: main) { makesPrimary($0, vendors: vendors) }
  }
}
