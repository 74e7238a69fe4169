import DisplayCLI
import DisplayKit
import DisplayService
import DisplaySupport
import Foundation
import Testing
import XRig

@testable import DisplayModel
@testable import DisplayX11

/// The built-in layouts as profiles, planned and applied purely: what each output shows.
@Suite struct BuiltinLayoutTests {
  typealias B = TopologyBuilder
  static let m600 = Mode(
    id: ModeID(rawValue: 4), name: "800x600", width: 800, height: 600, dotClock: 40_000_000, hTotal: 1056, vTotal: 628)

  /// A laptop: eDP-1 (primary) 1920x1080 at 0,0, DP-1 and HDMI-1 1920x1080 to its right.
  let laptop = ProfileFixtures.desk(["eDP-1", "DP-1", "HDMI-1"], primary: "eDP-1")

  func config(_ text: String = "") throws -> Config { try Config.parse(Array("{\(text)}".utf8), file: "test.json5") }

  /// The layout planned as the daemon plans it on X (the product's profile planner on the
  /// desk's heads, then the X backend's plan over CRTCs) and applied: each connected output's
  /// rectangle ("off" when dark), the screen, the primary, the head plan, the plan over CRTCs
  /// and the desk after.
  func apply(
    _ layout: BuiltinLayout, _ t: Topology, _ c: Config, mainMode: HeadMode? = nil, noTransform: Set<CrtcID> = []
  ) throws -> (
    rects: [String: String], screen: String, primary: String?, plan: ProfilePlan, sent: Plan, after: Topology
  ) {
    let desk = XPlan.heads(t, noTransform: noTransform)
    let made = try BuiltinLayouts.profile(layout, snapshot: desk, config: c, mainMode: mainMode).get()
    let plan = try ProfilePlanner(snapshot: desk, config: c).plan(made.profile, assignment: made.assignment)
    let crtcs = try RandRConfigurationPlanner(t, refusing: noTransform).plan(plan.configuration).get()
    let after = t.after(crtcs.plan)
    let rects = Dictionary(
      uniqueKeysWithValues: after.connectedOutputs.map { ($0.name, after.geometry(of: $0)?.description ?? "off") })
    return (
      rects, "\(after.screen.width)x\(after.screen.height)", after.primary.flatMap { after.output($0)?.name }, plan,
      crtcs.plan, after
    )
  }

  /// The laptop with HDMI-1's rule asking for 1024x768.
  func ruled() throws -> Config { try config("monitors: [{ match: { output: 'HDMI-1' }, mode: '1024x768' }]") }

  @Test func extendRightPutsMainAtTheLeftThenTheOthersInConnectorOrderAtTheirRulesModes() throws {
    let r = try apply(.extendRight, laptop, try ruled())
    #expect(r.rects == ["eDP-1": "1920x1080+0+0", "DP-1": "1920x1080+1920+0", "HDMI-1": "1024x768+3840+0"])
    #expect(r.screen == "4864x1080" && r.primary == "eDP-1")
  }

  /// A layout moves monitors: a touch screen or a property given by a rule must go with its
  /// monitor, or the touch screen points at the area the monitor left.
  @Test func everyLayoutKeepsTheRulesTouchDevicesAndPropertiesOnTheirOutputs() throws {
    let c = try config(
      "monitors: [{ match: { output: 'eDP-1' }, touch: ['ELAN*'] },"
        + " { match: { output: 'HDMI-1' }, properties: { 'Broadcast RGB': 'Full' } }]")
    for layout in BuiltinLayout.allCases where layout != .externalOnly {
      let made = try BuiltinLayouts.profile(layout, snapshot: HeadSnapshot(topology: laptop), config: c).get()
      let panel = try #require(made.profile.outputs.first { $0.match.output == "eDP-1" })
      #expect(panel.extras.touch == ["ELAN*"], "\(layout)")
      if let hdmi = made.profile.outputs.first(where: { $0.match.output == "HDMI-1" && $0.enabled != false }) {
        #expect(hdmi.extras.properties["Broadcast RGB"] == .text("Full"), "\(layout)")
      }
    }
  }

