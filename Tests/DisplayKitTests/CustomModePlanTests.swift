import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayRender
import DisplaySupport
import Testing

@testable import DisplayX11

/// How the planners ask for a mode displayd makes, find one made before, leave one no longer
/// asked for, and how `profile save` writes one down. Pure.
@Suite struct CustomModePlanTests {
  typealias B = TopologyBuilder

  func config(_ text: String) throws -> Config { try Config.parse(Array(text.utf8), file: "test.json5") }

  /// eDP-1 and HDMI-1 lit at 1920x1080 and 1280x1024, neither listing 1600x700.
  func desk() -> Topology { B.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": B.m1080, "HDMI-1": B.m1024]) }

  static let rule = "{ monitors: [ { match: { output: 'HDMI-1' }, mode: '1600x700@60', custom: true } ] }"

  /// The mode displayd made before, as the server would list it.
  func made(_ t: inout Topology, current: Bool) throws -> Mode {
    var mode = try #require(CustomModes.wanted(.sizeRate(width: 1600, height: 700, refresh: 60), .cvt(reduced: false)))
    mode.id = ModeID(rawValue: 77)
    t.modes[mode.id] = mode
    t.outputs[1].modes.append(mode.id)
    if current {
      (t.crtcs[1].mode, t.crtcs[1].width, t.crtcs[1].height) = (mode.id, 1600, 700)
      t.screen.width = 1920 + 1600
    }
    return mode
  }

  /// The head planner's plan over the heads the RandR backend reads of `t`.
  func plan(_ t: Topology, _ config: Config) throws -> RulePlan {
    RulePlanner(snapshot: try t.randrHeads(), config: config).plan()
  }

  @Test func aModeTheOutputLacksIsAskedForWithCvtTimings() throws {
    let plan = try plan(desk(), try config(Self.rule))
    let head = try #require(plan.configuration.heads.first { $0.name == "HDMI-1" })
    guard case .custom(let line) = head.mode else {
      Issue.record("not a mode to make: \(String(describing: head.mode))")
      return
    }
    #expect(line.name == "1600x700_60.00" && line.dotClock == 90_500_000 && line.hTotal == 2080, "\(line)")
    #expect(line.hSyncStart == 1680 && line.vSyncEnd == 713 && line.flags == [.hSyncNegative, .vSyncPositive])
    #expect(head.fallbackModes.allSatisfy { if case .custom = $0 { false } else { true } }, "\(head.fallbackModes)")
    #expect(!plan.warnings.map(\.description).contains { $0.contains("HDMI-1") }, "\(plan.warnings)")
  }

  @Test func aModeMadeBeforeIsUsedAgainAndInForceChangesNothing() throws {
    var t = desk()
    _ = try made(&t, current: false)
    let plan = try plan(t, try config(Self.rule))
    let head = try #require(plan.configuration.heads.first { $0.name == "HDMI-1" })
    #expect(head.mode == .listed(width: 1600, height: 700, refreshMilliHz: 59848), "\(String(describing: head.mode))")
    _ = try made(&t, current: true)
    let again = try self.plan(t, try config(Self.rule))
    #expect(again.isEmpty, "\(again.configuration)")
  }

  /// Without `custom`, a mode displayd made is not a candidate: it stops being shown, and
  /// then it is released.
  @Test func aMadeModeNoLongerAskedForIsLeftAndReleased() throws {
    var t = desk()
    let mode = try made(&t, current: true)
    let plain = try config("{ monitors: [ { match: { output: 'HDMI-1' }, mode: '1600x700@60' } ] }")
    let head = try #require(try plan(t, plain).configuration.heads.first { $0.name == "HDMI-1" })
    let asked = [head.mode].compactMap { $0 } + head.fallbackModes
    #expect(!asked.contains(.listed(width: 1600, height: 700, refreshMilliHz: 59848)), "\(asked)")
    #expect(!asked.contains { if case .custom = $0 { true } else { false } }, "\(asked)")
    #expect(CustomModes.unused(in: t).isEmpty, "shown: kept")
    t.crtcs[1].mode = B.m1024.id
    #expect(CustomModes.unused(in: t) == [ModeRelease(mode: mode.id, name: mode.name, outputs: [t.outputs[1].id])])
  }

  /// The head planner knows no maximum screen; the RandR backend does: asked for a mode to
  /// make that no screen of the server can hold, it makes none and says why.
  @Test func aModeLargerThanTheServersScreenIsRefusedNotMade() throws {
    var t = desk()
    (t.screen.maxWidth, t.screen.maxHeight) = (1600, 600)
    let plan = try plan(t, try config(Self.rule))
    let server = FakeRandRServer(t)
    let result = try RandROutputManager(server: server).test(plan.configuration)
    guard case .refused(let refusal) = result else {
      Issue.record("accepted: \(result)")
      return
    }
    let why = "HDMI-1: custom mode displayd-1600x700_60.00 (1600x700) is larger than the server's maximum screen "
    #expect("\(refusal)".contains(why + "1600x600; not created"), "\(refusal)")
    #expect(server.sent.isEmpty && !server.topology.modes.values.contains { $0.name.hasPrefix("displayd-") })
  }

  @Test func profileEntriesAskForMadeModesToo() throws {
    let plan = try planProfile(
      "{ name: 'p', outputs: [{ match: { output: 'eDP-1' } }, { match: { output: 'HDMI-1' }, mode: '1600x700', custom: true, reduced: true }] }",
      on: desk())
    let made = try #require(plan.customModes.values.first)
    #expect(made.name == "displayd-1600x700R_60.00" && made.hTotal == 1760 && made.dotClock == 76_000_000)
    #expect(plan.changes.contains { $0.mode == made.id })
  }

  @Test func profileSaveWritesCustomTrueForAModeDisplaydMade() throws {
    var t = desk()
    _ = try made(&t, current: true)
    let text = ProfileSave.text(name: "desk", snapshot: try t.randrHeads())
    #expect(text.contains(#"mode: "1600x700@60", custom: true"#), "\(text)")
    let replanned = try planProfile(text.replacingOccurrences(of: "\n", with: " "), on: t)
    #expect(changesNothing(replanned), "\(replanned.changes)")
    try expectHeadsSaveAlike(t)
  }

  @Test func profileSaveWritesTheModelineOfAModeMadeFromOne() throws {
    var t = desk()
    var mode = try #require(try? ModeLine.parse("63.50 1024 1072 1176 1328 768 771 775 798 -hsync +vsync").get())
      .mode(id: ModeID(rawValue: 78), name: "displayd-proj")
    mode.id = ModeID(rawValue: 78)
    t.modes[mode.id] = mode
    t.outputs[1].modes.append(mode.id)
    (t.crtcs[1].mode, t.crtcs[1].width, t.crtcs[1].height) = (mode.id, 1024, 768)
    t.screen.width = 1920 + 1024
    let text = ProfileSave.text(name: "desk", snapshot: try t.randrHeads())
    #expect(text.contains(#"modeline: "\"proj\" 63.50 1024 1072 1176 1328 768 771 775 798 -hsync +vsync""#), "\(text)")
    #expect(changesNothing(try planProfile(text.replacingOccurrences(of: "\n", with: " "), on: t)))
    try expectHeadsSaveAlike(t)
  }

  /// The heads the RandR backend reports carry their modes' timings: the saved text planned
  /// again over them makes nothing.
  func expectHeadsSaveAlike(_ t: Topology) throws {
    let heads = try t.randrHeads()
    let text = ProfileSave.text(name: "desk", snapshot: heads)
    #expect(try changesNothingOverHeads(text, on: heads), "\(text)")
  }
}

extension CustomModePlanTests {
  /// `check-config` names the mode the daemon would make.
  @Test func checkConfigShowsTheModeToBeMade() throws {
    let text = CheckReport.text(config: try config(Self.rule), snapshot: try desk().randrHeads(), lid: .open)
    #expect(text.contains("HDMI-1: mode displayd-1600x700_60.00@59.85 (1600x700@60.0)"), "\(text)")
  }
}

/// The daemon's part, against the fake server: it asks for the mode, keeps it while a CRTC
/// shows it, and releases it once none does (a reload, an unplug).
@Suite struct CustomModeDaemonTests {
  let quiet = Logger(level: .error) { _ in }

  func made(_ server: FakeDisplayServer) -> [String] {
    server.topology.modes.values.map(\.name).filter { $0.hasPrefix("displayd-") }
  }

  @Test func theDaemonReleasesAMadeModeOnReloadAndOnUnplug() throws {
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let custom = try Config.parse(Array(CustomModePlanTests.rule.utf8), file: "test.json5")
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: custom, log: quiet)
    try daemon.start()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(made(server) == ["displayd-1600x700_60.00"])
    #expect(server.topology.currentMode(of: server.topology.outputs[1])?.name == "displayd-1600x700_60.00")
    let applies = server.applies
    server.pendingRandR += 2
    try daemon.handleServerEvents()
    #expect(server.applies == applies && made(server).count == 1, "in force: kept, nothing sent")

    try daemon.reload(Config())
    #expect(made(server).isEmpty, "no longer asked for")
    try daemon.reload(custom)
    #expect(made(server).count == 1)
    server.change {
      $0.outputs[1].connection = .disconnected
      $0.crtcs[1].mode = nil
      $0.crtcs[1].outputs = []
      $0.outputs[1].crtc = nil
    }
    try daemon.handleServerEvents()
    #expect(made(server).isEmpty, "unplugged")
  }
}
