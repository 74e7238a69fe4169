import DisplayKit
import DisplayModel
import DisplayX11
import Testing

extension Topology {
  /// What a server would hold after the plan: a stand-in for the X side in pure tests.
  func applying(_ plan: Plan) -> Topology { after(plan) }
}

/// Plans a profile (given as JSON5) on a topology; throws when it does not match.
func planProfile(
  _ text: String, on t: Topology, config: String = "", lid: LidState = .open, noTransform: Set<CrtcID> = []
) throws -> ReferencePlan {
  let c = try Config.parse(Array("{\(config) profiles: [\(text)]}".utf8), file: "test.json5")
  let profile = try #require(c.profiles.first)
  let assignment = try ProfileMatcher.match(profile, topology: t, lid: lid).get()
  let plan = try ProfilePlanner(topology: t, config: c, lid: lid, noTransform: noTransform).plan(
    profile, assignment: assignment)
  // Every profile a test plans is also a case of the port's round trip (the bridge's
  // configuration planned again by the RandR backend): it must do the same.
  PlanRoundTrip.expectSame(plan.plan, t, "profile \(text)")
  return plan
}

/// The plan changes nothing at all: no CRTC, screen size, primary or physical size.
func changesNothing(_ plan: Plan) -> Bool {
  plan.changes.isEmpty && plan.screen == nil && plan.primary == nil && plan.screenMillimetres == nil
}