  @Test func extendLeftGoesLeftFromMainTheFirstOtherNextToIt() throws {
    let r = try apply(.extendLeft, laptop, try ruled())
    #expect(r.rects == ["HDMI-1": "1024x768+0+0", "DP-1": "1920x1080+1024+0", "eDP-1": "1920x1080+2944+0"])
    #expect(r.screen == "4864x1080")
  }

  @Test func extendAboveStacksUpFromMainLeftEdgesAligned() throws {
    let r = try apply(.extendAbove, laptop, try ruled())
    #expect(r.rects == ["HDMI-1": "1024x768+0+0", "DP-1": "1920x1080+0+768", "eDP-1": "1920x1080+0+1848"])
    #expect(r.screen == "1920x2928")
  }

  /// eDP-1 lists 1920x1080, 1280x1024 and 1024x768; DP-1 only the last two.
  var mixed: Topology {
    var t = B.topology(["eDP-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m768], primary: "eDP-1")
    t.outputs[1].modes = [B.m1024.id, B.m768.id]
    return t
  }

  @Test func mirrorGivesEveryOutputTheLargestCommonModeAtTheOrigin() throws {
    let heads = HeadSnapshot(topology: mixed).heads.filter(\.connected)
    #expect(BuiltinLayouts.commonSize(heads).map { [$0.width, $0.height] } == [1280, 1024])
    let r = try apply(.mirror, mixed, try config())
    #expect(r.rects == ["eDP-1": "1280x1024+0+0", "DP-1": "1280x1024+0+0"])
    #expect(r.screen == "1280x1024")
    #expect(
      r.plan.configuration.heads.allSatisfy { $0.scale == 1 && $0.verticalScale == 1 }, "same size: nothing to scale")
  }

  /// DP-1 lists only 800x600: nothing in common with eDP-1.
  var uncommon: Topology {
    var t = B.topology(["eDP-1", "DP-1"], on: ["eDP-1": B.m1080, "DP-1": B.m768], primary: "eDP-1")
    t.modes[Self.m600.id] = Self.m600
    t.outputs[1].modes = [Self.m600.id]
    let crtc = t.crtcs[1]
    t.crtcs[1] = Crtc(
      id: crtc.id, x: 1920, y: 0, width: 800, height: 600, mode: Self.m600.id, outputs: crtc.outputs,
      possibleOutputs: crtc.possibleOutputs)
    return t
  }

  @Test func mirrorWithoutACommonModeScalesTheOthersToMainsAreaByATransform() throws {
    let r = try apply(.mirror, uncommon, try config())
    #expect(r.rects == ["eDP-1": "1920x1080+0+0", "DP-1": "1920x1080+0+0"], "2.4 x 1.8 fills main's area")
    let dp = try #require(r.plan.configuration.heads.first { $0.name == "DP-1" })
    #expect(dp.mode == .listed(width: 800, height: 600, refreshMilliHz: 60317))
    #expect((dp.scale, dp.verticalScale) == (2.4, 1.8))
  }

  @Test func mirrorWhereTheCrtcRefusesTransformsShowsMainsTopLeftUnscaledWithAWarning() throws {
    let dpCrtc = uncommon.crtcs[1].id
    let r = try apply(.mirror, uncommon, try config(), noTransform: [dpCrtc])
    #expect(r.rects == ["eDP-1": "1920x1080+0+0", "DP-1": "800x600+0+0"])
    #expect(
      r.plan.warnings.map(\.description) == [
        "DP-1: its CRTC does not take transforms; shown unscaled at the place of its target"
      ])
  }

  @Test func externalOnlyTurnsThePanelOffAndTheExternalsTakeTheOriginAndThePrimary() throws {
    let r = try apply(.externalOnly, laptop, try ruled())
    #expect(r.rects == ["eDP-1": "off", "DP-1": "1920x1080+0+0", "HDMI-1": "1024x768+1920+0"])
    #expect(r.screen == "2944x1080" && r.primary == "DP-1")
  }

