import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayX11
import Testing

/// The layout keys of `monitors` rules (`enabled`, `rotate`, `reflect`, `scale`,
/// `scale_filter`, `primary`) in the rule planner, used when no profile matches, on RandR
/// desks' heads: what each head is asked, written out.
@Suite struct RulePlannerTests {
  typealias B = TopologyBuilder
  /// eDP-1 (main) and HDMI-1 lit side by side at 1080p.
  let both = HeadSnapshot(
    topology: B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080, "HDMI-1": B.m1080], primary: "eDP-1"))

  /// eDP-1 lit; the named outputs connected without a CRTC, their CRTCs able to do `rotations`.
  func dark(_ names: [String], rotations: Rotation = .normal, noTransform: Bool = false) -> HeadSnapshot {
    var t = B.topology(["eDP-1"] + names, on: ["eDP-1": B.m1080], primary: "eDP-1")
    for i in t.outputs.indices.dropFirst() { t.outputs[i].connection = .connected }
    for i in t.crtcs.indices { t.crtcs[i].rotations = rotations }
    return HeadSnapshot(topology: t, noTransform: noTransform ? Set(t.crtcs.dropFirst().map(\.id)) : [])
  }

  func plan(_ rules: String, on snapshot: HeadSnapshot, main: String? = nil) throws -> RulePlan {
    let head = main.map { "main: '\($0)', " } ?? ""
    let config = try Config.parse(Array("{\(head)monitors: [\(rules)]}".utf8), file: "test.json5")
    return RulePlanner(snapshot: snapshot, config: config).plan()
  }

  /// The desk once a compositor-like server has applied the plan.
  func after(_ plan: RulePlan, on snapshot: HeadSnapshot) throws -> HeadSnapshot {
    let heads = try FakeOutputManager.configure(snapshot.heads, plan.configuration, generation: snapshot.generation)
      .get()
    return HeadSnapshot(
      heads: heads, primary: plan.configuration.primary ?? snapshot.primary, generation: snapshot.generation)
  }

  /// The full mode chain a dark HDMI-1 is asked at 1080p.
  static let chain = "1920x1080@60000 +1920+0"
  static let fallbacks = "fallbacks 1280x1024@60020,1024x768@60004"

  // MARK: enabled

  @Test func enabledFalseTurnsTheHeadOffAndSettlesIt() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: both)
    #expect(PlanText.line(p) == "HDMI-1 off | configures HDMI-1", "settled: a later xrandr is left alone")
  }

  @Test func enabledFalseOnAHeadAlreadyOffSendsNothing() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: both)
    let again = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: try after(p, on: both))
    #expect(again.configuration.heads.isEmpty && again.warnings.isEmpty)
  }

  @Test func enabledFalseOnTheOnlyLitHeadLeavesItOnBecauseItIsMain() throws {
    // The primary is connected but dark: HDMI-1, the only lit head, is main (the first lit
    // one), and a monitors rule does not turn main off.
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["HDMI-1": B.m1080], primary: "eDP-1")
    t.outputs[0].connection = .connected
    let p = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: HeadSnapshot(topology: t))
    #expect(!p.configuration.heads.contains { !$0.enabled }, "nothing turned off")
    #expect(p.warnings.map(\.description).contains { $0.contains("HDMI-1 is main") && $0.contains("enabled") })
  }

  @Test func enabledFalseOnEveryLitExternalHeadLeavesOneOnNeverADarkDesk() throws {
    // Main (eDP-1) is connected and dark, two externals are lit; a rule turns off both.
    var t = B.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["HDMI-1": B.m1080, "DP-1": B.m1080], primary: "eDP-1")
    t.outputs[0].connection = .connected
    let desk = HeadSnapshot(topology: t)
    let p = try plan("{match: {output: '*-1'}, enabled: false}", on: desk)
    #expect(try after(p, on: desk).heads.contains { $0.rect != nil }, "something stays lit")
  }

  // MARK: rotate and reflect

  @Test func rotateLeftTurnsTheHeadAndItTakesItsModeSideways() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, rotate: 'left'}", on: dark(["HDMI-1"], rotations: [.normal, .left, .right, .inverted]))
    #expect(PlanText.line(p) == "HDMI-1 \(Self.chain) rotated90 \(Self.fallbacks) default | configures HDMI-1")
  }

  @Test func reflectionJoinsTheRotation() throws {
    let t = dark(["HDMI-1"], rotations: [.normal, .right, .reflectX, .reflectY])
    let p = try plan("{match: {output: 'HDMI-1'}, rotate: 'right', reflect: 'x'}", on: t)
    #expect(p.configuration.heads.map(\.transform) == [.flipped270])
  }

  @Test func aTurnTheHeadCannotShowFallsBackWithAWarningNamingWhatItCan() throws {
    let p = try plan(
      "{match: {output: 'HDMI-1'}, rotate: 'left', reflect: 'y'}", on: dark(["HDMI-1"], rotations: [.normal, .inverted]))
    #expect(p.configuration.heads.map(\.transform) == [.normal])
    #expect(
      p.warnings.map(\.description) == [
        "HDMI-1 cannot show flipped270 (it can: normal, rotated180); normal instead"
      ])
  }

  @Test func aRotationAlreadyInForceChangesNothing() throws {
    let t = dark(["HDMI-1"], rotations: [.normal, .left])
    let rule = "{match: {output: 'HDMI-1'}, rotate: 'left'}"
    #expect(try plan(rule, on: try after(try plan(rule, on: t), on: t)).isEmpty)
  }

  @Test func aRuleWithoutRotateLeavesARotationSetByHandAsItIs() throws {
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080, "HDMI-1": B.m1080], primary: "eDP-1")
    t.crtcs[1].rotation = .inverted
    t.crtcs[1].rotations = [.normal, .inverted]
    let desk = HeadSnapshot(topology: t)
    #expect(try plan("{match: {output: 'HDMI-1'}, mode: 'keep'}", on: desk).isEmpty)
    let p = try plan("{match: {output: 'HDMI-1'}, rotate: 'normal'}", on: desk)
    #expect(p.configuration.heads.map(\.transform) == [.normal], "an explicit rotate does set it")
  }

  // MARK: scale

  @Test func scaleTwoAsksTheScaleAndItsFilter() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, scale: 2, scale_filter: 'nearest'}", on: dark(["HDMI-1"]))
    #expect(
      PlanText.line(p) == "HDMI-1 \(Self.chain) scale 2 filter nearest \(Self.fallbacks) default | configures HDMI-1")
  }

  @Test func aHeadPlacedAfterAFractionallyScaledOneStartsWhereTheServerRoundsItsArea() throws {
    // 1.1 in 16.16 is 72089/65536 (truncated); the far corner is rounded up: 2112 wide.
    let p = try plan("{match: {output: 'HDMI-1'}, scale: 1.1}", on: dark(["HDMI-1", "DP-1"]))
    #expect(p.configuration.heads.first { $0.name == "DP-1" }?.x == 1920 + 2112)
  }

  @Test func aScaleAndARotationTogetherSwapTheScaledSides() throws {
    let p = try plan(
      "{match: {output: 'HDMI-1'}, rotate: 'left', scale: 0.5}", on: dark(["HDMI-1", "DP-1"], rotations: [.normal, .left]))
    #expect(p.configuration.heads.first { $0.name == "DP-1" }?.x == 1920 + 540)
  }

  @Test func aScaleOnAHeadThatCannotScaleIsOneWithAWarning() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, scale: 2}", on: dark(["HDMI-1"], noTransform: true))
    #expect(p.configuration.heads.map(\.scale) == [1])
    #expect(p.warnings.map(\.description) == ["HDMI-1 cannot scale; scale 1 instead of 2.0"])
  }

  @Test func aScaledHeadAlreadyInPlaceChangesNothingAndAnUnscaledOneIsScaled() throws {
    let rule = "{match: {output: 'HDMI-1'}, scale: 2}"
    let t = dark(["HDMI-1"])
    #expect(try plan(rule, on: try after(try plan(rule, on: t), on: t)).isEmpty)
    #expect(try plan(rule, on: both).configuration.heads.map(\.scale) == [2])
  }

  // MARK: primary

  @Test func primaryTrueMakesTheHeadThePrimaryOnce() throws {
    let rule = "{match: {output: 'HDMI-1'}, primary: true}"
    let p = try plan(rule, on: both)
    #expect(p.configuration.primary == "HDMI-1" && p.configuration.heads.isEmpty)
    #expect(try plan(rule, on: try after(p, on: both)).isEmpty, "already primary: nothing to send")
  }

  @Test func aHeadARuleMakesPrimaryIsNotMainSoTheOldMainKeepsItsPlaceAndGetsNoWindow() throws {
    let rule = "{match: {output: 'HDMI-1'}, primary: true}"
    let config = try Config.parse(Array("{monitors: [\(rule)]}".utf8), file: "test.json5")
    let after = try after(try plan(rule, on: both), on: both)
    #expect(after.primary == "HDMI-1")
    #expect(config.mainOutput(in: after)?.name == "eDP-1")
    #expect(config.wantedWindows(in: after).map(\.head) == ["HDMI-1"])
    let named = try Config.parse(Array("{main: 'HDMI-1', monitors: [\(rule)]}".utf8), file: "test.json5")
    #expect(named.mainOutput(in: after)?.name == "HDMI-1", "unless main names it")
  }

  @Test func whenSeveralAskToBePrimaryTheFirstHeadIsWithAWarning() throws {
    let p = try plan("{match: {output: '*-1'}, primary: true}", on: dark(["HDMI-1", "DP-1"]))
    #expect(p.configuration.primary == "HDMI-1")
    #expect(p.warnings.map(\.description).contains("HDMI-1, DP-1 all ask to be primary; HDMI-1 is"))
  }

  @Test func aPrimaryThatIsAlsoDisabledStaysOffAndThePrimaryAsItIs() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, primary: true, enabled: false}", on: both)
    #expect(PlanText.line(p).hasPrefix("HDMI-1 off | configures HDMI-1"))
    #expect(p.configuration.primary == nil)
    #expect(p.warnings.map(\.description).contains("HDMI-1 is primary but off; primary left as it is"))
  }

  @Test func turningOffThePrimaryHeadMakesMainPrimary() throws {
    var desk = both
    desk.primary = "HDMI-1"
    let p = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: desk, main: "eDP-1")
    #expect(p.configuration.primary == "eDP-1")
  }

  // MARK: check-config, main, and same-as

  @Test func checkConfigSaysWhichMonitorsGoOffAndWhatRotationScaleAndPrimaryTheOthersGet() throws {
    var lit = B.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m1080], primary: "eDP-1")
    lit.outputs[1].connection = .connected
    for i in lit.crtcs.indices { lit.crtcs[i].rotations = [.normal, .left, .reflectX] }
    let text = """
      {monitors: [{match: {output: 'HDMI-1'}, rotate: 'left', reflect: 'x', scale: 1.5, primary: true},
                  {match: {output: 'DP-1'}, enabled: false}]}
      """
    let report = CheckReport.text(
      config: try Config.parse(Array(text.utf8), file: "test.json5"), snapshot: try lit.randrHeads())
    #expect(report.contains("DP-1: off (enabled: false)\n"), "\(report)")
    #expect(
      report.contains(", level normal, rotate left, reflect x, scale 1.5 (bilinear), primary\n"), "\(report)")
  }

  @Test func layoutKeysInARuleForMainAreNotAppliedAndSaySo() throws {
    let p = try plan("{match: {output: 'eDP-1'}, enabled: false, rotate: 'left', scale: 2}", on: both)
    #expect(p.configuration.heads.isEmpty && p.configuration.primary == nil)
    #expect(
      p.warnings.map(\.description).contains {
        $0.hasPrefix("eDP-1 is main: a monitors rule's enabled: false, rotate/reflect, scale")
      })
  }

  @Test(arguments: [
    ("{monitors: [{match: {}, position: 'same-as main'}]}", "monitors[0].position"),
    ("{defaults: {position: 'same-as HDMI-1'}}", "defaults.position"),
  ])
  func sameAsOutsideAProfileIsAConfigErrorSayingWhereItBelongs(_ text: String, _ key: String) {
    do {
      _ = try Config.parse(Array(text.utf8), file: "test.json5")
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.keyPath == key && error.file == "test.json5", "\(error)")
      #expect(error.description.contains("same-as is only available in profiles"), "\(error)")
    }
  }
}
