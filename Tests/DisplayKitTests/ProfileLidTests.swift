import DisplayKit
import DisplayModel
import DisplayX11
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

  @Test func closingAndOpeningTheLidKeepTheScaleOfTheOutputsTheyMove() throws {
    var scaled = laptop
    let half = CrtcTransform(matrix: [0.5, 0, 0, 0, 0.5, 0, 0, 0, 1])
    (scaled.crtcs[1].width, scaled.crtcs[1].height, scaled.crtcs[1].transform) = (960, 540, half)
    let closing = LidPolicy.plan(topology: scaled, config: disable, lid: .closed)
    #expect(closing.changes.first { $0.crtc == scaled.crtcs[1].id }?.transform == half, "HDMI-1 moved to 0,0")
    let closed = scaled.applying(closing)
    #expect(rects(closed) == ["eDP-1": "off", "HDMI-1": "960x540+0+0"])
    let opening = LidPolicy.plan(topology: closed, config: disable, lid: .open, previous: scaled.crtcs[0].rect)
    #expect(opening.changes.first { $0.crtc == scaled.crtcs[1].id }?.transform == half, "HDMI-1 moved right")
    #expect(rects(closed.applying(opening)) == rects(scaled))
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

  @Test func theLidIsReadOnlyWhenTheConfigUsesItAndCountsAsOpenOtherwise() throws {
    var reads = 0
    func closed() -> LidState {
      reads += 1
      return .closed
    }
    let profiles = try Config.parse(Array("{profiles: [{name: 'p', outputs: []}]}".utf8), file: "t")
    #expect(profiles.lid(reading: closed) == .open && reads == 0, "profiles without a lid condition")
    #expect(Config().lid(reading: closed) == .open && reads == 0)
    let condition = try Config.parse(Array("{profiles: [{name: 'p', lid: 'open', outputs: []}]}".utf8), file: "t")
    #expect(condition.lid(reading: closed) == .closed && reads == 1)
    #expect(disable.lid(reading: closed) == .closed && reads == 2)
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

/// `check-config`'s account: the profile chosen now, why others are not, what outputs get.
@Suite struct ProfileExplainTests {
  typealias F = ProfileFixtures

  @Test func itNamesTheChosenProfileWhyOthersAreNotAndWhatEachOutputGets() throws {
    var t = F.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "eDP-1")
    for i in t.crtcs.indices { t.crtcs[i].rotations = [.normal, .left] }
    let config = try Config.parse(
      Array(
        """
        { profiles: [
          { name: 'sofa', outputs: [{ match: { output: 'eDP-1' } }] },
          { name: 'desk', dpi: 96, outputs: [{ match: { output: 'eDP-1' }, enabled: false },
            { match: { output: 'DP-1' }, primary: true, rotate: 'left' },
            { match: { output: 'HDMI-1' }, scale: 1.5, content: 'placeholder' }] },
          { name: 'any3', outputs: [{ match: {} }, { match: {} }, { match: {} }] } ] }
        """.utf8), file: "c")
    let lines = ProfileExplain.lines(config: config, topology: t, lid: .open)
    #expect(
      lines.prefix(4) == [
        "lid: open", "profile 'sofa': does not match: DP-1, HDMI-1 are left over", "profile 'desk': would be chosen",
        "profile 'any3': matches, but 'desk' comes first",
      ])
    #expect(lines[4] == "  eDP-1: off")
    #expect(lines[5] == "  DP-1: 1920x1080@60.00 at 0,0, rotate left, primary, content none")
    #expect(lines[6] == "  HDMI-1: 1920x1080@60.00 at 1080,0, showing 2880x1620, content placeholder")
    #expect(lines[7] == "  screen: 3960x1920, 1048x508 mm")
    #expect(lines.count == 8)
  }

  @Test func withoutAMatchingProfileItShowsTheRules() throws {
    let t = F.desk(["eDP-1", "HDMI-1"])
    let config = try Config.parse(
      Array(
        "{ defaults: { lid_closed: 'disable' }, monitors: [{ match: { output: 'HDMI-*' }, ignore: true }] }".utf8),
      file: "c")
    #expect(
      ProfileExplain.lines(config: config, topology: t, lid: .closed) == [
        "lid: closed", "no profile matches: the monitors rules and defaults apply",
        "  eDP-1: mode preferred, position right-of main, content placeholder", "  HDMI-1: ignored",
        "  lid_closed disable: eDP-1 goes off while the lid is closed and another output is lit",
      ])
  }

  @Test func aProfileAlreadyInForceSaysSo() throws {
    let t = F.desk(["eDP-1"])
    let config = try Config.parse(Array("{ profiles: [{ name: 'p', outputs: [{ match: {} }] }] }".utf8), file: "c")
    #expect(
      ProfileExplain.lines(config: config, topology: t, lid: .open).last == "  already in force: nothing to change")
  }
}

/// A profile matched with the lid closed and `lid_closed: "disable"`.
@Suite struct ProfileLidClosedTests {
  typealias F = ProfileFixtures
  let entries = "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}}]}"

  @Test func aPanelEntryWithoutEnabledGoesOffWhileTheLidIsClosed() throws {
    let t = F.desk(["eDP-1", "HDMI-1"])
    let off = try planProfile(entries, on: t, config: "defaults: {lid_closed: 'disable'},", lid: .closed)
    #expect(t.after(off).geometry(of: t.outputs[0]) == nil)
    #expect(changesNothing(try planProfile(entries, on: t, config: "", lid: .closed)), "ignore: left as it is")
    #expect(changesNothing(try planProfile(entries, on: t, config: "defaults: {lid_closed: 'disable'},", lid: .open)))
    let forced = "{name: 'p', outputs: [{match: {output: 'eDP-1'}, enabled: true}, {match: {}}]}"
    #expect(changesNothing(try planProfile(forced, on: t, config: "defaults: {lid_closed: 'disable'},", lid: .closed)))
  }

  @Test func theOnlyLitPanelStaysOnWithTheLidClosed() throws {
    let t = F.desk(["eDP-1", "HDMI-1"])
    let alone = "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}, enabled: false}]}"
    let plan = try planProfile(alone, on: t, config: "defaults: {lid_closed: 'disable'},", lid: .closed)
    #expect(t.after(plan).geometry(of: t.outputs[0]) != nil, "never a dark desk")
  }
}

@Suite struct PlanEmptinessTests {
  @Test func aPlanThatOnlySetsThePrimaryOrThePhysicalSizeIsNotEmpty() {
    var plan = Plan()
    #expect(plan.isEmpty)
    plan.primary = OutputID(rawValue: 1)
    #expect(!plan.isEmpty)
    plan.primary = nil
    plan.screenMillimetres = (100, 100)
    #expect(!plan.isEmpty)
  }
}
