import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayX11

/// The head planner with values where the port's heads say more than RandR's topology:
/// capabilities, one transform for two RandR spellings, a head's own scale.
@Suite struct RulePlannerValueTests {
  static let full = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true)
  static let small = HeadMode(width: 1280, height: 1024, refreshMilliHz: 75025)

  /// eDP-1 lit at 0,0 (main), and `other` connected.
  static func desk(_ other: Head, main: Head? = nil) -> HeadSnapshot {
    let panel = Head(
      name: "eDP-1", enabled: true, modes: [full], currentMode: 0, isInternalPanel: true,
      capabilities: HeadCapabilities(transforms: Set(Transform.allCases), scaling: true))
    return HeadSnapshot(heads: [main ?? panel, other], generation: 3)
  }

  static func plan(_ rules: String, _ snapshot: HeadSnapshot) throws -> RulePlan {
    let config = try Config.parse(Array("{monitors: [\(rules)]}".utf8), file: "test.json5")
    return RulePlanner(snapshot: snapshot, config: config).plan()
  }

  @Test func aHeadLitRightOfMainInItsPreferredModeAtItsGeneration() throws {
    let p = try Self.plan("", Self.desk(Head(name: "HDMI-1", modes: [Self.small, Self.full])))
    #expect(
      p.configuration.heads == [
        HeadConfiguration(
          name: "HDMI-1", enabled: true, mode: .listed(width: 1920, height: 1080, refreshMilliHz: 60000),
          fallbackModes: [.listed(width: 1280, height: 1024, refreshMilliHz: 75025)], x: 1920, modeIsDefault: true)
      ])
    #expect(p.configuration.generation == 3 && p.configures == ["HDMI-1"] && p.warnings.isEmpty)
  }

  /// A rule without a mode leaves the backend free to take a smaller one where the server's
  /// largest screen is too small for it; a rule's size is asked, and so is a head the layout
  /// only moves (it keeps the mode it shows).
  @Test func onlyARuleWithoutAModeMarksItsModeTheDefaultChoice() throws {
    let head = { (name: String) in Head(name: name, modes: [Self.full, Self.small]) }
    var desk = Self.desk(head("HDMI-1"))
    desk.heads.append(head("DP-1"))
    let p = try Self.plan(
      "{match: {output: 'HDMI-1'}, rotate: 'left'}, {match: {output: 'DP-1'}, mode: '1280x1024'}", desk)
    let marks = try ["HDMI-1", "DP-1"].map { name in
      try #require(p.configuration.heads.first { $0.name == name }).modeIsDefault
    }
    #expect(marks == [true, false])
    let left = try Self.plan("{match: {output: 'HDMI-1'}, position: 'left-of main'}", Self.desk(head("HDMI-1")))
    let main = try #require(left.configuration.heads.first { $0.name == "eDP-1" })
    #expect(main.x == 1920 && !main.modeIsDefault)
  }

  @Test func aTransformTheHeadCannotShowFallsBackToTheTurnItCanWithAWarning() throws {
    let can = HeadCapabilities(transforms: [.normal, .rotated90], scaling: true)
    let head = Head(name: "HDMI-1", modes: [Self.full], capabilities: can)
    let p = try Self.plan("{match: {output: 'HDMI-1'}, rotate: 'left', reflect: 'x'}", Self.desk(head))
    let change = try #require(p.configuration.heads.first)
    #expect(change.transform == .rotated90)
    #expect(
      p.warnings == [
        .headCannot(output: "HDMI-1", transform: .flipped90, can: [.normal, .rotated90], instead: .rotated90)
      ])
  }

  @Test func aScaleOnAHeadThatCannotScaleIsOneWithAWarning() throws {
    let head = Head(name: "HDMI-1", modes: [Self.full], capabilities: HeadCapabilities(scaling: false))
    let p = try Self.plan("{match: {output: 'HDMI-1'}, scale: 0.5}", Self.desk(head))
    #expect(p.configuration.heads.first?.scale == 1)
    #expect(p.warnings.map(\.description) == ["HDMI-1 cannot scale; scale 1 instead of 0.5"])
  }

  @Test func aScaledHeadIsPlacedAtTheAreaTheServerGivesIt() throws {
    // 1920 × 0.7 in 16.16 (45875/65536) is 1343.99..., rounded up: 1344 wide.
    let head = Head(name: "HDMI-1", modes: [Self.full], capabilities: HeadCapabilities(scaling: true))
    let third = Head(name: "DP-1", modes: [Self.small])
    var desk = Self.desk(head)
    desk.heads.append(third)
    let p = try Self.plan("{match: {output: 'HDMI-1'}, scale: 0.7}", desk)
    #expect(p.configuration.heads.first { $0.name == "DP-1" }?.x == 1920 + 1344)
  }

  @Test func aScaledWaylandHeadIsPlacedAtTheLogicalSizeSwayLaysItOutAt() throws {
    // Scale 1/1.5 is wlroots' logical scale 1.5: 1366 / 1.5 is 910.67, rounded down to 910
    // (RandR's 16.16 product, 910.66, would round up to 911).
    let wide = HeadMode(width: 1366, height: 768, refreshMilliHz: 60000)
    let every = HeadCapabilities(transforms: Set(Transform.allCases), scaling: true)
    let head = Head(name: "HDMI-A-1", modes: [wide], scaledArea: .logical, capabilities: every)
    let third = Head(name: "DP-1", modes: [Self.small], scaledArea: .logical, capabilities: every)
    var desk = Self.desk(head)
    desk.heads[0].scaledArea = .logical
    desk.heads.append(third)
    let p = try Self.plan("{match: {output: 'HDMI-A-1'}, scale: \(1 / 1.5)}", desk)
    #expect(p.configuration.heads.first { $0.name == "HDMI-A-1" }?.x == 1920)
    #expect(p.configuration.heads.first { $0.name == "DP-1" }?.x == 1920 + 910)
  }

  @Test func aMainTheLayoutMovesKeepsItsScale() throws {
    // A rule puts HDMI-1 left of main: main moves right, as it is, at its own scale.
    let main = Head(
      name: "eDP-1", enabled: true, modes: [Self.full], currentMode: 0, scale: 0.5, isInternalPanel: true,
      capabilities: HeadCapabilities(scaling: true))
    let p = try Self.plan(
      "{match: {output: 'HDMI-1'}, position: 'left-of main'}",
      Self.desk(Head(name: "HDMI-1", modes: [Self.full]), main: main))
    let moved = try #require(p.configuration.heads.first { $0.name == "eDP-1" })
    #expect(moved.x == 1920 && moved.scale == 0.5)
  }

  @Test func aTransformInForceIsLeftAloneHoweverRandRSpellsIt() throws {
    // `reflect: xy` is a half turn: a head turned 180 degrees already shows it.
    let head = Head(
      name: "HDMI-1", enabled: true, modes: [Self.full], currentMode: 0, x: 1920, transform: .rotated180,
      capabilities: HeadCapabilities(transforms: Set(Transform.allCases)))
    let p = try Self.plan("{match: {output: 'HDMI-1'}, reflect: 'xy'}", Self.desk(head))
    #expect(p.isEmpty, "\(p.configuration.heads)")
  }

  @Test func aSizeNotListedIsAskedForOnlyWhereTheHeadMakesAnySize() throws {
    let rule = "{match: {output: 'HDMI-1'}, mode: '1600x700@60'}"
    let makes = Head(
      name: "HDMI-1", modes: [Self.full], capabilities: HeadCapabilities(customModes: true, anySize: true))
    guard case .custom(let line) = try Self.plan(rule, Self.desk(makes)).configuration.heads.first?.mode else {
      Issue.record("no custom mode")
      return
    }
    #expect((line.hDisplay, line.vDisplay) == (1600, 700))
    // RandR can add modes (`customModes`), but an output shows only the modes it lists.
    for randr in [HeadCapabilities(), HeadCapabilities(customModes: true)] {
      let lists = try Self.plan(rule, Self.desk(Head(name: "HDMI-1", modes: [Self.full], capabilities: randr)))
      #expect(lists.configuration.heads.first?.mode == .listed(width: 1920, height: 1080, refreshMilliHz: 60000))
      #expect(
        lists.warnings.map(\.description) == ["HDMI-1 has no mode 1600x700@60.0; using 1920x1080@60.00 instead"])
    }
  }

  @Test func theHeadOfAMonitorThatIsGoneIsTurnedOff() throws {
    let gone = Head(name: "HDMI-1", connected: false, enabled: true, modes: [Self.full], currentMode: 0, x: 1920)
    #expect(try Self.plan("", Self.desk(gone)).configuration.heads == [.off("HDMI-1")])
  }

  @Test func enabledFalseOnEveryLitHeadLeavesThemOnNeverADarkDesk() throws {
    // Main (eDP-1) is connected and dark: HDMI-1, the only lit head, is main and stays on.
    let dark = Head(name: "eDP-1", modes: [Self.full], isInternalPanel: true)
    let lit = Head(name: "HDMI-1", enabled: true, modes: [Self.full], currentMode: 0)
    let p = try Self.plan("{match: {output: '*'}, enabled: false}", HeadSnapshot(heads: [dark, lit]))
    #expect(!p.configuration.heads.contains { !$0.enabled }, "nothing turned off")
    #expect(p.warnings.contains { $0.description.contains("HDMI-1 is main") })
  }

  @Test func aHeadWithModesNoServerHasIsPlannedWithoutTrapping() throws {
    // Sizes and places from outside: beyond any screen, negative, or of no area.
    let modes = [
      HeadMode(width: Int.max, height: Int.max, refreshMilliHz: Int.max, preferred: true),
      HeadMode(width: -5, height: 10, refreshMilliHz: -1), HeadMode(width: 0, height: 0, refreshMilliHz: 0),
    ]
    let head = Head(name: "HDMI-1", enabled: true, modes: modes, currentMode: 0, x: Int(Int32.max), y: -9)
    let p = try Self.plan("{match: {output: 'HDMI-1'}, mode: 'highest', scale: 8}", Self.desk(head))
    #expect(p.configuration.heads.isEmpty, "no mode with an area a server could show: \(p.configuration.heads)")
    #expect(p.warnings.last?.description == "HDMI-1 lists no modes; left alone")
  }

  /// On X the configuration becomes CRTC changes: main moved keeps its scale matrix.
  @Test func onXAMainTheRulesMoveKeepsItsScale() throws {
    // eDP-1 (main) shows 1920x1080 at scale 0.5 (960x540); a rule puts HDMI-1 left of it.
    var t = TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080], primary: "eDP-1")
    t.outputs[1].connection = .connected
    (t.crtcs[0].width, t.crtcs[0].height) = (960, 540)
    t.crtcs[0].transform = CrtcTransform(matrix: [0.5, 0, 0, 0, 0.5, 0, 0, 0, 1], filter: .nearest)
    let config = try Config.parse(
      Array("{monitors: [{match: {output: 'HDMI-1'}, position: 'left-of main'}]}".utf8), file: "test.json5")
    let configuration = RulePlanner(snapshot: try t.randrHeads(), config: config).plan().configuration
    let plan = try RandRConfigurationPlanner(t).plan(configuration).get().plan
    let moved = try #require(plan.changes.first { $0.outputName == "eDP-1" })
    #expect(moved.x == 1920)
    #expect(moved.transform.matrix == t.crtcs[0].transform.matrix, "the move keeps the scale")
  }

  /// A scaled head the layout moves is sent at its new place with its scale, and a head
  /// turned as RandR spells `reflect: xy` keeps that spelling.
  @Test func aHeadTheLayoutMovesKeepsItsScaleAndSpelling() throws {
    let main = Head(
      name: "eDP-1", enabled: true, modes: [Self.full], currentMode: 0, transform: .rotated180,
      spelling: .reflectedY, scale: 0.5, scaledArea: .fixedPoint, isInternalPanel: true,
      capabilities: HeadCapabilities(transforms: Set(Transform.allCases), scaling: true))
    let snapshot = HeadSnapshot(heads: [main, Head(name: "HDMI-1", modes: [Self.full])], primary: "eDP-1")
    let config = try Config.parse(
      Array("{monitors: [{match: {output: 'HDMI-1'}, position: 'left-of main'}]}".utf8), file: "test.json5")
    let plan = RulePlanner(snapshot: snapshot, config: config).plan()
    let sent = try #require(plan.configuration.heads.first { $0.name == "eDP-1" })
    #expect((sent.x, sent.scale, sent.transform, sent.spelling) == (1920, 0.5, .rotated180, .reflectedY))
  }
}

