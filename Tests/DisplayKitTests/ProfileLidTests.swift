import DisplayKit
import DisplayModel
import DisplayX11
import Testing

/// `defaults.lid_closed` without profiles, and which head is main when heads may be off.
@Suite struct ProfileLidTests {
  typealias F = ProfileFixtures
  typealias D = HeadProfileDesk
  let disable = try! Config.parse(Array("{defaults: {lid_closed: 'disable'}}".utf8), file: "t")
  /// eDP-1 (primary) at 0,0 and HDMI-1 right of it.
  let laptop = HeadSnapshot(topology: F.desk(["eDP-1", "HDMI-1"], primary: "eDP-1"))

  /// The desk with the named heads dark.
  func dark(_ t: Topology, _ names: Set<String>) -> HeadSnapshot {
    var t = t
    for i in t.outputs.indices where names.contains(t.outputs[i].name) {
      if let c = t.crtcs.firstIndex(where: { $0.id == t.outputs[i].crtc }) { t.crtcs[c].mode = nil }
      t.outputs[i].crtc = nil
    }
    return HeadSnapshot(topology: t)
  }

  func lid(_ desk: HeadSnapshot, _ config: Config, _ lid: LidState, previous: Rect? = nil) -> OutputConfiguration {
    LidPolicy.plan(snapshot: desk, config: config, lid: lid, previous: previous).configuration
  }

  @Test func closingTheLidWithAnotherHeadLitTurnsThePanelOff() throws {
    let plan = lid(laptop, disable, .closed)
    #expect(plan.heads.first { $0.name == "eDP-1" }?.enabled == false)
    let after = try D.applying(plan, on: laptop)
    #expect(D.rects(after) == ["eDP-1": "off", "HDMI-1": "1920x1080+0+0"], "the rest starts at 0,0")
    #expect(D.screen(after) == "1920x1080")
    #expect(plan.primary == "HDMI-1", "main takes over as primary")
    #expect(lid(after, disable, .closed).heads.isEmpty, "once is enough")
  }

  @Test func closingAndOpeningTheLidKeepTheScaleOfTheHeadsTheyMove() throws {
    var t = F.desk(["eDP-1", "HDMI-1"], primary: "eDP-1")
    let half = CrtcTransform(matrix: [0.5, 0, 0, 0, 0.5, 0, 0, 0, 1])
    (t.crtcs[1].width, t.crtcs[1].height, t.crtcs[1].transform) = (960, 540, half)
    let scaled = HeadSnapshot(topology: t)
    let closing = lid(scaled, disable, .closed)
    #expect(closing.heads.first { $0.name == "HDMI-1" }?.scale == 0.5, "HDMI-1 moved to 0,0")
    let closed = try D.applying(closing, on: scaled)
    #expect(D.rects(closed) == ["eDP-1": "off", "HDMI-1": "960x540+0+0"])
    let opening = lid(closed, disable, .open, previous: t.crtcs[0].rect)
    #expect(opening.heads.first { $0.name == "HDMI-1" }?.scale == 0.5, "HDMI-1 moved right")
    #expect(D.rects(try D.applying(opening, on: closed)) == D.rects(scaled))
  }

  @Test func closingTheLidWithNoOtherHeadLitChangesNothing() {
    let alone = HeadSnapshot(topology: F.desk(["eDP-1"]))
    #expect(lid(alone, disable, .closed).heads.isEmpty && lid(alone, disable, .closed).primary == nil)
    let hdmiDark = dark(F.desk(["eDP-1", "HDMI-1"], primary: "eDP-1"), ["HDMI-1"])
    #expect(lid(hdmiDark, disable, .closed).heads.isEmpty, "HDMI-1 is connected but off")
  }

  @Test func withoutLidClosedDisableTheLidChangesNothing() {
    #expect(lid(laptop, Config(), .closed).heads.isEmpty)
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
    let closed = try D.applying(lid(laptop, disable, .closed), on: laptop)
    let plan = lid(closed, disable, .open, previous: Rect(x: 0, y: 0, width: 1920, height: 1080))
    let after = try D.applying(plan, on: closed)
    #expect(D.rects(after) == D.rects(laptop), "its old place is taken: left of everything, which is where it was")
    #expect(D.screen(after) == "3840x1080" && plan.heads.count == 2)
    #expect(lid(after, disable, .open).heads.isEmpty)
  }