@Suite struct ProfilePlannerTests {
  typealias F = ProfileFixtures
  typealias B = TopologyBuilder
  let laptop = F.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "eDP-1")

  func rects(_ t: Topology) -> [String: String] {
    Dictionary(uniqueKeysWithValues: t.connectedOutputs.map { ($0.name, t.geometry(of: $0)?.description ?? "off") })
  }

  @Test func aProfileAlreadyInForceChangesNothing() throws {
    let p =
      "{name: 'row', outputs: [{match: {output: 'eDP-1'}, primary: true}, {match: {output: 'DP-1'}}, {match: {}}]}"
    #expect(changesNothing(try planProfile(p, on: laptop)))
  }

  @Test func planningAgainAfterApplyingChangesNothing() throws {
    let profiles = [
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, enabled: false}, {match: {output: 'DP-1'}, primary: true}, {match: {}, position: 'left-of DP-1', mode: '1024x768'}], dpi: 144}",
      "{name: 'p', arrange: 'column', align: 'end', outputs: [{match: {output: 'DP-1'}, mode: '1280x1024'}, {match: {}}, {match: {}, mode: '1024x768'}]}",
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'DP-1'}, position: 'same-as eDP-1'}, {match: {}, position: 'same-as main', mode: '1024x768'}]}",
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, scale: 1.5}, {match: {output: 'DP-1'}, position: '5000,0'}, {match: {}, position: 'below DP-1', scale: 0.5}], dpi: 'auto'}",
    ]
    var t = laptop
    for i in t.outputs.indices { (t.outputs[i].mmWidth, t.outputs[i].mmHeight) = (344, 194) }
    for (i, p) in profiles.enumerated() {
      let plan = try planProfile(p, on: t)
      #expect(!changesNothing(plan), "profile \(i) changes something first")
      let after = t.applying(plan)
      let again = try planProfile(p, on: after)
      #expect(changesNothing(again), "profile \(i): \(again.changes) \(String(describing: again.screen))")
    }
  }

  @Test func disablingAnOutputTurnsItsCrtcOffFirstAndTheRestMovesToTheOrigin() throws {
    let plan = try planProfile(
      "{name: 'desk', outputs: [{match: {output: 'eDP-1'}, enabled: false}, {match: {output: 'DP-1'}}, {match: {}}]}",
      on: laptop)
    #expect(plan.changes.first?.mode == nil && plan.changes.first?.outputName == "eDP-1")
    #expect(plan.changes.first?.crtc == laptop.crtcs[0].id)
    let after = laptop.applying(plan)
    #expect(rects(after) == ["eDP-1": "off", "DP-1": "1920x1080+0+0", "HDMI-1": "1920x1080+1920+0"])
    #expect(plan.screen! == (3840, 1080))
    #expect(plan.primary == laptop.outputs[1].id, "the primary went off: main (the first lit entry) takes it")
  }

  @Test func aPlanThatLeavesNoOutputLitIsRefused() throws {
    let t = F.desk(["eDP-1"])
    #expect(throws: ProfilePlanError.dark(profile: "off")) {
      try planProfile("{name: 'off', outputs: [{match: {}, enabled: false}]}", on: t)
    }
    #expect(ProfilePlanError.dark(profile: "off").description.contains("never a dark desk"))
  }

  @Test func aLayoutLargerThanTheServersMaximumIsRefused() throws {
    var t = laptop
    t.screen.maxWidth = 4000
    #expect(
      throws: ProfilePlanError.tooLarge(profile: "wide", width: 5760, height: 1080, maxWidth: 4000, maxHeight: 16384)
    ) {
      try planProfile("{name: 'wide', outputs: [{match: {}}, {match: {}}, {match: {}}]}", on: t)
    }
  }

  @Test func entriesWithoutAPositionFormARowAlignedAsAsked() throws {
    let modes =
      "{match: {output: 'eDP-1'}, mode: '1024x768'}, {match: {output: 'DP-1'}}, {match: {}, mode: '1280x1024'}"
    for (align, ys) in [("start", [0, 0, 0]), ("center", [156, 0, 28]), ("end", [312, 0, 56])] {
      let after = laptop.applying(try planProfile("{name: 'r', align: '\(align)', outputs: [\(modes)]}", on: laptop))
      #expect(after.crtcs.map(\.x) == [0, 1024, 2944], "\(align)")
      #expect(after.crtcs.map(\.y) == ys, "\(align)")
    }
  }

  @Test func aColumnStacksEntriesTopToBottom() throws {
    let plan = try planProfile(
      "{name: 'c', arrange: 'column', align: 'center', outputs: [{match: {output: 'eDP-1'}, mode: '1024x768'}, {match: {output: 'DP-1'}}, {match: {}}]}",
      on: laptop)
    let after = laptop.applying(plan)
    #expect(rects(after) == ["eDP-1": "1024x768+448+0", "DP-1": "1920x1080+0+768", "HDMI-1": "1920x1080+0+1848"])
    #expect(plan.screen! == (1920, 2928))
  }

  @Test func relativePositionsFollowAliasesOutputsAndMainThenStartAtTheOrigin() throws {
    let plan = try planProfile(
      """
      {name: 'p', outputs: [{match: {output: 'eDP-1'}, mode: '1024x768'},
        {match: {output: 'DP-1'}, alias: 'big', position: 'left-of main'},
        {match: {output: 'HDMI-1'}, position: 'above big', mode: '1280x1024'}]}
      """, on: laptop)
    let after = laptop.applying(plan)
    #expect(rects(after) == ["eDP-1": "1024x768+1920+1024", "DP-1": "1920x1080+0+1024", "HDMI-1": "1280x1024+0+0"])
  }

  @Test func pointPositionsComeFirstAndArrangedEntriesFollowThem() throws {
    let after = laptop.applying(
      try planProfile(
        "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'DP-1'}, position: '100,50'}, {match: {}}]}",
        on: laptop))
    #expect(rects(after) == ["DP-1": "1920x1080+0+0", "eDP-1": "1920x1080+1920+0", "HDMI-1": "1920x1080+3840+0"])
  }

  @Test func theModeChainFallsBackWithAWarning() throws {
    let plan = try planProfile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, mode: '800x600'}, {match: {}}, {match: {}}]}", on: laptop)
    #expect(plan.warnings.map(\.description).contains { $0.contains("eDP-1 has no mode 800x600") })
    #expect(changesNothing(plan), "the preferred mode is what it already has")
  }

  @Test func aDisconnectedOutputStillHoldingACrtcIsTurnedOff() throws {
    var t = laptop
    t.outputs[2].connection = .disconnected
    let plan = try planProfile("{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}}]}", on: t)
    #expect(plan.changes.map(\.outputName) == ["HDMI-1"] && plan.changes[0].mode == nil)
    #expect(plan.screen! == (3840, 1080))
  }

  @Test func anOutputWithoutACrtcTakesOneThePlanFrees() throws {
    // Two outputs share one CRTC: turning eDP-1 off frees it for DP-1.
    var t = F.desk(["eDP-1"])
    let crtc = t.crtcs[0].id
    t.crtcs[0].possibleOutputs = []
    t.outputs.append(
      Output(
        id: OutputID(rawValue: 150), name: "DP-1", connection: .connected, modes: [B.m1080.id, B.m768.id],
        preferredCount: 1, possibleCrtcs: [crtc]))
    let plan = try planProfile("{name: 'p', outputs: [{match: {output: 'eDP-1'}, enabled: false}, {match: {}}]}", on: t)
    #expect(
      plan.changes.count == 1 && plan.changes[0].crtc == crtc && plan.changes[0].outputs == [OutputID(rawValue: 150)])
    let both = try planProfile("{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}}]}", on: t)
    #expect(both.warnings.map(\.description).contains("no free CRTC can drive DP-1; left off"))
  }
}
