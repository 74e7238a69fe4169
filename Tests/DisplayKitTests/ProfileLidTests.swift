import DisplayKit
import Testing

/// `defaults.lid_closed` without profiles, and which output is main when outputs may be off.
@Suite struct ProfileLidTests {
  typealias F = ProfileFixtures
  typealias B = TopologyBuilder
  let disable = try! Config.parse(Array("{defaults: {lid_closed: 'disable'}}".utf8), file: "t")
  /// eDP-1 (primary) at 0,0 and HDMI-1 right of it.
  let laptop = F.desk(["eDP-1", "HDMI-1"], primary: "eDP-1")

  func rects(_ t: Topology) -> [String: String] {
    Dictionary(uniqueKeysWithValues: t.connectedOutputs.map { ($0.name, t.geometry(of: $0)?.description ?? "off") })
  }

  @Test func closingTheLidWithAnotherOutputLitTurnsThePanelOff() throws {
    let plan = LidPolicy.plan(topology: laptop, config: disable, lid: .closed)
    #expect(plan.changes.first?.mode == nil && plan.changes.first?.crtc == laptop.crtcs[0].id)
    let after = laptop.applying(plan)
    #expect(rects(after) == ["eDP-1": "off", "HDMI-1": "1920x1080+0+0"], "the rest starts at 0,0")
    #expect(plan.screen! == (1920, 1080))
    #expect(plan.primary == laptop.outputs[1].id, "main takes over as primary")
    #expect(LidPolicy.plan(topology: after, config: disable, lid: .closed).changes.isEmpty, "once is enough")
  }

  @Test func closingTheLidWithNoOtherOutputLitChangesNothing() {
    let alone = F.desk(["eDP-1"])
    #expect(changesNothing(LidPolicy.plan(topology: alone, config: disable, lid: .closed)))
    var dark = laptop
    dark.crtcs[1].mode = nil
    dark.outputs[1].crtc = nil
    #expect(
      changesNothing(LidPolicy.plan(topology: dark, config: disable, lid: .closed)), "HDMI-1 is connected but off")
  }

  @Test func withoutLidClosedDisableTheLidChangesNothing() {
    #expect(changesNothing(LidPolicy.plan(topology: laptop, config: Config(), lid: .closed)))
  }

  @Test func openingTheLidBringsThePanelBackWhereItWas() throws {
    let closed = laptop.applying(LidPolicy.plan(topology: laptop, config: disable, lid: .closed))
    let plan = LidPolicy.plan(topology: closed, config: disable, lid: .open, previous: laptop.crtcs[0].rect)
    let after = closed.applying(plan)
    #expect(rects(after) == rects(laptop), "its old place is taken: left of everything, which is where it was")
    #expect(after.screen.width == 3840 && plan.changes.count == 2)
    #expect(LidPolicy.plan(topology: after, config: disable, lid: .open).changes.isEmpty)
  }

  @Test func aPanelReturningToAFreePlaceMovesNothingElse() throws {
    var t = laptop
    t.crtcs[0].mode = nil
    t.outputs[0].crtc = nil
    let plan = LidPolicy.plan(
      topology: t, config: disable, lid: .open, previous: Rect(x: 0, y: 1080, width: 1920, height: 1080))
    #expect(plan.changes.count == 1 && plan.changes[0].outputs == [t.outputs[0].id])
    #expect(plan.changes[0].mode == B.m1080.id, "its preferred mode")
    #expect(rects(t.applying(plan))["eDP-1"] == "1920x1080+0+1080" && plan.screen! == (3840, 2160))
  }

  @Test func theConfigsPanelKeyNamesAPanelTheConnectorDoesNot() throws {
    let dummy = F.desk(["DUMMY0", "DUMMY1"])
    let named = try Config.parse(Array("{panel: 'DUMMY0', defaults: {lid_closed: 'disable'}}".utf8), file: "t")
    #expect(LidPolicy.panel(in: dummy, config: named)?.name == "DUMMY0")
    #expect(LidPolicy.panel(in: dummy, config: disable) == nil)
    #expect(rects(dummy.applying(LidPolicy.plan(topology: dummy, config: named, lid: .closed)))["DUMMY0"] == "off")
  }

  @Test func mainIsTheNamedOutputWhileItIsLit() throws {
    let c = try Config.parse(Array("{main: 'HDMI-1'}".utf8), file: "t")
    #expect(LidPolicy.main(topology: laptop, config: c)?.name == "HDMI-1")
    #expect(LidPolicy.main(topology: laptop, config: Config())?.name == "eDP-1", "no main: the panel")
  }

  @Test func withMainOffMainIsTheRandRPrimaryThenTheProfilesFirstEnabledEntry() throws {
    var t = F.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "HDMI-1")
    t.crtcs[0].mode = nil
    t.outputs[0].crtc = nil
    #expect(LidPolicy.main(topology: t, config: Config())?.name == "HDMI-1", "the panel is off: the RandR primary")
    t.crtcs[2].mode = nil
    t.outputs[2].crtc = nil
    let profile = try F.profile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, enabled: false}, {match: {output: 'HDMI-1'}}, {match: {}}]}")
    let assignment = try ProfileMatcher.match(profile, topology: t, lid: .open).get()
    #expect(
      LidPolicy.main(topology: t, config: Config(), profile: profile, assignment: assignment)?.name == "DP-1",
      "the primary is off too: the first enabled entry that is lit")
  }
}
