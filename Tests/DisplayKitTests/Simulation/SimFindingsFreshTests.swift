import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

/// Histories the simulation found ending in another layout than a fresh daemon's on the same
/// monitors, lid and config, each pinned by a focused test against the fake (the seeds that
/// found it in the comment).
@Suite struct SimulationFreshFindings {
  let quiet = Logger(level: .error) { _ in }

  func config(_ text: String) throws -> Config {
    try Config.parse(Array(text.utf8), file: "test.json5")
  }

  /// eDP-1 lit as main, HDMI-1 plugged and lit by the rules, then the lid closed: the panel
  /// off, HDMI-1 main.
  func closedLid(_ config: Config) throws -> (FakeDisplayServer, Daemon) {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    server.change {
      $0.outputs[1].connection = .connected
      $0.outputs[1].edid = SimScenario.monitors[0]
    }
    try daemon.handleServerEvents()
    try daemon.setLid(.closed)
    #expect(server.topology.crtcs[0].mode == nil && server.topology.crtcs[1].mode == TopologyBuilder.m1080.id)
    return (server, daemon)
  }

  /// Seeds 1592591824, 1592592980, 1592592463: another monitor on main's connector (the
  /// panel off) inherits the CRTC its predecessor left lit; main is never planned, so it kept
  /// that mode for good where its own rule (and a fresh daemon) gives another.
  @Test func aMonitorSwappedOnMainGetsItsOwnRulesMode() throws {
    let (server, daemon) = try closedLid(
      try config(
        "{ defaults: { lid_closed: 'disable' }, monitors: [ { match: { product_name: 'BETA' }, mode: '1280x1024' } ] }"
      ))
    server.change { $0.outputs[1].edid = SimScenario.monitors[1] }
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1024.id, "BETA in its rule's mode")
    #expect(server.topology.crtcs[1].x == 0 && server.topology.crtcs[1].y == 0, "where main was")
    #expect(server.topology.crtcs[0].mode == nil, "the panel still off")
    let applies = server.applies
    try daemon.reconcile(reason: "a look again")
    #expect(server.applies == applies)
  }

  /// Seed 1592593525: a reload gives main (the panel off) another mode than the one the
  /// daemon gave it under the config before; main is never planned, so it kept the old one.
  @Test func aReloadGivesTheMainTheDaemonLitItsNewRulesMode() throws {
    let (server, daemon) = try closedLid(try config("{ defaults: { lid_closed: 'disable' } }"))
    try daemon.reload(
      try config(
        "{ defaults: { lid_closed: 'disable' }, monitors: [ { match: { output: 'HDMI-1' }, mode: '1280x1024' } ] }"))
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1024.id, "HDMI-1 in its new rule's mode")
    #expect(server.topology.crtcs[0].mode == nil, "the panel still off")
  }

  /// A main the daemon never lit (the panel at start-up) stays as it is, whatever its rule.
  @Test func theMainLitBeforeTheDaemonStaysInItsMode() throws {
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let rule = try config("{ monitors: [ { match: { output: 'eDP-1' }, mode: '1280x1024' } ] }")
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: rule, log: quiet)
    try daemon.start()
    try daemon.reload(rule)
    #expect(server.topology.crtcs[0].mode == TopologyBuilder.m1080.id)
  }

  /// Seed 1592591547: main (the panel off) whose rule says `enabled: false` stays lit (never
  /// a dark desk) and was settled there; once the panel was lit again and main, the rule was
  /// never applied: the monitor stayed lit where a fresh daemon has it off.
  @Test func aMainItsRuleTurnsOffGoesOffOnceAnotherIsMain() throws {
    let (server, daemon) = try closedLid(try config("{ defaults: { lid_closed: 'disable' } }"))
    try daemon.reload(
      try config(
        "{ defaults: { lid_closed: 'disable' }, monitors: [ { match: { output: 'HDMI-1' }, enabled: false } ] }"))
    #expect(server.topology.crtcs[1].mode != nil, "main: left on, never a dark desk")
    try daemon.setLid(.open)
    #expect(server.topology.crtcs[0].mode == TopologyBuilder.m1080.id, "the panel lit again")
    #expect(server.topology.crtcs[1].mode == nil, "HDMI-1 off, as its rule says")
  }

  /// Seeds 1592596285, 1592597783, 1592609012: main (the panel off), its rule `enabled:
  /// false` and its mode not the rule's, planned for its mode alone, was settled lit; once
  /// the panel was lit again and main, the rule never turned it off.
  @Test func aMainItsRuleTurnsOffIsNotPlannedForItsMode() throws {
    let (server, daemon) = try closedLid(try config("{ defaults: { lid_closed: 'disable' } }"))
    try daemon.reload(
      try config(
        "{ defaults: { lid_closed: 'disable' }, monitors: [ { match: { output: 'HDMI-1' }, mode: '1280x1024', enabled: false } ] }"
      ))
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1080.id, "main: left as it is")
    try daemon.setLid(.open)
    #expect(server.topology.crtcs[0].mode == TopologyBuilder.m1080.id, "the panel lit again")
    #expect(server.topology.crtcs[1].mode == nil, "HDMI-1 off, as its rule says")
  }

  /// Seeds 1592605116, 1592623916: with the lid closed the same monitor unplugged (the panel
  /// lit, alone) and plugged again makes the desk the lid policy was done with before: the
  /// panel must go off again all the same.
  @Test func theSameMonitorBackWithTheLidClosedTurnsThePanelOffAgain() throws {
    var config = Config()
    (config.lidClosed, config.disconnectGrace) = (.disable, 0)
    let (server, daemon) = try closedLid(config)
    server.change { $0.outputs[1].connection = .disconnected }
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[0].mode == TopologyBuilder.m1080.id, "the panel lit: never a dark desk")
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(server.topology.output(named: "HDMI-1").flatMap { server.topology.geometry(of: $0) } != nil)
    #expect(server.topology.crtcs[0].mode == nil, "the lid is closed: the panel off again")
  }

  /// Seeds 1592606274, 1592606375, 1592625688: with the lid closed, a manual `main-only`
  /// lit the panel; back to automatic choice, the layout before it came back but the panel
  /// stayed lit: the lid policy was done with that desk before the manual choice.
  @Test func backToAutomaticChoiceWithTheLidClosedTurnsThePanelOff() throws {
    var config = Config()
    config.lidClosed = .disable
    let (server, daemon) = try closedLid(config)
    _ = try daemon.switchTo(.layout(.mainOnly))
    #expect(server.topology.crtcs[0].mode == TopologyBuilder.m1080.id && server.topology.crtcs[1].mode == nil)
    #expect(try daemon.resumeAutomatic())
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1080.id, "HDMI-1 lit again")
    #expect(server.topology.crtcs[0].mode == nil, "the lid is closed: the panel off")
  }

  /// Seeds 1592591253, 1592593738: with the lid closed and only the panel lit, a monitor
  /// whose first apply failed left the lid policy with nothing to do, and that desk was
  /// counted done; the next look lit the monitor, and the panel stayed lit with the lid
  /// closed.
  @Test func aMonitorLitAfterAFailedTryWithTheLidClosedTurnsThePanelOff() throws {
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    var config = Config()
    config.lidClosed = .disable
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.setLid(.closed, reconcile: false)
    try daemon.start()
    #expect(server.topology.crtcs[0].mode != nil, "nothing else lit: the panel stays on")
    server.failRequest(1)
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[1].mode == nil, "HDMI-1's apply refused")
    try daemon.reconcile(reason: "a look again: HDMI-1 tried again")
    #expect(server.topology.crtcs[1].mode != nil, "HDMI-1 lit")
    #expect(server.topology.crtcs[0].mode == nil, "the lid is closed: the panel off")
  }
}
