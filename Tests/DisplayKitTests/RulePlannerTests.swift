import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayX11
import Testing

/// The layout keys of `monitors` rules (`enabled`, `rotate`, `reflect`, `scale`,
/// `scale_filter`, `primary`) in the per-monitor planner, used when no profile matches.
@Suite struct RulePlannerTests {
  typealias B = TopologyBuilder
  /// eDP-1 (main) and HDMI-1 lit side by side at 1080p.
  let both = B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080, "HDMI-1": B.m1080], primary: "eDP-1")

  /// eDP-1 lit; the named outputs connected without a CRTC, their CRTCs able to do `rotations`.
  func dark(_ names: [String], rotations: Rotation = .normal) -> Topology {
    var t = B.topology(["eDP-1"] + names, on: ["eDP-1": B.m1080], primary: "eDP-1")
    for i in t.outputs.indices.dropFirst() { t.outputs[i].connection = .connected }
    for i in t.crtcs.indices { t.crtcs[i].rotations = rotations }
    return t
  }

  func plan(_ rules: String, on t: Topology, main: String? = nil, noTransform: Set<CrtcID> = []) throws -> ReferencePlan
  {
    let head = main.map { "main: '\($0)', " } ?? ""
    let config = try Config.parse(Array("{\(head)monitors: [\(rules)]}".utf8), file: "test.json5")
    let plan = HeadPlanDifferential.plan(t, config, settled: [], noTransform: noTransform)
    // Every rule plan of these tests is also a case of the port's round trip.
    PlanRoundTrip.expectSame(plan.plan, t, "rules \(rules)")
    return plan
  }

  func crtc(_ t: Topology, _ name: String) -> CrtcID? { t.output(named: name)?.possibleCrtcs.first }

  // MARK: enabled

  @Test func enabledFalseTurnsTheOutputsCrtcOffAndTheScreenShrinksToWhatStaysLit() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: both)
    #expect(p.changes.count == 1)
    let off = try #require(p.changes.first)
    #expect(off.crtc == crtc(both, "HDMI-1") && off.mode == nil && off.outputs.isEmpty)
    #expect(p.screen.map { [$0.width, $0.height] } == [1920, 1080])
    #expect(p.configures == [try #require(both.output(named: "HDMI-1")).id], "settled: a later xrandr is left alone")
    #expect(p.warnings.isEmpty)
  }

  @Test func enabledFalseOnAnOutputAlreadyOffSendsNothing() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: both)
    let again = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: both.after(p))
    #expect(again.isEmpty && again.warnings.isEmpty)
  }

  @Test func enabledFalseOnTheOnlyLitOutputLeavesItOnBecauseItIsMain() throws {
    // The primary is connected but dark: HDMI-1, the only lit output, is main (the first lit
    // one), and a monitors rule does not turn main off.
    var t = B.topology(["eDP-1", "HDMI-1"], on: ["HDMI-1": B.m1080], primary: "eDP-1")
    t.outputs[0].connection = .connected
    let p = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: t)
    #expect(!p.changes.contains { $0.mode == nil }, "nothing turned off")
    #expect(p.warnings.map(\.description).contains { $0.contains("HDMI-1 is main") && $0.contains("enabled") })
  }

  @Test func enabledFalseOnEveryLitExternalOutputLeavesOneOnNeverADarkDesk() throws {
    // Main (eDP-1) is connected and dark, two externals are lit; a rule turns off both.
    var t = B.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["HDMI-1": B.m1080, "DP-1": B.m1080], primary: "eDP-1")
    t.outputs[0].connection = .connected
    let p = try plan("{match: {output: '*-1'}, enabled: false}", on: t)
    #expect(t.after(p).outputs.contains { t.after(p).geometry(of: $0) != nil }, "something stays lit")
  }

  @Test func disablingOneOfTwoClonedOutputsKeepsTheCrtcForTheOther() throws {
    var t = B.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": B.m1080, "HDMI-1": B.m1080], primary: "eDP-1")
    t.outputs[2].connection = .connected
    t.outputs[2].crtc = t.crtcs[1].id
    t.crtcs[1].outputs.append(t.outputs[2].id)
    t.crtcs[1].possibleOutputs.append(t.outputs[2].id)
    let p = try plan("{match: {output: 'DP-1'}, enabled: false}, {match: {output: 'HDMI-1'}, mode: 'keep'}", on: t)
    let change = try #require(p.changes.first { $0.crtc == t.crtcs[1].id })
    #expect(change.mode == B.m1080.id && change.outputs == [t.outputs[1].id])
    #expect(p.changes.count == 1)
  }

  // MARK: rotate and reflect

  @Test func rotateLeftTurnsTheCrtcAndTheMonitorTakesItsModeSideways() throws {
    let t = dark(["HDMI-1"], rotations: [.normal, .left, .right, .inverted])
    let p = try plan("{match: {output: 'HDMI-1'}, rotate: 'left'}", on: t)
    let change = try #require(p.changes.first)
    #expect(change.rotation == .left && (change.x, change.y) == (1920, 0))
    #expect(p.screen.map { [$0.width, $0.height] } == [1920 + 1080, 1920])
  }

  @Test func reflectionJoinsTheRotation() throws {
    let t = dark(["HDMI-1"], rotations: [.normal, .right, .reflectX, .reflectY])
    let p = try plan("{match: {output: 'HDMI-1'}, rotate: 'right', reflect: 'x'}", on: t)
    #expect(p.changes.first?.rotation == [.right, .reflectX])
  }

  @Test func aRotationTheCrtcCannotDoIsNormalInsteadWithAWarningNamingTheOutputAndWhatItCan() throws {
    let t = dark(["HDMI-1"], rotations: [.normal, .inverted])
    let p = try plan("{match: {output: 'HDMI-1'}, rotate: 'left', reflect: 'y'}", on: t)
    #expect(p.changes.first?.rotation == .normal)
    #expect(p.screen.map { [$0.width, $0.height] } == [3840, 1080])
    #expect(
      p.warnings == [
        .crtcCannot(output: "HDMI-1", .rotate(.left, can: ["normal", "inverted"])),
        .crtcCannot(output: "HDMI-1", .reflect("y")),
      ])
    #expect(
      p.warnings.map(\.description).contains(
        "HDMI-1: its CRTC cannot rotate left (it can: normal, inverted); normal instead"))
    #expect(p.warnings.map(\.description).contains("HDMI-1: its CRTC cannot reflect y; not reflected"))
  }

  @Test func aRotationAlreadyInForceChangesNothing() throws {
    let t = dark(["HDMI-1"], rotations: [.normal, .left])
    let rule = "{match: {output: 'HDMI-1'}, rotate: 'left'}"
    #expect(try plan(rule, on: t.after(try plan(rule, on: t))).isEmpty)
  }

  @Test func aRuleWithoutRotateLeavesARotationSetByHandAsItIs() throws {
    var t = both
    t.crtcs[1].rotation = .inverted
    t.crtcs[1].rotations = [.normal, .inverted]
    #expect(try plan("{match: {output: 'HDMI-1'}, mode: 'keep'}", on: t).isEmpty)
    let p = try plan("{match: {output: 'HDMI-1'}, rotate: 'normal'}", on: t)
    #expect(p.changes.first?.rotation == .normal, "an explicit rotate does set it")
  }

  // MARK: scale

  @Test func scaleTwoShowsTwiceTheModesAreaThroughATransform() throws {
    let t = dark(["HDMI-1"])
    let p = try plan("{match: {output: 'HDMI-1'}, scale: 2, scale_filter: 'nearest'}", on: t)
    let change = try #require(p.changes.first)
    #expect(
      change.mode == B.m1080.id
        && change.transform == CrtcTransform(matrix: [2, 0, 0, 0, 2, 0, 0, 0, 1], filter: .nearest))
    #expect(p.screen.map { [$0.width, $0.height] } == [1920 + 3840, 2160])
  }

  @Test func aFractionalScaleIsRoundedAsXrandrRoundsIt() throws {
    // 1.1 in 16.16 is 72089/65536 (truncated); the far corner is rounded up.
    let p = try plan("{match: {output: 'HDMI-1'}, scale: 1.1}", on: dark(["HDMI-1"]))
    #expect(p.screen.map { [$0.width, $0.height] } == [1920 + 2112, 1188])
  }

  @Test func aScaleAndARotationTogetherSwapTheScaledSides() throws {
    let t = dark(["HDMI-1"], rotations: [.normal, .left])
    let p = try plan("{match: {output: 'HDMI-1'}, rotate: 'left', scale: 0.5}", on: t)
    #expect(p.screen.map { [$0.width, $0.height] } == [1920 + 540, 1080])
  }

  @Test func aScaleOnACrtcThatRefusesTransformsIsOneWithAWarning() throws {
    let t = dark(["HDMI-1"])
    let hdmi = try #require(crtc(t, "HDMI-1"))
    let p = try plan("{match: {output: 'HDMI-1'}, scale: 2}", on: t, noTransform: [hdmi])
    #expect(p.changes.first?.transform == .identity)
    #expect(p.screen.map { [$0.width, $0.height] } == [3840, 1080])
    #expect(p.warnings.map(\.description).contains("HDMI-1: its CRTC does not take transforms; scale 1 instead of 2.0"))
  }

  @Test func aScaledMonitorAlreadyInPlaceChangesNothingAndAnUnscaledOneIsScaled() throws {
    let rule = "{match: {output: 'HDMI-1'}, scale: 2}"
    let t = dark(["HDMI-1"])
    #expect(try plan(rule, on: t.after(try plan(rule, on: t))).isEmpty)
    // Lit at its mode's own size: the transform is missing, so the CRTC is set again.
    #expect(try plan(rule, on: both).changes.first?.transform.matrix == [2, 0, 0, 0, 2, 0, 0, 0, 1])
  }

  // MARK: primary

  @Test func primaryTrueMakesTheOutputTheRandRPrimaryOnce() throws {
    let rule = "{match: {output: 'HDMI-1'}, primary: true}"
    let p = try plan(rule, on: both)
    #expect(p.primary == both.output(named: "HDMI-1")?.id && p.changes.isEmpty)
    #expect(try plan(rule, on: both.after(p)).isEmpty, "already primary: nothing to send")
  }

  @Test func anOutputARuleMakesPrimaryIsNotMainSoTheOldMainKeepsItsPlaceAndGetsNoWindow() throws {
    let rule = "{match: {output: 'HDMI-1'}, primary: true}"
    let config = try Config.parse(Array("{monitors: [\(rule)]}".utf8), file: "test.json5")
    let after = both.after(try plan(rule, on: both))
    #expect(after.primary == after.output(named: "HDMI-1")?.id)
    #expect(config.mainOutput(in: after)?.name == "eDP-1")
    #expect(config.wantedWindows(in: after).map(\.output.name) == ["HDMI-1"])
    let named = try Config.parse(Array("{main: 'HDMI-1', monitors: [\(rule)]}".utf8), file: "test.json5")
    #expect(named.mainOutput(in: after)?.name == "HDMI-1", "unless main names it")
  }

  @Test func whenSeveralAskToBePrimaryTheFirstOutputIsWithAWarning() throws {
    let t = dark(["HDMI-1", "DP-1"])
    let p = try plan("{match: {output: '*-1'}, primary: true}", on: t)
    #expect(p.primary == t.output(named: "HDMI-1")?.id)
    #expect(p.warnings.map(\.description).contains("HDMI-1, DP-1 all ask to be primary; HDMI-1 is"))
  }

  @Test func aPrimaryThatIsAlsoDisabledStaysOffAndThePrimaryAsItIs() throws {
    let p = try plan("{match: {output: 'HDMI-1'}, primary: true, enabled: false}", on: both)
    #expect(p.primary == nil && p.changes.first?.mode == nil)
    #expect(p.warnings.map(\.description).contains("HDMI-1 is primary but off; primary left as it is"))
  }

  @Test func turningOffThePrimaryOutputMakesMainPrimary() throws {
    var t = both
    t.primary = t.output(named: "HDMI-1")?.id
    let p = try plan("{match: {output: 'HDMI-1'}, enabled: false}", on: t, main: "eDP-1")
    #expect(p.primary == t.output(named: "eDP-1")?.id)
  }

  // MARK: check-config, main, and same-as

  @Test func checkConfigSaysWhichMonitorsGoOffAndWhatRotationScaleAndPrimaryTheOthersGet() throws {
    let t = dark(["HDMI-1", "DP-1"], rotations: [.normal, .left, .reflectX])
    let text = """
      {monitors: [{match: {output: 'HDMI-1'}, rotate: 'left', reflect: 'x', scale: 1.5, primary: true},
                  {match: {output: 'DP-1'}, enabled: false}]}
      """
    var lit = t
    lit.crtcs[2] = Crtc(
      id: lit.crtcs[2].id, x: 1920, width: 1920, height: 1080, mode: B.m1080.id, outputs: [lit.outputs[2].id],
      possibleOutputs: [lit.outputs[2].id])
    lit.outputs[2].crtc = lit.crtcs[2].id
    let report = CheckReport.text(
      config: try Config.parse(Array(text.utf8), file: "test.json5"), snapshot: try lit.randrHeads())
    #expect(report.contains("DP-1: off (enabled: false)\n"), "\(report)")
    #expect(
      report.contains(", level normal, rotate left, reflect x, scale 1.5 (bilinear), primary\n"), "\(report)")
  }

  @Test func layoutKeysInARuleForMainAreNotAppliedAndSaySo() throws {
    let p = try plan("{match: {output: 'eDP-1'}, enabled: false, rotate: 'left', scale: 2}", on: both)
    #expect(p.isEmpty)
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