  @Test func externalOnlyKnowsThePanelByTheConfigsPanelKey() throws {
    let t = ProfileFixtures.desk(["DUMMY0", "DUMMY1", "DUMMY2"], primary: "DUMMY0")
    let r = try apply(.externalOnly, t, try config("panel: 'DUMMY0',"))
    #expect(r.rects == ["DUMMY0": "off", "DUMMY1": "1920x1080+0+0", "DUMMY2": "1920x1080+1920+0"])
    #expect(r.primary == "DUMMY1")
  }

  @Test func externalOnlyIsRefusedWithoutAPanelOrWithoutAnExternal() throws {
    let desk = ProfileFixtures.desk(["DP-1", "HDMI-1"])
    #expect(throws: LayoutRefusal.noPanel) {
      try BuiltinLayouts.profile(.externalOnly, snapshot: HeadSnapshot(topology: desk), config: try config()).get()
    }
    let alone = ProfileFixtures.desk(["eDP-1"])
    #expect(throws: LayoutRefusal.noExternal(panel: "eDP-1")) {
      try BuiltinLayouts.profile(.externalOnly, snapshot: HeadSnapshot(topology: alone), config: try config()).get()
    }
    #expect(
      LayoutRefusal.noExternal(panel: "eDP-1").description == "no external monitor is connected (only the panel eDP-1)")
  }

  @Test func mainOnlyTurnsEveryOtherOutputOffAndShrinksTheScreen() throws {
    let r = try apply(.mainOnly, laptop, try config())
    #expect(r.rects == ["eDP-1": "1920x1080+0+0", "DP-1": "off", "HDMI-1": "off"])
    #expect(r.screen == "1920x1080")
    // `main` names an external: it alone stays lit, at the origin, and becomes primary.
    let named = try apply(.mainOnly, laptop, try config("main: 'HDMI-1',"))
    #expect(named.rects == ["eDP-1": "off", "DP-1": "off", "HDMI-1": "1920x1080+0+0"])
    #expect(named.primary == "HDMI-1")
  }

  @Test func mainOnlyAfterExternalOnlyLightsThePanelAgain() throws {
    let external = try apply(.externalOnly, laptop, try config()).after
    #expect(
      BuiltinLayouts.main(in: HeadSnapshot(topology: external), config: try config())?.name == "eDP-1",
      "connected, though dark")
    let r = try apply(.mainOnly, external, try config())
    #expect(r.rects == ["eDP-1": "1920x1080+0+0", "DP-1": "off", "HDMI-1": "off"])
    #expect(r.primary == "eDP-1")
  }

  @Test func mainIsTheConfigsMainThenThePanelThenThePrimaryThenTheFirst() throws {
    let c = try config()
    #expect(
      BuiltinLayouts.main(in: HeadSnapshot(topology: laptop), config: try config("main: 'DP-1',"))?.name == "DP-1")
    let panelNotPrimary = ProfileFixtures.desk(["DP-1", "eDP-1"], primary: "DP-1")
    #expect(BuiltinLayouts.main(in: HeadSnapshot(topology: panelNotPrimary), config: c)?.name == "eDP-1")
    #expect(
      BuiltinLayouts.main(
        in: HeadSnapshot(topology: ProfileFixtures.desk(["DP-1", "HDMI-1"], primary: "HDMI-1")), config: c)?.name
        == "HDMI-1")
    #expect(
      BuiltinLayouts.main(in: HeadSnapshot(topology: ProfileFixtures.desk(["DP-1", "HDMI-1"])), config: c)?.name
        == "DP-1")
    #expect(throws: LayoutRefusal.noMonitors) {
      try BuiltinLayouts.profile(.mainOnly, snapshot: HeadSnapshot(topology: B.topology(["DP-1"], on: [:])), config: c)
        .get()
    }
  }

  @Test func mainGetsTheModeItHadUnderAutomaticChoiceWhenGivenOne() throws {
    let mainMode = try #require(HeadSnapshot(topology: mixed).heads[0].modes.first { $0.width == 1280 })
    let r = try apply(.extendRight, mixed, try config(), mainMode: mainMode)
    #expect(r.rects == ["eDP-1": "1280x1024+0+0", "DP-1": "1280x1024+1280+0"], "DP-1 at its preferred mode")
  }

  @Test func aNonDesktopOutputIsLeftAlone() throws {
    var t = laptop
    t.outputs[2].nonDesktop = true
    let r = try apply(.mainOnly, t, try config())
    #expect(r.rects == ["eDP-1": "1920x1080+0+0", "DP-1": "off", "HDMI-1": "1920x1080+3840+0"])
  }

  /// Planned again, a layout in force asks the server for nothing it does not show already
  /// (a clone scaled differently each way is asked again over heads, which carry one scale,
  /// and is in force on its CRTC).
  @Test(arguments: BuiltinLayout.allCases)
  func aLayoutAlreadyInForceChangesNothingOnTheServer(_ layout: BuiltinLayout) throws {
    for t in [laptop, mixed, uncommon] {
      let after = try apply(layout, t, try ruled()).after
      let again = try apply(layout, after, try ruled()).sent
      let inForce = { (c: CrtcChange) -> Bool in
        guard let crtc = after.crtc(c.crtc) else { return false }
        return c.mode == crtc.mode && (c.x, c.y, c.rotation) == (crtc.x, crtc.y, crtc.rotation)
          && Set(c.outputs) == Set(crtc.outputs) && c.transform.matrix == crtc.transform.matrix
      }
      #expect(again.changes.allSatisfy(inForce), "\(layout): \(again.changes)")
      #expect(
        again.screen.map { $0 == (after.screen.width, after.screen.height) } ?? true && again.primary == nil,
        "\(layout)")
    }
  }

  @Test func theNamesAreTheCommandLinesWords() {
    #expect(BuiltinLayout.names == "extend-right, extend-left, extend-above, mirror, external-only, main-only")
  }
}