/// `replanningMain`: main, lit by the rules but not in the mode its rule gives, planned for
/// that mode alone.
extension RulePlannerValueTests {
  /// eDP-1 (main) lit at 1280x1024 turned a quarter, its rule asking 1920x1080, a half turn
  /// and a scale. (A rule making it primary would make it a monitor to arrange, not main.)
  static let mainRule = "{match: {output: 'eDP-1'}, mode: '1920x1080', rotate: 'inverted', scale: 0.5}"
  static let turnedMain = Head(
    name: "eDP-1", enabled: true, modes: [full, small], currentMode: 1, transform: .rotated90, isInternalPanel: true,
    capabilities: HeadCapabilities(transforms: Set(Transform.allCases), scaling: true))

  static func replanning(_ rules: String, _ snapshot: HeadSnapshot, settled: Set<String> = []) throws -> RulePlan {
    let config = try Config.parse(Array("{monitors: [\(rules)]}".utf8), file: "test.json5")
    var planner = RulePlanner(snapshot: snapshot, config: config)
    planner.replanningMain = true
    return planner.plan(settled: settled)
  }

  @Test func aReplannedMainTakesItsRulesModeWhereItIsAsItIsTurnedAndUnscaled() throws {
    let desk = Self.desk(Head(name: "HDMI-1", modes: [Self.full]), main: Self.turnedMain)
    let p = try Self.replanning(Self.mainRule, desk)
    let main = try #require(p.configuration.heads.first { $0.name == "eDP-1" })
    #expect(main.mode == .listed(width: 1920, height: 1080, refreshMilliHz: 60000))
    #expect((main.x, main.y, main.transform, main.scale) == (0, 0, .rotated90, 1))
    #expect(p.configuration.primary == nil && p.configures.contains("eDP-1"))
    #expect(
      p.warnings.contains(.mainLeftAsIs(output: "eDP-1", asked: ["rotate/reflect", "scale"])),
      "\(p.warnings)")
  }

  @Test func aHeadBesideAReplannedMainIsPlacedBesideItsNewMode() throws {
    // Main's new mode turned a quarter is 1080 wide: HDMI-1 goes right of it.
    let desk = Self.desk(Head(name: "HDMI-1", modes: [Self.full]), main: Self.turnedMain)
    let p = try Self.replanning(Self.mainRule, desk)
    #expect(p.configuration.heads.first { $0.name == "HDMI-1" }?.x == 1080)
  }

  @Test func aMainIsLeftAsItIsUnlessReplannedOrWhenSettled() throws {
    let desk = Self.desk(Head(name: "HDMI-1", connected: false), main: Self.turnedMain)
    let config = try Config.parse(Array("{monitors: [\(Self.mainRule)]}".utf8), file: "test.json5")
    #expect(RulePlanner(snapshot: desk, config: config).plan().isEmpty)
    #expect(try Self.replanning(Self.mainRule, desk, settled: ["eDP-1"]).isEmpty)
    #expect(try !Self.replanning(Self.mainRule, desk).isEmpty)
  }

  @Test func aReplannedMainAlreadyInItsRulesModeIsNotSentAgain() throws {
    var main = Self.turnedMain
    main.currentMode = 0
    let desk = Self.desk(Head(name: "HDMI-1", connected: false), main: main)
    let p = try Self.replanning(Self.mainRule, desk)
    #expect(p.isEmpty && p.configures == ["eDP-1"], "\(p.configuration.heads)")
  }

  /// A head the backend said cannot turn as asked is planned again as a head at rest: its
  /// rule's turn and flip, and the turn it shows, are left out.
  @Test func aHeadThatCouldNotTurnIsPlannedUnturned() throws {
    let config = try Config.parse(
      Array("{monitors: [{match: {output: 'HDMI-1'}, rotate: 'left', reflect: 'x'}]}".utf8), file: "test.json5")
    let turned = Head(
      name: "HDMI-1", enabled: true, modes: [Self.full], currentMode: 0, x: 1920, transform: .rotated270,
      capabilities: HeadCapabilities(transforms: Set(Transform.allCases), scaling: true))
    var planner = RulePlanner(snapshot: Self.desk(turned), config: config)
    #expect(planner.plan().configuration.heads.first?.transform == .flipped90)
    planner.noRotation = ["HDMI-1"]
    let p = planner.plan()
    let change = try #require(p.configuration.heads.first { $0.name == "HDMI-1" })
    #expect(change.transform == .normal && p.configures == ["HDMI-1"] && p.warnings.isEmpty, "\(p)")
  }
}
