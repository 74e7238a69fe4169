import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

/// What the simulation found, each pinned by a focused test against the fake (the seed that
/// found it in the comment).
@Suite struct SimulationFindings {
  let quiet = Logger(level: .error) { _ in }

  /// eDP-1 lit as main, HDMI-1 and DP-1 plugged and covered by surfaces.
  func desk() throws -> (FakeDisplayServer, FakeSurfaceHost, Daemon) {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let surfaces = FakeSurfaceHost()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(), log: quiet)
    try daemon.start()
    server.change {
      $0.outputs[1].connection = .connected
      $0.outputs[2].connection = .connected
    }
    try daemon.handleServerEvents()
    return (server, surfaces, daemon)
  }

  /// Seed 1592590338: a switch the server refused synced the surfaces to the refused layout
  /// (external-only: its entries' surfaces differ), then put the choice before it back
  /// without syncing them again: lit monitors stayed uncovered.
  @Test func aSwitchTheServerRefusesLeavesTheWindowsOfTheLayoutStillInForce() throws {
    let (server, surfaces, daemon) = try desk()
    let rects = surfaces.rects
    #expect(rects.count == 2)
    server.failRequest(1)
    #expect(throws: ProfileSwitchRefusal.notApplied(.layout(.externalOnly))) {
      try daemon.switchTo(.layout(.externalOnly)).get()
    }
    #expect(server.topology.crtcs[0].mode != nil, "rolled back: the panel still lit")
    #expect(Set(surfaces.rects) == Set(rects), "both monitors still covered, where they are")
    #expect(daemon.monitors.count == 2 && surfaces.misuses == 0)
  }

  /// Seed 1592590342: the lid closed, the panel off, the last external monitor unplugged:
  /// its CRTC went off and the panel stayed off, a dark desk (screen 320x200).
  @Test func theLastMonitorGoingWithTheLidClosedLightsThePanel() throws {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    var config = Config()
    config.disconnectGrace = 0
    config.lidClosed = .disable
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    try daemon.setLid(.closed)
    #expect(server.topology.crtcs[0].mode == nil && server.topology.crtcs[1].mode != nil, "the panel off")
    server.change { $0.outputs[1].connection = .disconnected }
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[1].mode == nil, "the gone monitor's CRTC off")
    #expect(server.topology.crtcs[0].mode == TopologyBuilder.m1080.id, "the panel lit again")
    #expect(server.topology.crtcs[0].x == 0 && server.topology.screen.width == 1920)
  }

  @Test func theLidPolicyLightsADarkPanelWhenNothingElseIsLitEvenWithTheLidClosed() throws {
    var t = TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: [:])
    t.outputs[0].connection = .connected
    var config = Config()
    config.lidClosed = .disable
    let plan = LidPolicy.plan(snapshot: HeadSnapshot(topology: t), config: config, lid: .closed).configuration
    #expect(
      plan.heads.map { "\($0.name) \($0.enabled) \(String(describing: $0.mode))" } == [
        "eDP-1 true Optional(DisplayModel.HeadModeRequest.listed(width: 1920, height: 1080, refreshMilliHz: 60000))"
      ])
    t.outputs[1].connection = .connected
    t.outputs[1].crtc = t.crtcs[1].id
    (t.crtcs[1].mode, t.crtcs[1].width, t.crtcs[1].height, t.crtcs[1].outputs) = (
      TopologyBuilder.m1080.id, 1920, 1080, [t.outputs[1].id]
    )
    #expect(
      LidPolicy.plan(snapshot: HeadSnapshot(topology: t), config: config, lid: .closed).configuration.heads.isEmpty,
      "another monitor lit: the panel stays off")
  }

  /// Seed 1592590354: a refused switch forgot which monitors were settled, so the next look
  /// at the desk planned them afresh and moved them (two monitors plugged in the order DP-1,
  /// HDMI-1 traded places).
  @Test func aSwitchTheServerRefusesLeavesTheMonitorsWhereTheyAre() throws {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: Config(), log: quiet)
    try daemon.start()
    for i in [2, 1] {
      server.change { $0.outputs[i].connection = .connected }
      try daemon.handleServerEvents()
    }
    let before = server.topology.crtcs
    #expect(before[2].x == 1920 && before[1].x == 3840, "right of main in the order they came")
    server.failRequest(1)
    #expect(throws: ProfileSwitchRefusal.notApplied(.layout(.extendAbove))) {
      try daemon.switchTo(.layout(.extendAbove)).get()
    }
    let applies = server.applies
    try daemon.reconcile(reason: "a look again")
    #expect(server.applies == applies && server.topology.crtcs == before, "nothing moved")
  }

  /// The lid closed, the panel off (`lid_closed: disable`), HDMI-1 lit and main.
  func closedLid() throws -> (FakeDisplayServer, Daemon, Config) {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    var config = Config()
    config.lidClosed = .disable
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    try daemon.setLid(.closed)
    #expect(server.topology.crtcs[0].mode == nil && server.topology.crtcs[1].mode != nil, "the panel off")
    return (server, daemon, config)
  }

  /// Seeds 1700000106, 1700000249, 1700000293: with the lid closed the rules planned the dark
  /// panel like any monitor not settled (after a reload, or a profile left): lit, then turned
  /// off again by the lid policy in the same reconcile. When lighting it failed, the next
  /// look retried it, and with the lid policy done on that desk the panel stayed lit.
  @Test func aReloadWithTheLidClosedLeavesThePanelDark() throws {
    let (server, daemon, config) = try closedLid()
    let applies = server.applies
    try daemon.reload(config)
    #expect(server.applies == applies, "nothing to change: the panel stays off, HDMI-1 where it is")
    #expect(server.topology.crtcs[0].mode == nil)
  }

  @Test func aPanelThatFailedToLightWithTheLidClosedIsNotLitByTheNextLook() throws {
    let (server, daemon, config) = try closedLid()
    server.failRequest(1)
    try daemon.reload(config)
    try daemon.reconcile(reason: "a look again")
    #expect(server.topology.crtcs[0].mode == nil, "the lid is closed: the panel stays off")
    #expect(server.topology.crtcs[1].x == 0, "HDMI-1 stays where it is")
  }

  /// Seed 1700002850: with the panel off, main is the first output lit; HDMI-1 lit (after a
  /// failed try) took that place, so DP-1 (another monitor), main until then and never planned, was placed
  /// afresh by the next look: moved, on a desk that had not changed.
  @Test func aMonitorThatStopsBeingMainStaysWhereItIs() throws {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    var config = Config()
    config.lidClosed = .disable
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    server.change { $0.outputs[2].connection = .connected }
    try daemon.handleServerEvents()
    try daemon.setLid(.closed)
    let dp = server.topology.crtcs.first { $0.outputs == [server.topology.outputs[2].id] }
    #expect(server.topology.crtcs[0].mode == nil && dp?.x == 0, "the panel off, DP-1 main at 0,0")
    // Another monitor on DP-1: main, so never planned (nor settled, as the lid policy's was).
    server.change { $0.outputs[2].edid = SimScenario.monitors[1] }
    try daemon.handleServerEvents()
    server.failRequest(1)
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    try daemon.reconcile(reason: "a look again: HDMI-1 tried again")
    #expect(server.topology.output(named: "HDMI-1").flatMap { server.topology.geometry(of: $0) } != nil)
    let (applies, crtcs) = (server.applies, server.topology.crtcs)
    try daemon.reconcile(reason: "a second look")
    #expect(server.applies == applies && server.topology.crtcs == crtcs, "DP-1 not moved")
  }

  /// Seed 1700001664: a panel lit by the rules (after a failed try) is the RandR primary, so
  /// main again; HDMI-1, main while the panel was off, was placed below it by the next look.
  @Test func aPanelLitAgainAsMainLeavesTheFormerMainWhereItIs() throws {
    let (server, daemon, _) = try closedLid()
    try daemon.reload(Config())
    #expect(server.topology.crtcs[0].mode != nil, "no lid policy: the rules light the panel")
    let (applies, crtcs) = (server.applies, server.topology.crtcs)
    try daemon.reconcile(reason: "a look again")
    #expect(server.applies == applies && server.topology.crtcs == crtcs, "HDMI-1 not moved")
  }

  /// Seeds 1700001632, 1592590547: the panel off (a profile's, the lid's), the last monitor
  /// unplugged; main is then the dark panel (no output lit), and main was never planned: the
  /// rules turned the gone monitor's CRTC off and lit nothing.
  @Test func theRulesLightADarkMainWhenNothingElseIsLit() throws {
    var t = TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["HDMI-1": TopologyBuilder.m1080])
    t.outputs[0].connection = .connected
    t.outputs[1].connection = .disconnected
    let plan = try planRules(t, Config())
    let panel = plan.changes.first { $0.outputs == [t.outputs[0].id] }
    #expect(panel?.mode == TopologyBuilder.m1080.id && panel?.x == 0 && panel?.y == 0, "the panel lit at 0,0")
    #expect(plan.changes.contains { $0.crtc == t.crtcs[1].id && $0.mode == nil }, "the gone monitor's CRTC off")
    #expect(plan.configures.contains("eDP-1"))
    // Seed 1592590996: settled when the lid policy turned it off, and that policy then done
    // with the desk (the lid opened, its apply refused): a dark main is lit all the same.
    let settled = try planRules(t, Config(), settled: ["eDP-1"])
    #expect(settled.changes.contains { $0.outputs == [t.outputs[0].id] && $0.mode == TopologyBuilder.m1080.id })
  }

  /// Seed 1592590971 (and 1592590349, 1592590406, 1592590497): the last monitor unplugged
  /// with the lid closed, the panel off, and the apply lighting the panel refused: rolled
  /// back, a dark desk, and the lid policy done with that desk. Whichever request fails, the
  /// panel is lit in the end.
  @Test(arguments: 1...4)
  func aDarkDeskIsTriedAgainAfterARefusedApply(failing n: Int) throws {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    var config = Config()
    (config.disconnectGrace, config.lidClosed) = (0, .disable)
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    try daemon.setLid(.closed)
    #expect(server.topology.crtcs[0].mode == nil, "the panel off")
    server.failRequest(n)
    server.change { $0.outputs[1].connection = .disconnected }
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[0].mode == TopologyBuilder.m1080.id, "the panel lit: never a dark desk")
  }

  /// Seeds 4200001072, 4200001673: a monitor plugged while its event was still queued, then
  /// the lid closed: the rules saw nothing to do, the lid policy's apply was answered stale
  /// and made again on the new snapshot, and the new monitor stayed dark until the next event.
  @Test func aMonitorSeenWhenTheLidPolicysPlanWentStaleIsLitInTheSameReconcile() throws {
    let world = SimWorld(connectors: SimScenario.connectors)
    var config = Config()
    (config.disconnectGrace, config.lidClosed) = (0, .disable)
    let daemon = try Daemon(
      server: world, surfaces: world, painter: CairoPicturePainter(), config: config, log: quiet, clock: ManualClock())
    try daemon.start()
    world.plug(1, monitor: 0)
    try daemon.handleServerEvents()
    world.plug(2, monitor: 1)
    try daemon.setLid(.closed)
    let t = world.topology
    #expect(t.geometry(of: t.outputs[0]) == nil, "the panel off")
    #expect(t.geometry(of: t.outputs[2]) != nil, "DP-1 lit, seen in the snapshot the stale answer brought")
  }

  /// Seed 1592591785: another monitor on HDMI-1 while it was main (the panel off, lid
  /// closed), in another mode than its rule's; main is never planned, so when the lid opened
  /// and the panel was main again it kept that mode, where a fresh daemon gives the rule's.
  @Test func aFormerMainGetsItsRulesModeOnceThePanelIsMainAgain() throws {
    let text =
      "{ disconnect_grace: 0, defaults: { lid_closed: 'disable' }, monitors: [ { match: { output: 'HDMI-1' }, mode: '1280x1024' } ] }"
    let config = try Config.parse(Array(text.utf8), file: "test.json5")
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    try daemon.setLid(.closed)
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1024.id, "HDMI-1 in its rule's mode, main")
    server.change {
      $0.outputs[1].edid = SimScenario.monitors[2]
      ($0.crtcs[1].mode, $0.crtcs[1].width, $0.crtcs[1].height) = (TopologyBuilder.m1080.id, 1920, 1080)
    }
    try daemon.handleServerEvents()
    try daemon.setLid(.open)
    #expect(server.topology.crtcs[0].mode != nil, "the panel lit again")
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1024.id, "HDMI-1 in its rule's mode")
    let applies = server.applies
    try daemon.reconcile(reason: "a look again")
    #expect(server.applies == applies)
  }
}