/// Putting back the layout of automatic choice after a built-in layout, purely.
@Suite struct LayoutRestoreTests {
  typealias B = TopologyBuilder
  let t = BuiltinLayoutTests()

  /// The restore planned over the desks' heads as the daemon plans it, and the desk after
  /// the X backend's plan for it.
  func restore(saved: Topology, now: Topology, keptOff: Set<String> = []) throws -> (plan: RulePlan, after: Topology) {
    let plan = LayoutRestore.plan(
      saved: XPlan.heads(saved), now: XPlan.heads(now), keptOff: keptOff, screen: (saved.screen, now.screen))
    return (plan, now.after(try RandRConfigurationPlanner(now).plan(plan.configuration).get().plan))
  }

  @Test func afterMirrorMainGetsItsModeAndEveryOutputItsPlaceBack() throws {
    let before = t.mixed
    let mirrored = try t.apply(.mirror, before, try t.config()).after
    #expect(mirrored.currentMode(of: mirrored.outputs[0])?.id == B.m1024.id, "mirror gave main the common mode")
    let restored = try restore(saved: before, now: mirrored).after
    #expect(Layout(restored) == Layout(before), "\(Layout(restored))")
    #expect(try restore(saved: before, now: restored).plan.configuration.heads.isEmpty, "restored: nothing more to do")
  }

  @Test func afterExternalOnlyThePanelAndThePrimaryComeBack() throws {
    let before = t.laptop
    let external = try t.apply(.externalOnly, before, try t.config()).after
    #expect(external.primary == external.output(named: "DP-1")?.id)
    let restored = try restore(saved: before, now: external).after
    #expect(Layout(restored) == Layout(before), "\(Layout(restored))")
    #expect(restored.primary == before.primary)
  }

