/// Built-in layouts as profiles: a pure function of the heads present, the config and
/// main. Each connected head (not `non-desktop`) gets an entry matching its connector; lit
/// ones get their `monitors` rule's mode (else preferred), main the mode it has (or
/// `mainMode`), and their rule's properties and touch devices. Rules' other keys do not
/// apply: a layout asked for by hand lights what it names. The head profile planner and the
/// backend's atomic apply do the rest. Pure.
public enum BuiltinLayouts {
  /// Main's alias inside a built-in layout (spaces: no config alias can take it).
  static let mainAlias = "built-in layout main"

  /// A mode's size, for the sizes every monitor lists.
  struct SizeKey: Hashable {
    var width: Int
    var height: Int
  }

  /// The profile that puts the desk in `layout`, or why it cannot. `mainMode`: the mode main
  /// is to have (the one it had under automatic choice); nil keeps the one it has.
  /// `vendors`: the PNP ids a head's make stands for, for rules matching by identity.
  public static func profile(
    _ layout: BuiltinLayout, snapshot: HeadSnapshot, config: Config, mainMode: HeadMode? = nil,
    vendors: PNPVendors = .none
  ) -> Result<BuiltinProfile, LayoutRefusal> {
    let snapshot = snapshot.bounded().snapshot
    let desk = ProfileMatcher.desk(snapshot)
    guard let main = main(in: snapshot, config: config) else { return .failure(.noMonitors) }
    let others = desk.filter { $0.name != main.name }
    let request = mainMode.map { ModeRequest.sizeRate(width: $0.width, height: $0.height, refresh: $0.refreshHz) }
    let entries = Entries(config: config, main: main.name, mainRequest: request ?? .keep, vendors: vendors)
    var profile = Profile(name: layout.rawValue)
    let order: [Head]
    switch layout {
    case .extendRight:
      order = [main] + others
      profile.outputs = order.map(entries.lit)
    case .extendLeft, .extendAbove:
      order = others.reversed() + [main]
      profile.outputs = order.map(entries.lit)
      if layout == .extendAbove { profile.arrange = .column }
    case .mirror:
      order = [main] + others
      profile.outputs = mirrorEntries(main, others, entries)
    case .externalOnly:
      guard let panel = LidPolicy.panel(in: snapshot, config: config),
        desk.contains(where: { $0.name == panel.name })
      else { return .failure(.noPanel) }
      let externals = desk.filter { $0.name != panel.name }
      guard !externals.isEmpty else { return .failure(.noExternal(panel: panel.name)) }
      let first = externalMain(externals, snapshot, config)
      order = [panel, first] + externals.filter { $0.name != first.name }
      profile.outputs = [entries.off(panel)] + order.dropFirst().map(entries.lit)
    case .mainOnly:
      order = [main] + others
      profile.outputs = [entries.lit(main)] + others.map(entries.off)
    }
    return .success(BuiltinProfile(profile: profile, assignment: ProfileAssignment(heads: order.map(\.name))))
  }

  /// The external head the row starts from: the one `main` names, else the snapshot's
  /// primary, else the first by connector name.
  static func externalMain(_ externals: [Head], _ snapshot: HeadSnapshot, _ config: Config) -> Head {
    externals.first { $0.name == config.main } ?? externals.first { $0.name == snapshot.primary } ?? externals[0]
  }

  /// Main in the largest mode size every head lists, the others `same-as` main; without a
  /// common size, main keeps its mode and the others show its area scaled (or unscaled
  /// where the head cannot scale).
  static func mirrorEntries(_ main: Head, _ others: [Head], _ entries: Entries) -> [ProfileOutput] {
    let common = commonSize([main] + others)
    var first = entries.lit(main)
    first.alias = mainAlias
    if let common { first.mode = .size(width: common.width, height: common.height) }
    return [first]
      + others.map { head in
        var entry = entries.lit(head)
        entry.position = .sameAs(mainAlias)
        if let common { entry.mode = .size(width: common.width, height: common.height) }
        return entry
      }
  }

  /// The largest size (by area, then width) that every head lists a mode of.
  public static func commonSize(_ heads: [Head]) -> (width: Int, height: Int)? {
    let sizes = heads.map { head in Set(head.modes.map { SizeKey(width: $0.width, height: $0.height) }) }
    guard let first = sizes.first else { return nil }
    let common = sizes.dropFirst().reduce(first) { $0.intersection($1) }
    let area = { (size: SizeKey) in size.width.multipliedReportingOverflow(by: size.height) }
    let best = common.max { a, b in
      let (x, y) = (area(a), area(b))
      // A product past `Int` (sizes come from outside) is larger than any that is not.
      let (ax, bx) = (x.overflow ? Int.max : x.partialValue, y.overflow ? Int.max : y.partialValue)
      return (ax, a.width) < (bx, b.width)
    }
    return best.map { ($0.width, $0.height) }
  }

  /// Makes the entries: each matched by its connector, main at `mainRequest`.
  struct Entries {
    var config: Config
    var main: String
    var mainRequest: ModeRequest
    var vendors: PNPVendors

    func lit(_ head: Head) -> ProfileOutput {
      var entry = ProfileOutput()
      entry.match.output = head.name
      let rule = config.rule(for: head, vendors: vendors)
      // A layout moves monitors; their rules' properties and touch devices go with them.
      if let rule, !rule.ignore, !rule.extras.isEmpty { entry.extras = rule.extras }
      entry.mode = head.name == main ? mainRequest : config.settings(by: rule)?.mode ?? .preferred
      return entry
    }

    func off(_ head: Head) -> ProfileOutput {
      var entry = lit(head)
      entry.enabled = false
      return entry
    }
  }

  /// Main for the layouts: the head `main` names, else the built-in panel, else the primary,
  /// else the first connected head by name; of the heads a profile accounts for (connected,
  /// not `non-desktop`). Connected, not necessarily lit: so `main-only` after
  /// `external-only` lights the panel again.
  public static func main(in snapshot: HeadSnapshot, config: Config) -> Head? {
    let desk = ProfileMatcher.desk(snapshot.bounded().snapshot)
    let inDesk = { (name: String) in desk.first { $0.name == name } }
    if let name = config.main, let named = inDesk(name) { return named }
    if let panel = LidPolicy.panel(in: snapshot, config: config), let head = inDesk(panel.name) { return head }
    if let primary = snapshot.primary, let head = inDesk(primary) { return head }
    return desk.first
  }
}