  @Test func aPanelReturningToAFreePlaceMovesNothingElse() throws {
    let t = dark(F.desk(["eDP-1", "HDMI-1"], primary: "eDP-1"), ["eDP-1"])
    let plan = lid(t, disable, .open, previous: Rect(x: 0, y: 1080, width: 1920, height: 1080))
    #expect(plan.heads.map(\.name) == ["eDP-1"])
    #expect(plan.heads.first?.mode == .listed(width: 1920, height: 1080, refreshMilliHz: 60000), "its preferred mode")
    let after = try D.applying(plan, on: t)
    #expect(D.rects(after)["eDP-1"] == "1920x1080+0+1080" && D.screen(after) == "3840x2160")
  }

  @Test func theConfigsPanelKeyNamesAPanelTheConnectorDoesNot() throws {
    let dummy = HeadSnapshot(topology: F.desk(["DUMMY0", "DUMMY1"]))
    let named = try Config.parse(Array("{panel: 'DUMMY0', defaults: {lid_closed: 'disable'}}".utf8), file: "t")
    #expect(LidPolicy.panel(in: dummy, config: named)?.name == "DUMMY0")
    #expect(LidPolicy.panel(in: dummy, config: disable) == nil)
    #expect(D.rects(try D.applying(lid(dummy, named, .closed), on: dummy))["DUMMY0"] == "off")
  }

  @Test func mainIsTheNamedHeadWhileItIsLit() throws {
    let c = try Config.parse(Array("{main: 'HDMI-1'}".utf8), file: "t")
    #expect(LidPolicy.main(snapshot: laptop, config: c)?.name == "HDMI-1")
    #expect(LidPolicy.main(snapshot: laptop, config: Config())?.name == "eDP-1", "no main: the panel")
  }

  @Test func withMainOffMainIsThePrimaryThenTheProfilesFirstEnabledEntry() throws {
    let desk = F.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "HDMI-1")
    let panelOff = dark(desk, ["eDP-1"])
    #expect(LidPolicy.main(snapshot: panelOff, config: Config())?.name == "HDMI-1", "the panel is off: the primary")
    let t = dark(desk, ["eDP-1", "HDMI-1"])
    let profile = try F.profile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}, enabled: false}, {match: {output: 'HDMI-1'}}, {match: {}}]}")
    let assignment = try ProfileMatcher.match(profile, snapshot: t, lid: .open).get()
    #expect(
      LidPolicy.main(snapshot: t, config: Config(), profile: profile, assignment: assignment)?.name == "DP-1",
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
    let lines = ProfileExplain.lines(config: config, snapshot: HeadSnapshot(topology: t), lid: .open)
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
      ProfileExplain.lines(config: config, snapshot: HeadSnapshot(topology: t), lid: .closed) == [
        "lid: closed", "no profile matches: the monitors rules and defaults apply",
        "  eDP-1: mode preferred, position right-of main, content placeholder", "  HDMI-1: ignored",
        "  lid_closed disable: eDP-1 goes off while the lid is closed and another output is lit",
      ])
  }

  @Test func aProfileAlreadyInForceSaysSo() throws {
    let t = F.desk(["eDP-1"])
    let config = try Config.parse(Array("{ profiles: [{ name: 'p', outputs: [{ match: {} }] }] }".utf8), file: "c")
    #expect(
      ProfileExplain.lines(config: config, snapshot: HeadSnapshot(topology: t), lid: .open).last
        == "  already in force: nothing to change")
  }
}

/// A profile matched with the lid closed and `lid_closed: "disable"`.
@Suite struct ProfileLidClosedTests {
  typealias F = ProfileFixtures
  typealias D = HeadProfileDesk
  let entries = "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}}]}"
  let t = HeadSnapshot(topology: F.desk(["eDP-1", "HDMI-1"]))

  @Test func aPanelEntryWithoutEnabledGoesOffWhileTheLidIsClosed() throws {
    let disable = "defaults: {lid_closed: 'disable'},"
    let off = try D.plan(entries, on: t, config: disable, lid: .closed)
    #expect(D.rects(try D.applying(off, on: t))["eDP-1"] == "off")
    #expect(D.changesNothing(try D.plan(entries, on: t, config: "", lid: .closed)), "ignore: left as it is")
    #expect(D.changesNothing(try D.plan(entries, on: t, config: disable, lid: .open)))
    let forced = "{name: 'p', outputs: [{match: {output: 'eDP-1'}, enabled: true}, {match: {}}]}"
    #expect(D.changesNothing(try D.plan(forced, on: t, config: disable, lid: .closed)))
  }

  @Test func theOnlyLitPanelStaysOnWithTheLidClosed() throws {
    let alone = "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {}, enabled: false}]}"
    let plan = try D.plan(alone, on: t, config: "defaults: {lid_closed: 'disable'},", lid: .closed)
    #expect(D.rects(try D.applying(plan, on: t))["eDP-1"] == "1920x1080+0+0", "never a dark desk")
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