  /// Closing the lid after external-only ends the choice by hand; lighting the panel again
  /// only for the lid policy to turn it off would resize the screen twice.
  @Test func aPanelKeptOffIsNotLitAgainByTheRestore() throws {
    let before = t.laptop
    let external = try t.apply(.externalOnly, before, try t.config()).after
    let restored = try restore(saved: before, now: external, keptOff: ["eDP-1"]).after
    let rect = { (t: Topology, name: String) in t.output(named: name).flatMap { t.geometry(of: $0) } }
    #expect(rect(restored, "eDP-1") == nil, "the panel stays off")
    #expect(rect(restored, "DP-1") == rect(before, "DP-1"), "\(Layout(restored))")
  }

  @Test func aMonitorPluggedSinceKeepsWhatItHasAndOneUnpluggedIsSkipped() throws {
    let before = B.topology(["eDP-1", "DP-1", "HDMI-1"], on: ["eDP-1": B.m1080, "DP-1": B.m1080], primary: "eDP-1")
    // extend-left, then HDMI-1 plugged (lit by the server at 3840,0) and DP-1 unplugged.
    var now = try t.apply(.extendLeft, before, try t.config()).after
    let hdmi = now.crtcs[2].id
    now.outputs[2].connection = .connected
    now.outputs[2].crtc = hdmi
    now.crtcs[2] = Crtc(
      id: hdmi, x: 3840, y: 0, width: 1024, height: 768, mode: B.m768.id, outputs: [now.outputs[2].id],
      possibleOutputs: [now.outputs[2].id])
    now.outputs[1].connection = .disconnected
    let (plan, restored) = try restore(saved: before, now: now)
    #expect(restored.geometry(of: restored.outputs[0])?.description == "1920x1080+0+0", "main back at the origin")
    #expect(restored.geometry(of: restored.outputs[2])?.description == "1024x768+3840+0", "the new one left alone")
    #expect(
      !plan.configuration.heads.contains { $0.name == "DP-1" && $0.enabled }, "the unplugged one is not lit again")
    #expect(plan.configures == ["eDP-1"])
  }

  @Test func aSwappedMonitorOnTheSameConnectorIsNotRestored() throws {
    let before = ProfileFixtures.desk(["eDP-1", "DP-1"], edid: ["DP-1": ProfileFixtures.asus], primary: "eDP-1")
    var now = try t.apply(.mainOnly, before, try t.config()).after
    now.outputs[1].edid = ProfileFixtures.acer
    let plan = try restore(saved: before, now: now).plan
    #expect(!plan.configuration.heads.contains { $0.name == "DP-1" }, "another monitor: its own rules")
  }
}

/// The control protocol's switch requests.
@Suite struct SwitchRequestTests {
  func item(_ line: String) -> ControlProtocol.Item { ControlProtocol.decode(Array(line.utf8)[...]) }

  @Test func eachWayOfAskingDecodes() {
    #expect(item(#"{"request":"profile-switch","name":"desk"}"#) == .profileSwitch(.profile("desk")))
    #expect(item(#"{"request":"profile-switch","layout":"mirror"}"#) == .profileSwitch(.layout("mirror")))
    #expect(item(#"{"request":"profile-switch","auto":true}"#) == .profileSwitch(.automatic))
    #expect(item(#"{"request":"profile-cycle"}"#) == .profileSwitch(.cycle))
    #expect(item(#"{"request":"profile-switch"}"#) == .profileSwitch(.profile(nil)))
    #expect(item(#"{"request":"profile-switch","auto":false}"#) == .profileSwitch(.profile(nil)))
    #expect(item(#"{"request":"profile-switch","name":"a","layout":"mirror"}"#) == .profileSwitch(.ambiguous))
    #expect(item(#"{"request":"profile-switch","auto":"yes"}"#) == .malformed)
  }
}

/// `profile switch --layout/--auto` and `profile cycle` on the command line, pure.
@Suite struct LayoutCommandLineTests {
  func action(_ words: [String]) throws -> ProfileAction {
    try ProfileCommandLine.action(try Arguments(words, spec: ProfileCommandLine.spec))
  }

