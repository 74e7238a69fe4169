import DisplayKit
import DisplayModel
import DisplayX11
import Testing

/// The profile planner on RandR desks' heads: what each head is asked, and the desk after.
@Suite struct ProfilePlannerTests {
  typealias F = ProfileFixtures
  typealias D = HeadProfileDesk
  let laptop = HeadSnapshot(topology: F.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "eDP-1"))

  @Test func aProfileAlreadyInForceChangesNothing() throws {
    let p =
      "{name: 'row', outputs: [{match: {output: 'eDP-1'}, primary: true}, {match: {output: 'DP-1'}}, {match: {}}]}"
    #expect(D.changesNothing(try D.plan(p, on: laptop)))
  }

  /// A clone scaled to its target's size both ways is left out: the fake output manager
  /// keeps one scale a head.
  @Test func planningAgainAfterApplyingChangesNothing() throws {
    let profiles = [
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, enabled: false}, {match: {output: 'DP-1'}, primary: true}, {match: {}, position: 'left-of DP-1', mode: '1024x768'}], dpi: 144}",
      "{name: 'p', arrange: 'column', align: 'end', outputs: [{match: {output: 'DP-1'}, mode: '1280x1024'}, {match: {}}, {match: {}, mode: '1024x768'}]}",
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, scale: 1.5}, {match: {output: 'DP-1'}, position: '5000,0'}, {match: {}, position: 'below DP-1', scale: 0.5}]}",
    ]
    var t = F.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "eDP-1")
    for i in t.outputs.indices { (t.outputs[i].mmWidth, t.outputs[i].mmHeight) = (344, 194) }
    let desk = HeadSnapshot(topology: t)
    for (i, p) in profiles.enumerated() {
      let plan = try D.plan(p, on: desk)
      #expect(!D.changesNothing(plan), "profile \(i) changes something first")
      let after = try D.applying(plan, on: desk)
      let again = try D.plan(p, on: after)
      #expect(
        again.configuration.heads.isEmpty && again.configuration.primary == nil,
        "profile \(i): \(PlanText.line(again))")
    }
  }

  @Test func disablingAHeadTurnsItOffAndTheRestMovesToTheOrigin() throws {
    let plan = try D.plan(
      "{name: 'desk', outputs: [{match: {output: 'eDP-1'}, enabled: false}, {match: {output: 'DP-1'}}, {match: {}}]}",
      on: laptop)
    #expect(plan.configuration.heads.contains(.off("eDP-1")))
    let after = try D.applying(plan, on: laptop)
    #expect(D.rects(after) == ["eDP-1": "off", "DP-1": "1920x1080+0+0", "HDMI-1": "1920x1080+1920+0"])
    #expect(plan.configuration.primary == "DP-1", "the primary went off: main (the first lit entry) takes it")
  }

  @Test func aPlanThatLeavesNoHeadLitIsRefused() throws {
    let t = HeadSnapshot(topology: F.desk(["eDP-1"]))
    #expect(throws: ProfilePlanError.dark(profile: "off")) {
      try D.plan("{name: 'off', outputs: [{match: {}, enabled: false}]}", on: t)
    }
    #expect(ProfilePlanError.dark(profile: "off").description.contains("never a dark desk"))
  }

  @Test func entriesWithoutAPositionFormARowAlignedAsAsked() throws {
    let modes =
      "{match: {output: 'eDP-1'}, mode: '1024x768'}, {match: {output: 'DP-1'}}, {match: {}, mode: '1280x1024'}"
    for (align, ys) in [("start", [0, 0, 0]), ("center", [156, 0, 28]), ("end", [312, 0, 56])] {
      let after = try D.applying(
        try D.plan("{name: 'r', align: '\(align)', outputs: [\(modes)]}", on: laptop), on: laptop)
      #expect(after.heads.map { $0.rect?.x } == [0, 1024, 2944], "\(align)")
      #expect(after.heads.map { $0.rect?.y } == ys, "\(align)")
    }
  }

  @Test func aColumnStacksEntriesTopToBottom() throws {
    let plan = try D.plan(
      "{name: 'c', arrange: 'column', align: 'center', outputs: [{match: {output: 'eDP-1'}, mode: '1024x768'}, {match: {output: 'DP-1'}}, {match: {}}]}",
      on: laptop)
    #expect(
      D.rects(try D.applying(plan, on: laptop))
        == ["eDP-1": "1024x768+448+0", "DP-1": "1920x1080+0+768", "HDMI-1": "1920x1080+0+1848"])
  }

  @Test func relativePositionsFollowAliasesHeadsAndMainThenStartAtTheOrigin() throws {
    let plan = try D.plan(
      """
      {name: 'p', outputs: [{match: {output: 'eDP-1'}, mode: '1024x768'},
        {match: {output: 'DP-1'}, alias: 'big', position: 'left-of main'},
        {match: {output: 'HDMI-1'}, position: 'above big', mode: '1280x1024'}]}
      """, on: laptop)
    #expect(
      D.rects(try D.applying(plan, on: laptop))
        == ["eDP-1": "1024x768+1920+1024", "DP-1": "1920x1080+0+1024", "HDMI-1": "1280x1024+0+0"])
  }

  @Test func pointPositionsComeFirstAndArrangedEntriesFollowThem() throws {
    let plan = try D.plan(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'DP-1'}, position: '100,50'}, {match: {}}]}",
      on: laptop)
    #expect(
      D.rects(try D.applying(plan, on: laptop))
        == ["DP-1": "1920x1080+0+0", "eDP-1": "1920x1080+1920+0", "HDMI-1": "1920x1080+3840+0"])
  }

  @Test func theModeChainFallsBackWithAWarning() throws {
    let plan = try D.plan(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, mode: '800x600'}, {match: {}}, {match: {}}]}", on: laptop)
    #expect(plan.warnings.map(\.description).contains { $0.contains("eDP-1 has no mode 800x600") })
    #expect(D.changesNothing(plan), "the preferred mode is what it already has")
  }

  @Test func aDisconnectedHeadStillLitIsTurnedOff() throws {
    var t = F.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "eDP-1")
    t.outputs[2].connection = .disconnected
    let plan = try D.plan(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}}]}", on: HeadSnapshot(topology: t))
    #expect(plan.configuration.heads == [.off("HDMI-1")])
  }
}
