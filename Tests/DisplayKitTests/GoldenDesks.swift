import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing

/// Random desks drawn from one seed, each with what a product planner answers on it as one
/// line (`PlanText`). The golden files under `Fixtures/golden` hold the answers for a
/// sample of seeds, reviewed once: a planner that answers otherwise on one of them fails,
/// and the line it gives is printed beside the one expected. A change of behaviour that is
/// meant updates the line by hand, after reading it.
enum GoldenDesks {
  /// The golden file of one family: `seed N: ANSWER` lines, `#` comments.
  static func golden(_ family: String) throws -> [(seed: UInt64, answer: String)] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/golden/\(family).txt")
    let text = try String(contentsOf: url, encoding: .utf8)
    return text.split(separator: "\n").compactMap { line -> (UInt64, String)? in
      guard line.hasPrefix("seed "), let colon = line.firstIndex(of: ":"),
        let seed = UInt64(line[line.index(line.startIndex, offsetBy: 5)..<colon])
      else { return nil }
      return (seed, String(line[line.index(colon, offsetBy: 2)...]))
    }
  }

  /// Every seed of a family's golden file answered again, each difference an issue.
  static func expectGolden(_ family: String, minimum: Int, _ answer: (UInt64) throws -> String) throws {
    let lines = try golden(family)
    #expect(lines.count >= minimum, "\(family): \(lines.count) seeds")
    for (seed, expected) in lines {
      let got = try answer(seed)
      #expect(got == expected, "\(family) seed \(seed):\n  expected \(expected)\n  got      \(got)")
    }
  }

  // MARK: The rule planner

  struct RulesDesk {
    var topology: Topology?
    var snapshot: HeadSnapshot
    var config: Config
    var settled: Set<String>
    var replanningMain: Bool
  }

  /// A RandR desk (`DeskDraw`) as the X backend reports its heads.
  static func rulesOnX(_ seed: UInt64) throws -> RulesDesk {
    var draw = DeskDraw(seed: seed)
    let (t, config) = try draw.desk()
    let settled = Set(draw.settled(t).compactMap { t.output($0)?.name })
    let replanning = draw.random.chance(25)
    return RulesDesk(
      topology: t, snapshot: HeadSnapshot(topology: t), config: config, settled: settled, replanningMain: replanning)
  }

  /// A wlroots desk (`HeadDeskDraw`).
  static func rulesOnWayland(_ seed: UInt64) throws -> RulesDesk {
    var draw = HeadDeskDraw(seed: seed)
    let (snapshot, config) = try draw.desk()
    let replanning = draw.random.chance(25)
    return RulesDesk(topology: nil, snapshot: snapshot, config: config, settled: [], replanningMain: replanning)
  }

  static func rules(_ desk: RulesDesk) -> String {
    var planner = RulePlanner(snapshot: desk.snapshot, config: desk.config)
    planner.replanningMain = desk.replanningMain
    return PlanText.line(planner.plan(settled: desk.settled))
  }

  // MARK: The profile planner

  struct ProfileDesk {
    var topology: Topology?
    var snapshot: HeadSnapshot
    var config: Config
    var profile: Profile
    var lid: LidState
    var noTransform: Set<CrtcID> = []
  }

  /// A RandR desk and a profile over it (`ProfileDraw`), some CRTCs refusing transforms.
  static func profileOnX(_ seed: UInt64) throws -> ProfileDesk {
    var draw = ProfileDraw(seed: seed)
    let (t, text) = try draw.desk()
    let config = try Config.parse(Array(text.utf8), file: "profile.json5")
    let noTransform = draw.noTransform(t)
    return ProfileDesk(
      topology: t, snapshot: HeadSnapshot(topology: t, noTransform: noTransform), config: config,
      profile: try #require(config.profiles.first), lid: draw.lid, noTransform: noTransform)
  }

  /// A wlroots desk and a profile over its heads.
  static func profileOnWayland(_ seed: UInt64) throws -> ProfileDesk {
    var heads = HeadDeskDraw(seed: seed)
    let snapshot = try heads.desk().0
    var draw = ProfileDraw(seed: seed)
    let text = draw.profile(snapshot)
    let config = try Config.parse(Array(text.utf8), file: "profile.json5")
    let lid: LidState = draw.random.chance(30) ? .closed : .open
    return ProfileDesk(
      topology: nil, snapshot: snapshot, config: config, profile: try #require(config.profiles.first), lid: lid)
  }

  static func profile(_ desk: ProfileDesk) -> String {
    switch ProfileMatcher.match(desk.profile, snapshot: desk.snapshot, lid: desk.lid) {
    case .failure(let why): return "does not match: \(why)"
    case .success(let assignment):
      let heads = "heads " + assignment.heads.joined(separator: ",") + " | "
      do {
        let plan = try ProfilePlanner(snapshot: desk.snapshot, config: desk.config, lid: desk.lid).plan(
          desk.profile, assignment: assignment)
        return heads + PlanText.line(plan)
      } catch {
        return heads + "refused: \(error)"
      }
    }
  }
}

extension GoldenDesks {
  // MARK: The lid, the layout restore and the built-in layouts

  /// A desk either way: a RandR desk as the X backend reports its heads, or a wlroots desk;
  /// with a config that often disables the panel while the lid is closed.
  static func layoutDesk(_ draw: inout HeadLayoutDraw) throws -> (HeadSnapshot, Config) {
    if draw.random.chance(50) {
      let (snapshot, config, _) = try draw.waylandDesk()
      return (snapshot, config)
    }
    let (t, config, _) = try draw.randrDesk()
    return (HeadSnapshot(topology: t), config)
  }

  /// The screen a desk's heads make, as a Wayland backend reports it: their lit area, up to
  /// the protocol's largest.
  static func screen(_ snapshot: HeadSnapshot) -> ScreenSize {
    var screen = snapshot.litBounds
    (screen.maxWidth, screen.maxHeight) = (Int(Int16.max), Int(Int16.max))
    return screen
  }

  struct LidDesk {
    var snapshot: HeadSnapshot
    var config: Config
    var lid: LidState
    var previous: Rect?
  }

  /// A desk, the lid, where the panel was before (now and then the panel off already, as a
  /// closed lid leaves it).
  static func lidDesk(_ seed: UInt64) throws -> LidDesk {
    var draw = HeadLayoutDraw(seed: seed)
    var (snapshot, config) = try layoutDesk(&draw)
    let panel = LidPolicy.panel(in: snapshot, config: config)
    let previous = draw.previous(panel?.rect)
    if draw.random.chance(40), let i = snapshot.heads.firstIndex(where: { $0.name == panel?.name }) {
      (snapshot.heads[i].enabled, snapshot.heads[i].currentMode) = (false, nil)
    }
    let lid: LidState = draw.random.chance(50) ? .closed : .open
    return LidDesk(snapshot: snapshot, config: config, lid: lid, previous: previous)
  }

  static func lid(_ desk: LidDesk) -> String {
    PlanText.line(
      LidPolicy.plan(snapshot: desk.snapshot, config: desk.config, lid: desk.lid, previous: desk.previous))
  }

  struct RestoreDesk {
    var saved: HeadSnapshot
    var now: HeadSnapshot
    var keptOff: Set<String>
  }

  /// A desk saved, then changed by hand (heads turned on or off, moved, turned, scaled,
  /// another monitor on a connector, one unplugged, one plugged), now and then the panel
  /// kept off.
  static func restoreDesk(_ seed: UInt64) throws -> RestoreDesk {
    var draw = HeadLayoutDraw(seed: seed)
    let (saved, _) = try layoutDesk(&draw)
    let now = draw.manual(saved)
    let kept = draw.random.chance(20) ? now.heads.filter { $0.connected && $0.isInternalPanel }.map(\.name) : []
    return RestoreDesk(saved: saved, now: now, keptOff: Set(kept))
  }

  static func restore(_ desk: RestoreDesk) -> String {
    PlanText.line(
      LayoutRestore.plan(
        saved: desk.saved, now: desk.now, keptOff: desk.keptOff, screen: (screen(desk.saved), screen(desk.now))))
  }

  struct BuiltinDesk {
    var snapshot: HeadSnapshot
    var config: Config
    var layouts: [(layout: BuiltinLayout, mainMode: HeadMode?, lid: LidState)]
  }

  /// A desk and every built-in layout, each with main's mode now and then, and the lid.
  static func builtinDesk(_ seed: UInt64) throws -> BuiltinDesk {
    var draw = HeadLayoutDraw(seed: seed)
    let (snapshot, config) = try layoutDesk(&draw)
    var layouts: [(BuiltinLayout, HeadMode?, LidState)] = []
    for layout in BuiltinLayout.allCases {
      let mainMode =
        draw.random.chance(40)
        ? BuiltinLayouts.main(in: snapshot, config: config).flatMap { main in
          main.modes.isEmpty ? nil : draw.random.pick(main.modes)
        } : nil
      let lid: LidState = draw.random.chance(30) ? .closed : .open
      layouts.append((layout, mainMode, lid))
    }
    return BuiltinDesk(snapshot: snapshot, config: config, layouts: layouts)
  }

  /// One layout: the heads its profile takes and the profile planned, or why not.
  static func builtin(_ desk: BuiltinDesk, _ i: Int) -> String {
    let (layout, mainMode, lid) = desk.layouts[i]
    switch BuiltinLayouts.profile(layout, snapshot: desk.snapshot, config: desk.config, mainMode: mainMode) {
    case .failure(let why): return "\(layout): refused: \(why)"
    case .success(let made):
      let heads = "\(layout): heads " + made.assignment.heads.joined(separator: ",") + " | "
      do {
        let plan = try ProfilePlanner(snapshot: desk.snapshot, config: desk.config, lid: lid).plan(
          made.profile, assignment: made.assignment)
        return heads + PlanText.line(plan)
      } catch {
        return heads + "refused: \(error)"
      }
    }
  }

  // MARK: The window policy

  struct WindowDesk {
    var topology: Topology
    var snapshot: HeadSnapshot
    var config: Config
    /// The draws after the desk: the lid's main's profile and the head it leaves out.
    var after: SimRandom
  }

  /// A RandR desk as the X backend reports its heads, with rules whose content, level and
  /// mirror vary.
  static func windowDesk(_ seed: UInt64) throws -> WindowDesk {
    var r = SimRandom(seed: seed)
    let t = RandomDesk.topology(&r)
    var config = try Config.parse(Array(RandomDesk.rules(t, &r).utf8), file: "desk.json5")
    WindowDeskDraw.vary(&config, names: t.outputs.map(\.name), &r)
    return WindowDesk(topology: t, snapshot: HeadSnapshot(topology: t), config: config, after: r)
  }

  /// Main, the panel, the built-in layouts' main, the lid's main (under a profile now and
  /// then, a head left out now and then), and the windows wanted.
  static func windows(_ desk: WindowDesk) -> String {
    var r = desk.after
    let (s, config) = (desk.snapshot, desk.config)
    var order: [Head] = []
    var profile: Profile?
    if r.chance(50) {
      order = s.heads.filter(\.connected)
      for i in order.indices.reversed() { order.swapAt(i, r.below(i + 1)) }
      var p = Profile(name: "p")
      p.outputs = order.map { head in
        var entry = ProfileOutput()
        entry.match.output = head.name
        if r.chance(30) { entry.enabled = false }
        return entry
      }
      profile = p
    }
    let without = r.chance(50) ? r.pick(s.heads.filter(\.connected) + s.heads) : nil
    let lidMain = LidPolicy.main(
      snapshot: s, config: config, profile: profile,
      assignment: profile.map { _ in ProfileAssignment(heads: order.map(\.name)) }, without: without?.name)
    let name = { (head: Head?) in head?.name ?? "-" }
    return "main \(name(config.mainOutput(in: s))) | panel \(name(LidPolicy.panel(in: s, config: config)))"
      + " | layout main \(name(BuiltinLayouts.main(in: s, config: config))) | lid main \(name(lidMain)) | "
      + PlanText.windows(config.wantedWindows(in: s))
  }
}

extension GoldenDesks {
  // MARK: Output properties and touch

  /// A `WireDesk` X desk as the X backend reports its heads, and the extras plan on it;
  /// nil where a lit CRTC's extent is one no head mode and scale make.
  static func extrasOnX(_ seed: UInt64) throws -> String? {
    var r = SimRandom(seed: seed)
    let (t, heads) = ExtrasDeskDraw.xDesk(&r)
    for output in t.outputs where t.geometry(of: output) != heads.head(named: output.name)?.rect { return nil }
    return try ExtrasDeskDraw.answer(heads, vendors: .none, &r)
  }

  /// A `WireDesk` wlroots desk and the extras plan on it, rules matching makes by PNP id.
  static func extrasOnWayland(_ seed: UInt64) throws -> String {
    let heads = try WireDesk.wayland(seed: seed).bounded().snapshot
    var r = SimRandom(seed: seed &+ 7_000_000)
    return try ExtrasDeskDraw.answer(heads, vendors: ExtrasDeskDraw.vendors, &r)
  }
}
