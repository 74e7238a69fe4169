import DisplayModel
import DisplayX11
import Testing

/// The profile planner over heads with values: modes, turns, scales, clones, the lid, the
/// dpi, and what it refuses.
@Suite struct ProfilePlannerValueTests {
  static let full = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true)
  static let full50 = HeadMode(width: 1920, height: 1080, refreshMilliHz: 50000)
  static let small = HeadMode(width: 1280, height: 1024, refreshMilliHz: 60020)
  static let every = HeadCapabilities(transforms: Set(Transform.allCases), scaling: true)

  static func head(_ name: String, lit x: Int? = nil) -> Head {
    Head(
      name: name, mmWidth: 477, mmHeight: 268, enabled: x != nil, modes: [full, full50, small],
      currentMode: x.map { _ in 0 }, x: x ?? 0, isInternalPanel: name.hasPrefix("eDP"), capabilities: every)
  }

  /// The panel lit at 0,0 and primary; HDMI-1 (and `more`) connected and dark.
  static func desk(_ more: [Head] = []) -> HeadSnapshot {
    HeadSnapshot(heads: [head("eDP-1", lit: 0), head("HDMI-1")] + more, primary: "eDP-1", generation: 9)
  }

  static func plan(
    _ entries: String, _ snapshot: HeadSnapshot = desk(), options: String = "", config: String = "",
    lid: LidState = .open
  ) throws -> ProfilePlan {
    let text = "{\(config) profiles: [{name: 'p'\(options), outputs: [\(entries)]}]}"
    let c = try Config.parse(Array(text.utf8), file: "test.json5")
    let profile = try #require(c.profiles.first)
    let assignment = try ProfileMatcher.match(profile, snapshot: snapshot, lid: lid).get()
    return try ProfilePlanner(snapshot: snapshot, config: c, lid: lid).plan(profile, assignment: assignment)
  }

  static func change(_ plan: ProfilePlan, _ name: String) throws -> HeadConfiguration {
    try #require(plan.configuration.heads.first { $0.name == name }, "\(plan.configuration.heads)")
  }

  static func listed(_ m: HeadMode) -> HeadModeRequest {
    .listed(width: m.width, height: m.height, refreshMilliHz: m.refreshMilliHz)
  }

  @Test func anEntryWithoutAModeTakesThePreferredOneWithTheSameSizeAsFallbackAfterTheLast() throws {
    let p = try Self.plan("{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}}")
    #expect(
      p.configuration.heads == [
        HeadConfiguration(
          name: "HDMI-1", enabled: true, mode: Self.listed(Self.full), fallbackModes: [Self.listed(Self.full50)],
          x: 1920, modeIsDefault: true)
      ])
    #expect(p.configuration.generation == 9 && p.configures == ["eDP-1", "HDMI-1"] && p.warnings.isEmpty)
  }

  /// Only an entry that asks no mode leaves the backend free to take a smaller one where
  /// the server's largest screen is too small for it; a size or a mode to make is asked.
  @Test func onlyAnEntryWithoutAModeMarksItsModeTheDefaultChoice() throws {
    let more = [Self.head("DP-1"), Self.head("DP-2")]
    let p = try Self.plan(
      "{match: {output: 'eDP-1'}, mode: '1280x1024'}, {match: {output: 'HDMI-1'}, rotate: 'left'}, "
        + "{match: {output: 'DP-1'}, mode: '1600x700', custom: true}, {match: {output: 'DP-2'}, mode: 'preferred'}",
      Self.desk(more))
    let marks = try ["eDP-1", "HDMI-1", "DP-1", "DP-2"].map { try Self.change(p, $0).modeIsDefault }
    #expect(marks == [false, true, false, true])
  }

  @Test func aRotatedEntryShowsItsModeTurnedAndTheNextStartsAfterItsTurnedWidth() throws {
    let p = try Self.plan("{match: {output: 'eDP-1'}, rotate: 'left'}, {match: {output: 'HDMI-1'}}")
    #expect(try Self.change(p, "eDP-1").transform == .rotated90)
    #expect(try Self.change(p, "HDMI-1").x == 1080)
  }

  @Test func aScaledEntryCoversItsScaledAreaAndTheNextStartsAfterIt() throws {
    let p = try Self.plan("{match: {output: 'eDP-1'}, scale: 0.5}, {match: {output: 'HDMI-1'}}")
    #expect(try Self.change(p, "eDP-1").scale == 0.5)
    #expect(try Self.change(p, "HDMI-1").x == 960)
  }

  @Test func aScaledWaylandEntryCoversTheLogicalSizeSwayLaysItOutAt() throws {
    // Scale 1/1.5 is wlroots' logical scale 1.5: 1366 / 1.5 is 910.67, rounded down to 910
    // (RandR's 16.16 product, 910.66, would round up to 911).
    let wide = HeadMode(width: 1366, height: 768, refreshMilliHz: 60000, preferred: true)
    var desk = Self.desk([Self.head("DP-1")])
    for i in desk.heads.indices { desk.heads[i].scaledArea = .logical }
    desk.heads[1].modes = [wide]
    let p = try Self.plan(
      "{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, scale: \(1 / 1.5)}, {match: {output: 'DP-1'}}", desk)
    #expect(try Self.change(p, "HDMI-1").x == 1920)
    #expect(try Self.change(p, "DP-1").x == 1920 + 910)
  }

  @Test func aHeadTheProfileMovesKeepsItsOwnSpellingOfTheTransformItKeeps() throws {
    var desk = Self.desk()
    (desk.heads[0].transform, desk.heads[0].spelling) = (.rotated180, .reflectedY)
    let p = try Self.plan(
      "{match: {output: 'HDMI-1'}}, {match: {output: 'eDP-1'}, rotate: 'inverted', position: 'right-of HDMI-1'}", desk)
    let moved = try Self.change(p, "eDP-1")
    #expect(moved.transform == .rotated180 && moved.spelling == .reflectedY)
    let respelled = try Self.plan("{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, reflect: 'xy'}", desk)
    #expect(try Self.change(respelled, "HDMI-1").spelling == .reflectedY)
  }

  @Test func aScaleOnAHeadThatCannotScaleIsOneWithAWarning() throws {
    var desk = Self.desk()
    desk.heads[1].capabilities.scaling = false
    let p = try Self.plan("{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, scale: 2}", desk)
    #expect(try Self.change(p, "HDMI-1").scale == 1)
    #expect(p.warnings == [.cannotScale(output: "HDMI-1", scale: 2)])
  }

  @Test func aSameAsEntryListingTheModeSharesItsTargetsPictureAndTheTargetIsSentToo() throws {
    let p = try Self.plan("{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, position: 'same-as eDP-1'}")
    let target = try Self.change(p, "eDP-1")
    var clone = target
    (clone.name, clone.sameAs) = ("HDMI-1", "eDP-1")
    #expect(try Self.change(p, "HDMI-1") == clone)
    #expect(target.sameAs == nil && target.mode == Self.listed(Self.full))
  }

  @Test func aCloneAlreadyShowingItsTargetsPictureIsLeftAsItIs() throws {
    let desk = HeadSnapshot(heads: [Self.head("eDP-1", lit: 0), Self.head("HDMI-1", lit: 0)], primary: "eDP-1")
    let p = try Self.plan("{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, position: 'same-as eDP-1'}", desk)
    #expect(p.isEmpty, "\(p.configuration)")
  }

  @Test func aSameAsEntryOfAnotherSizeShowsItsOwnModeScaledToItsTargetsArea() throws {
    let p = try Self.plan(
      "{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, mode: '1280x1024', position: 'same-as eDP-1'}")
    let clone = try Self.change(p, "HDMI-1")
    #expect(clone.sameAs == nil && clone.mode == Self.listed(Self.small) && (clone.x, clone.y) == (0, 0))
    #expect(clone.scale == 1.5 && clone.scaleY == 1080.0 / 1024)
  }

  @Test func aCloneOfACloneSharesTheFirstHeadsPicture() throws {
    let p = try Self.plan(
      "{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, position: 'same-as eDP-1'},"
        + " {match: {output: 'DP-1'}, position: 'same-as HDMI-1'}", Self.desk([Self.head("DP-1")]))
    #expect(try Self.change(p, "DP-1").sameAs == "eDP-1")
  }

  @Test func aRingOfSameAsThroughMainLightsBothHeadsAtOnePlaceWithAWarning() throws {
    // Main is the panel, which is the same as HDMI-1: one of the two is placed on its own.
    let p = try Self.plan(
      "{match: {output: 'eDP-1'}, position: 'same-as HDMI-1'}, {match: {output: 'HDMI-1'}, position: 'same-as main'}")
    let clone = try Self.change(p, "HDMI-1")
    #expect(clone.enabled && (clone.x, clone.y) == (0, 0) && clone.sameAs == nil)
    #expect(p.warnings == [.anchorMissing(output: "HDMI-1", position: "same-as main")])
  }

  @Test func aClosedLidTurnsThePanelOffWhenLidClosedSaysDisableAndMainBecomesPrimary() throws {
    let p = try Self.plan(
      "{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}}", config: "defaults: {lid_closed: 'disable'},",
      lid: .closed)
    #expect(
      p.configuration.heads == [
        HeadConfiguration(
          name: "HDMI-1", enabled: true, mode: Self.listed(Self.full), fallbackModes: [Self.listed(Self.full50)],
          modeIsDefault: true),
        .off("eDP-1"),
      ])
    #expect(p.configuration.primary == "HDMI-1")
  }

  @Test func aClosedLidLeavesThePanelOnWhenItsEntrySaysEnabled() throws {
    let p = try Self.plan(
      "{match: {output: 'eDP-1'}, enabled: true}, {match: {output: 'HDMI-1'}}",
      config: "defaults: {lid_closed: 'disable'},", lid: .closed)
    #expect(p.configuration.heads.map(\.name) == ["HDMI-1"] && p.configuration.primary == nil)
  }

  @Test func aProfileThatLightsNoHeadIsRefusedAsDark() throws {
    #expect(throws: ProfilePlanError.dark(profile: "p")) {
      try Self.plan("{match: {output: 'eDP-1'}, enabled: false}, {match: {output: 'HDMI-1'}, enabled: false}")
    }
  }

  @Test func anAssignmentNamingAHeadTheSnapshotLacksIsRefused() throws {
    let c = try Config.parse(Array("{profiles: [{name: 'p', outputs: [{match: {}}]}]}".utf8), file: "test.json5")
    let profile = try #require(c.profiles.first)
    #expect(throws: ProfilePlanError.assignment(profile: "p")) {
      try ProfilePlanner(snapshot: Self.desk(), config: c).plan(profile, assignment: .init(heads: ["DP-9"]))
    }
  }

  @Test func aProfileAlreadyInForceChangesNothing() throws {
    let desk = HeadSnapshot(heads: [Self.head("eDP-1", lit: 0), Self.head("HDMI-1", lit: 1920)], primary: "eDP-1")
    let p = try Self.plan("{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}}", desk)
    #expect(p.isEmpty, "\(p.configuration)")
  }

  @Test func aDpiGivesTheLitAreaItsPhysicalSizeAndAutoMeasuresThePrimary() throws {
    let entries = "{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}}"
    let fixed = try Self.plan(entries, options: ", dpi: 96")
    #expect(fixed.configuration.physicalSize == PhysicalSize(width: 1016, height: 286) && fixed.dpi == 96)
    let measured = try Self.plan(entries, options: ", dpi: 'auto'")
    #expect(measured.dpi == 1080 * 25.4 / 268)
  }

  @Test func aWildcardEntryTakesTheHeadTheNamedEntriesLeave() throws {
    let c = try Config.parse(
      Array("{profiles: [{name: 'p', outputs: [{match: {output: '*'}}, {match: {output: 'eDP-1'}}]}]}".utf8),
      file: "test.json5")
    let profile = try #require(c.profiles.first)
    let assignment = try ProfileMatcher.match(profile, snapshot: Self.desk(), lid: .open).get()
    #expect(assignment.heads == ["HDMI-1", "eDP-1"])
  }
}

extension ProfilePlan {
  /// Nothing to send: no head, primary or physical size to change.
  var isEmpty: Bool {
    configuration.heads.isEmpty && configuration.primary == nil && configuration.physicalSize == nil
  }
}