  @Test func theLayoutAutoAndCycleActions() throws {
    #expect(try action(["switch", "--layout", "mirror"]) == .switchLayout(.mirror))
    #expect(try action(["switch", "--layout=external-only", "--display", ":2"]) == .switchLayout(.externalOnly))
    #expect(try action(["switch", "--auto"]) == .switchAutomatic)
    #expect(try action(["cycle"]) == .cycle)
  }

  @Test(arguments: [
    (["switch", "--layout", "sideways"], "unknown layout 'sideways' (layouts: extend-right, extend-left"),
    (["switch", "--layout", "mirror", "--auto"], "--layout and --auto exclude each other"),
    (["switch", "desk", "--auto"], "profile switch takes a NAME, --layout or --auto, not 'desk' as well"),
    (["list", "--auto"], "--layout and --auto go with profile switch"),
    (["cycle", "--layout", "mirror"], "--layout and --auto go with profile switch"),
    (["cycle", "x"], "unexpected argument 'x'"), (["switch", "--layout"], "option --layout needs a value"),
  ])
  func aWrongLineIsAUsageError(_ words: [String], _ message: String) throws {
    let error = #expect(throws: UsageError.self) { _ = try action(words) }
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    #expect(error?.usage == ProfileCommandLine.usage)
  }

  @Test func theAnswerIsOneLine() throws {
    func answer(_ changed: Bool, _ layout: String, _ profile: String = "null") throws -> String {
      let line = #"{"ok":true,"changed":\#(changed),"layout":\#(layout),"profile":{"name":\#(profile),"reason":"x"}}"#
      guard case .object(let members) = try JSON.parse(Array(line.utf8)) else { return "" }
      return ProfileReport.switchText(Dictionary(members, uniquingKeysWith: { a, _ in a }))
    }
    let mirror = #"{"by_hand":true,"profile":null,"builtin":"mirror"}"#
    let automatic = #"{"by_hand":false,"profile":null,"builtin":null}"#
    #expect(try answer(true, mirror) == "switched to layout 'mirror'")
    #expect(try answer(false, mirror) == "layout 'mirror' already in force")
    #expect(try answer(true, #"{"by_hand":true,"profile":"desk","builtin":null}"#) == "switched to profile 'desk'")
    #expect(try answer(true, automatic, #""desk""#) == "automatic choice resumed (profile 'desk')")
    #expect(try answer(false, automatic) == "the layout is chosen automatically already (no profile matches)")
  }

  /// Every layout name and the new words are in the help, both completions, the man page and
  /// the profiles page, where the built-in layouts are described.
  @Test func theDocumentsAndCompletionsNameEveryLayout() throws {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let files = ["completions/displayd.bash", "completions/_displayd", "docs/displayd.1", "docs/profiles.md"]
    for file in files {
      let text = try String(contentsOf: repo.appendingPathComponent(file), encoding: .utf8)
        .replacingOccurrences(of: "\\-", with: "-")
      for word in BuiltinLayout.allCases.map(\.rawValue) + ["cycle", "--layout", "--auto"] {
        #expect(text.contains(word), "\(file) lacks \(word)")
      }
    }
    for layout in BuiltinLayout.allCases { #expect(ProfileCommandLine.spec.help.contains(layout.rawValue)) }
  }

  @Test func theExecutableExits64OnAWrongLayoutAnd69WithoutADaemon() throws {
    let wrong = try displayd(["profile", "switch", "--layout", "sideways"])
    #expect(wrong.status == 64 && wrong.err.contains(ProfileCommandLine.usage), "\(wrong.err)")
    let runtime = try runtimeDirectory()
    for words in [
      ["profile", "cycle"], ["profile", "switch", "--auto"], ["profile", "switch", "--layout", "mirror"],
    ] {
      let alone = try runCommand(
        [displaydPath] + words + ["--display", ":999"],
        environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
      #expect(alone.status == 69 && alone.err.contains("no displayd runs on display ':999'"), "\(words): \(alone.err)")
    }
  }
}
