import DisplayKit
import DisplayModel
import DisplaySupport
import Testing

/// The daemon's logic against `FakeDisplayServer`: no X server, milliseconds a test. What
/// the real servers do is tested beside these, against Xvnc and Xorg.
@Suite struct DaemonAgainstAFakeServer {
  let quiet = Logger(level: .error) { _ in }

  /// eDP-1 lit as main; HDMI-1 and DP-1 dark and disconnected.
  func desk() -> FakeDisplayServer {
    FakeDisplayServer(TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
  }

  func plug(_ server: FakeDisplayServer, _ index: Int, edid: [UInt8]? = nil) {
    server.change {
      $0.outputs[index].connection = .connected
      $0.outputs[index].edid = edid
    }
  }

  func unplug(_ server: FakeDisplayServer, _ index: Int) {
    server.change {
      $0.outputs[index].connection = .disconnected
      $0.outputs[index].edid = nil
    }
  }

  /// Unplugs handled at once, as the tests of what an unplug does expect (no grace).
  var immediate: Config {
    var config = Config()
    config.disconnectGrace = 0
    return config
  }

  @Test func aPluggedMonitorGetsAWindowAtItsPlaceAndUnpluggingReleasesEverything() throws {
    let server = desk()
    let daemon = try Daemon(connection: server, config: immediate, log: quiet)
    try daemon.start()
    #expect(server.windows.isEmpty && server.held == 0)
    plug(server, 1)
    try daemon.handleServerEvents()
    #expect(Array(server.windows.values) == [Rect(x: 1920, y: 0, width: 1920, height: 1080)], "right of main")
    #expect(daemon.monitors.count == 1 && server.pixmaps.count == 1)
    unplug(server, 1)
    try daemon.handleServerEvents()
    #expect(server.held == 0 && server.badFrees == 0, "nothing left, nothing freed twice")
    #expect(server.topology.crtcs[1].mode == nil, "its CRTC turned off")
  }

  @Test func theDaemonsOwnChangesCauseNoFurtherChangeAndAUsersLaterChangeIsLeftAlone() throws {
    let server = desk()
    let daemon = try Daemon(connection: server, config: Config(), log: quiet)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    let applies = server.applies
    // The events of its own change come back: nothing to do.
    server.pendingRandR += 3
    try daemon.handleServerEvents()
    #expect(server.applies == applies)
    // The user moves the monitor with xrandr: the daemon leaves it there, and its window follows.
    server.change {
      $0.crtcs[1].x = 0
      $0.crtcs[1].y = 1080
    }
    try daemon.handleServerEvents()
    #expect(server.applies == applies, "no change of the user's layout")
    #expect(Array(server.windows.values) == [Rect(x: 0, y: 1080, width: 1920, height: 1080)])
  }

  @Test func aMonitorTheServerRefusesIsRetriedOnLaterChangesThenLeftUntilItChanges() throws {
    let server = desk()
    let daemon = try Daemon(connection: server, config: Config(), log: quiet)
    try daemon.start()
    server.refusing = [server.topology.outputs[1].id]
    plug(server, 1)
    try daemon.handleServerEvents()
    #expect(server.applies == 1 && server.windows.isEmpty, "refused: rolled back, no window")
    // Its own rollback's events change nothing: no retry on them.
    server.pendingRandR += 2
    try daemon.handleServerEvents()
    #expect(server.applies == 1)
    // Later changes of the desk (the main monitor's mode, back and forth) retry it.
    for mode in [TopologyBuilder.m1024, TopologyBuilder.m1080, TopologyBuilder.m1024, TopologyBuilder.m1080] {
      server.change {
        $0.crtcs[0].mode = mode.id
        $0.crtcs[0].width = mode.width
        $0.crtcs[0].height = mode.height
      }
      try daemon.handleServerEvents()
    }
    #expect(server.applies == 3, "three attempts in all, then left")
    server.refusing = []
    plug(server, 1, edid: try hostileEDID(name: "OTHER", serial: "2"))
    try daemon.handleServerEvents()
    #expect(server.windows.count == 1, "another monitor on the connector is tried again, and lit")
    #expect(server.badFrees == 0)
  }

  @Test func aWindowDestroyedFromOutsideComesBackWithNothingFreedTwice() throws {
    for content in ["placeholder", "mirror"] {
      let server = desk()
      var config = Config()
      config.defaults.content = ContentKind(rawValue: content) ?? .placeholder
      let daemon = try Daemon(connection: server, config: config, log: quiet)
      try daemon.start()
      plug(server, 1)
      try daemon.handleServerEvents()
      let held = server.held
      let old = try #require(server.windows.keys.first)
      // With a RandR event that changes nothing in the same batch.
      server.destroyFromOutside(old)
      server.pendingRandR += 1
      try daemon.handleServerEvents()
      #expect(server.windows.count == 1 && server.windows.keys.first != old, "\(content): a new window")
      #expect(server.held == held && server.badFrees == 0, "\(content): no leak, no double free")
    }
  }

  @Test func aMonitorSwappedOnTheSameConnectorGetsItsOwnRule() throws {
    let server = desk()
    var config = Config()
    var alpha = MonitorRule()
    alpha.match.productName = "ALPHA"
    alpha.mode = .size(width: 1024, height: 768)
    var beta = MonitorRule()
    beta.match.productName = "BETA"
    beta.mode = .size(width: 1280, height: 1024)
    config.monitors = [alpha, beta]
    let daemon = try Daemon(connection: server, config: config, log: quiet)
    try daemon.start()
    plug(server, 1, edid: try hostileEDID(name: "ALPHA", serial: "1"))
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m768.id)
    plug(server, 1, edid: try hostileEDID(name: "BETA", serial: "1"))
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1024.id)
    #expect(Array(server.windows.values) == [Rect(x: 1920, y: 0, width: 1280, height: 1024)])
    #expect(server.pixmaps.count == 1 && server.badFrees == 0, "one picture, the old one freed once")
  }

  @Test func aMirrorShowsThePlaceholderWhileItsSourceIsGoneAndMirrorsAgainAfter() throws {
    let server = desk()
    var config = immediate
    var rule = MonitorRule()
    rule.match.output = "HDMI-1"
    rule.content = .mirror
    var mirror = MirrorOptions()
    mirror.source = "DP-1"
    rule.mirror = mirror
    config.monitors = [rule]
    config.defaults.content = .none
    let daemon = try Daemon(connection: server, config: config, log: quiet)
    try daemon.start()
    plug(server, 1)
    plug(server, 2)
    try daemon.handleServerEvents()
    let hdmi = server.topology.outputs[1].id
    #expect(daemon.monitors[hdmi]?.content == .mirror && server.pictures.count == 2 && server.damages.count == 1)
    unplug(server, 2)
    try daemon.handleServerEvents()
    #expect(daemon.monitors[hdmi]?.content == .placeholder)
    #expect(server.pictures.isEmpty && server.damages.isEmpty, "the mirror's pictures and damage went with it")
    plug(server, 2)
    try daemon.handleServerEvents()
    #expect(daemon.monitors[hdmi]?.content == .mirror)
    #expect(server.pictures.count == 2 && server.damages.count == 1 && server.pixmaps.isEmpty, "no placeholder left")
    #expect(server.badFrees == 0)
  }

  @Test func mirrorFramesArePacedToTheMonitorsFrameIntervalByTheDaemonsClock() throws {
    let server = desk()
    let clock = ManualClock()
    var config = Config()
    config.defaults.content = .mirror
    let daemon = try Daemon(connection: server, config: config, log: quiet, clock: clock)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    let frame: UInt64 = 16_666_666  // 1920x1080 at 60 Hz
    var composites = server.composites
    #expect(composites == 1 && daemon.frameTimerDescriptor == nil, "the whole mirror, once")
    // Damage 1 ms after that composite waits for the frame: the timer is armed, nothing drawn.
    clock.advance(1_000_000)
    server.draw(Rect(x: 10, y: 10, width: 100, height: 100))
    try daemon.handleServerEvents()
    #expect(server.composites == composites && daemon.frameTimerDescriptor != nil)
    // More damage within the frame joins it.
    clock.advance(5_000_000)
    server.draw(Rect(x: 300, y: 10, width: 100, height: 100))
    try daemon.handleServerEvents()
    #expect(server.composites == composites)
    // The frame is due: one composite of both areas.
    clock.advance(frame - 6_000_000)
    daemon.frameTimerFired()
    #expect(server.composites == composites + 1 && daemon.frameTimerDescriptor == nil)
    composites = server.composites
    // Damage a whole frame after the last composite is drawn at once.
    clock.advance(frame)
    server.draw(Rect(x: 10, y: 10, width: 5, height: 5))
    try daemon.handleServerEvents()
    #expect(server.composites == composites + 1 && daemon.frameTimerDescriptor == nil)
    #expect(daemon.counters.composites == 3, "the set-up composite and two frames")
  }

  @Test func aModeClaimingGigahertzRefreshStillSpacesMirrorFramesAMillisecondApart() throws {
    var t = desk().topology
    var absurd = TopologyBuilder.m1080
    // 4e9 Hz: a 0 ns frame interval would composite on every damage event.
    (absurd.dotClock, absurd.hTotal, absurd.vTotal) = (4_000_000_000, 1, 1)
    t.modes[absurd.id] = absurd
    let server = FakeDisplayServer(t)
    let clock = ManualClock()
    var config = Config()
    config.defaults.content = .mirror
    let daemon = try Daemon(connection: server, config: config, log: quiet, clock: clock)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    let composites = server.composites
    clock.advance(500_000)
    server.draw(Rect(x: 10, y: 10, width: 100, height: 100))
    try daemon.handleServerEvents()
    #expect(server.composites == composites && daemon.frameTimerDescriptor != nil, "0.5 ms after a frame: waits")
    clock.advance(500_000)
    daemon.frameTimerFired()
    #expect(server.composites == composites + 1, "drawn 1 ms after the last frame")
  }

  @Test func anApplyFailingHalfWayRollsBackAndTheFailedMonitorIsRetriedOnTheNextChange() throws {
    let server = desk()
    var lines: [String] = []
    let daemon = try Daemon(connection: server, config: Config(), log: Logger(level: .info) { lines.append($0) })
    try daemon.start()
    // Both monitors at once: one plan of two CRTC sets; the second fails.
    plug(server, 1)
    plug(server, 2)
    server.failRequest(2)
    lines = []
    try daemon.handleServerEvents()
    let (before, after) = try #require(server.rolledBack.first)
    #expect(server.rolledBack.count == 1 && before == after, "nothing changed by the failed apply")
    #expect(
      lines.filter { $0.contains("reconcile") || $0.contains("could not") } == [
        "displayd[info]: reconcile 2 (RandR events): HDMI-1 1920x1080@60.00 at 1920,0, rolled back: DP-1 failed\n",
        "displayd[error]: could not configure DP-1: request 2 failed (fake)\n",
        "displayd[info]: reconcile 2 (RandR events): HDMI-1 1920x1080@60.00 at 1920,0, screen 3840x1080\n",
      ])
    #expect(server.windows.count == 1 && server.topology.crtcs[2].mode == nil, "the other monitor is lit alone")
    // The next change of the desk retries it, and it is lit.
    server.change { $0.primary = $0.outputs[0].id }
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[2].mode == TopologyBuilder.m1080.id && server.windows.count == 2)
    #expect(server.badFrees == 0)
  }

  @Test func aWindowWhoseCreationFailsIsMadeOnTheNextChange() throws {
    let server = desk()
    var lines: [String] = []
    let daemon = try Daemon(connection: server, config: Config(), log: Logger(level: .info) { lines.append($0) })
    try daemon.start()
    plug(server, 1)
    server.failRequest(2)  // the CRTC set, then the window
    try daemon.handleServerEvents()
    #expect(server.windows.isEmpty && server.held == 0)
    #expect(lines.contains { $0.hasPrefix("displayd[error]: could not create a window on HDMI-1: X request failed:") })
    // An event that changes nothing changes nothing; the next change of the topology makes it.
    server.pendingRandR += 1
    try daemon.handleServerEvents()
    #expect(server.windows.isEmpty)
    server.change { $0.primary = $0.outputs[0].id }
    try daemon.handleServerEvents()
    #expect(server.windows.count == 1 && server.pixmaps.count == 1)
  }

  @Test func theWatchLoopOverAnyServerTurnsEventsIntoOneSnapshotAndItsDiff() throws {
    let server = desk()
    let watcher = try TopologyWatcher(server: server)
    plug(server, 1)
    server.pendingRandR += 2
    #expect(try watcher.drain() == 3)
    #expect(try watcher.refresh().map(\.kind) == [.connected], "three events, one snapshot, one change")
    #expect(watcher.snapshots == 1 && watcher.topology == server.topology)
    #expect(try watcher.drain() == 0 && watcher.refresh().isEmpty)
  }

  @Test func aReloadThatCannotBeAppliedLeavesThePreviousConfigInForce() throws {
    let server = desk()
    let daemon = try Daemon(connection: server, config: Config(), log: quiet)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    var new = Config()
    new.defaults.mode = .size(width: 1024, height: 768)
    server.lost = true
    server.pendingRandR += 1
    #expect(throws: DisplayError.connectionLost(display: ":fake")) { try daemon.reload(new) }
    #expect(daemon.config == Config(), "the old config, not the one that was never applied")
  }
}
