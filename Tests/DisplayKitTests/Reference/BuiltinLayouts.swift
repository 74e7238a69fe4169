import DisplayX11

@testable import DisplayModel

/// A built-in layout as a profile over RandR's outputs, with the outputs its entries take:
/// the RandR-shaped reference `HeadBuiltinProfile` is pinned against in the differential
/// tests.
struct BuiltinProfile: Hashable, Sendable {
  var profile: Profile
  var assignment: ProfileAssignment
  init(profile: Profile, assignment: ProfileAssignment) {
    self.profile = profile
    self.assignment = assignment
  }
}

// The built-in layouts over RandR's outputs: the RandR-shaped reference
// `BuiltinLayouts` is pinned against in the differential tests (random desks, both ways,
// equal profiles).
extension BuiltinLayouts {
  /// Main for the layouts: the output `main` names, else the built-in panel, else the RandR
  /// primary, else the first connected output. Connected, not necessarily lit: so
  /// `main-only` after `external-only` lights the panel again.
  static func main(in topology: Topology, config: Config) -> Output? {
    let desk = ProfileMatcher.desk(topology)
    if let name = config.main, let named = desk.first(where: { $0.name == name }) { return named }
    if let panel = LidPolicy.panel(in: topology, config: config), desk.contains(panel) { return panel }
    if let primary = topology.primary, let p = desk.first(where: { $0.id == primary }) { return p }
    return desk.first
  }

  /// The profile that puts the desk in `layout`, or why it cannot. `mainMode`: the mode main
  /// is to have (the one it had under automatic choice); nil keeps the one it has.
  static func profile(
    _ layout: BuiltinLayout, topology: Topology, config: Config, mainMode: Mode? = nil
  ) -> Result<BuiltinProfile, LayoutRefusal> {
    let desk = ProfileMatcher.desk(topology)
    guard let main = main(in: topology, config: config) else { return .failure(.noMonitors) }
    let others = desk.filter { $0.id != main.id }
    let request = mainMode.map { ModeRequest.sizeRate(width: $0.width, height: $0.height, refresh: $0.refreshHz) }
    let entries = OutputEntries(config: config, main: main, mainRequest: request ?? .keep)
    var profile = Profile(name: layout.rawValue)
    let order: [Output]
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
      profile.outputs = mirrorEntries(main, others, topology, entries)
    case .externalOnly:
      guard let panel = LidPolicy.panel(in: topology, config: config), desk.contains(panel) else {
        return .failure(.noPanel)
      }
      let externals = desk.filter { $0.id != panel.id }
      guard !externals.isEmpty else { return .failure(.noExternal(panel: panel.name)) }
      let first = externalMain(externals, topology, config)
      order = [panel, first] + externals.filter { $0.id != first.id }
      profile.outputs = [entries.off(panel)] + order.dropFirst().map(entries.lit)
    case .mainOnly:
      order = [main] + others
      profile.outputs = [entries.lit(main)] + others.map(entries.off)
    }
    return .success(BuiltinProfile(profile: profile, assignment: ProfileAssignment(outputs: order.map(\.id))))
  }

  /// The external monitor the row starts from: the one `main` names, else the RandR primary,
  /// else the first by connector name.
  static func externalMain(_ externals: [Output], _ topology: Topology, _ config: Config) -> Output {
    externals.first { $0.name == config.main } ?? externals.first { $0.id == topology.primary } ?? externals[0]
  }

  /// Main in the largest mode size every monitor lists (each at its highest refresh there),
  /// the others `same-as` main; without a common size, main keeps its mode and the others
  /// show its area scaled by a CRTC transform (or unscaled where the CRTC takes none).
  static func mirrorEntries(_ main: Output, _ others: [Output], _ topology: Topology, _ entries: OutputEntries)
    -> [ProfileOutput]
  {
    let common = commonSize([main] + others, topology)
    var first = entries.lit(main)
    first.alias = BuiltinLayouts.mainAlias
    if let common { first.mode = .size(width: common.width, height: common.height) }
    return [first]
      + others.map { output in
        var entry = entries.lit(output)
        entry.position = .sameAs(BuiltinLayouts.mainAlias)
        if let common { entry.mode = .size(width: common.width, height: common.height) }
        return entry
      }
  }

  /// The largest size (by area, then width) that every output lists a mode of.
  static func commonSize(_ outputs: [Output], _ topology: Topology) -> (width: Int, height: Int)? {
    let sizes = outputs.map { o in Set(topology.modes(of: o).map { SizeKey(width: $0.width, height: $0.height) }) }
    guard let first = sizes.first else { return nil }
    let common = sizes.dropFirst().reduce(first) { $0.intersection($1) }
    let best = common.max { ($0.width * $0.height, $0.width) < ($1.width * $1.height, $1.width) }
    return best.map { ($0.width, $0.height) }
  }

  /// Makes the entries: each matched by its connector, main at `mainRequest`.
  struct OutputEntries {
    var config: Config
    var main: Output
    var mainRequest: ModeRequest

    func lit(_ output: Output) -> ProfileOutput {
      var entry = ProfileOutput()
      entry.match.output = output.name
      // A layout moves monitors; their rules' properties and touch devices go with them.
      entry.extras = config.extras(for: output) ?? entry.extras
      entry.mode =
        output.id == main.id
        ? mainRequest
        : config.settings(for: output)?.mode
          ?? .preferred
      return entry
    }

    func off(_ output: Output) -> ProfileOutput {
      var entry = lit(output)
      entry.enabled = false
      return entry
    }
  }
}
