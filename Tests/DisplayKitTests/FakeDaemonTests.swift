import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

/// The daemon's logic against `FakeDisplayServer` and `FakeSurfaceHost`: no X server,
/// milliseconds a test. What the real servers do is tested beside these, against Xvnc and Xorg.
@Suite struct DaemonAgainstAFakeServer {
  let quiet = Logger(level: .error) { _ in }
  let surfaces = FakeSurfaceHost()

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
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: immediate, log: quiet)
    try daemon.start()
    #expect(surfaces.held == 0)
    plug(server, 1)
    try daemon.handleServerEvents()
    #expect(surfaces.rects == [Rect(x: 1920, y: 0, width: 1920, height: 1080)], "right of main")
    #expect(daemon.monitors.count == 1 && surfaces.showing == 1)
    unplug(server, 1)
    try daemon.handleServerEvents()
    #expect(surfaces.held == 0 && surfaces.misuses == 0, "nothing left, nothing closed twice")
    #expect(surfaces.opened == 1 && surfaces.closed == 1)
    #expect(server.topology.crtcs[1].mode == nil, "its CRTC turned off")
  }

  /// On X the daemon's heads are the RandR backend's of the snapshot it read: the same
  /// heads, lit where their CRTCs are, with no read of their own.
  @Test func theDaemonsHeadsAreTheRandRBackendsOfItsSnapshot() throws {
    let server = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: immediate, log: quiet)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    #expect(daemon.heads.heads.map(\.name) == ["eDP-1", "HDMI-1", "DP-1"])
    #expect(daemon.heads.head(named: "HDMI-1")?.rect == Rect(x: 1920, y: 0, width: 1920, height: 1080))
    #expect(daemon.heads.head(named: "DP-1")?.connected == false)
    #expect(daemon.heads.primary == daemon.topology.primary.flatMap { daemon.topology.output($0)?.name })
  }

  @Test func theDaemonsOwnChangesCauseNoFurtherChangeAndAUsersLaterChangeIsLeftAlone() throws {
    let server = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(), log: quiet)
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
    #expect(surfaces.rects == [Rect(x: 0, y: 1080, width: 1920, height: 1080)])
  }

  @Test func aMonitorTheServerRefusesIsRetriedOnLaterChangesThenLeftUntilItChanges() throws {
    let server = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(), log: quiet)
    try daemon.start()
    server.refusing = [server.topology.outputs[1].id]
    plug(server, 1)
    try daemon.handleServerEvents()
    #expect(server.applies == 1 && surfaces.held == 0, "refused: rolled back, no window")
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
    #expect(surfaces.held == 1, "another monitor on the connector is tried again, and lit")
    #expect(surfaces.misuses == 0)
  }

  @Test func aWindowDestroyedFromOutsideComesBackWithNothingFreedTwice() throws {
    for content in ["placeholder", "mirror"] {
      let server = desk()
      let surfaces = FakeSurfaceHost()
      var config = Config()
      config.defaults.content = ContentKind(rawValue: content) ?? .placeholder
      let daemon = try Daemon(
        server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
      try daemon.start()
      plug(server, 1)
      try daemon.handleServerEvents()
      let old = try #require(surfaces.surfaces.keys.first)
      // With a RandR event that changes nothing in the same batch.
      surfaces.closeFromOutside(old)
      server.pendingRandR += 1
      try daemon.handleServerEvents()
      #expect(surfaces.held == 1 && surfaces.surfaces.keys.first != old, "\(content): a new window")
      let shows = content == "mirror" ? surfaces.mirroring : surfaces.showing
      #expect(shows == 1 && surfaces.misuses == 0, "\(content): shown again, the gone one never closed")
      daemon.releaseAll()
      #expect(surfaces.held == 0 && surfaces.misuses == 0 && surfaces.closed == 1, "\(content): no leak")
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
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    plug(server, 1, edid: try hostileEDID(name: "ALPHA", serial: "1"))
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m768.id)
    plug(server, 1, edid: try hostileEDID(name: "BETA", serial: "1"))
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[1].mode == TopologyBuilder.m1024.id)
    #expect(surfaces.rects == [Rect(x: 1920, y: 0, width: 1280, height: 1024)])
    #expect(surfaces.showing == 1 && surfaces.misuses == 0, "one picture, the old one replaced")
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
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    plug(server, 1)
    plug(server, 2)
    try daemon.handleServerEvents()
    let hdmi = server.topology.outputs[1].name
    #expect(daemon.monitors[hdmi]?.content == .mirror && surfaces.mirroring == 1)
    #expect(surfaces.surfaces.values.first?.mirror?.source == "DP-1", "the surface is told which head it mirrors")
    unplug(server, 2)
    try daemon.handleServerEvents()
    #expect(daemon.monitors[hdmi]?.content == .placeholder)
    #expect(surfaces.mirroring == 0 && surfaces.showing == 1, "the mirror's surface went with it")
    plug(server, 2)
    try daemon.handleServerEvents()
    #expect(daemon.monitors[hdmi]?.content == .mirror)
    #expect(surfaces.mirroring == 1 && surfaces.showing == 0, "no placeholder left")
    #expect(surfaces.misuses == 0 && surfaces.held == 1)
  }

  @Test func theFrameTimerIsArmedOnlyWhileTheSurfacesHaveAFrameWaiting() throws {
    let server = desk()
    var config = Config()
    config.defaults.content = .mirror
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    #expect(surfaces.mirroring == 1 && daemon.frameTimerDescriptor == nil, "a still mirror: no timer")
    #expect(surfaces.surfaces.values.first?.mirror?.refreshHz == 60, "paced by its head's refresh")
    // The host's damage waits for the next frame: the daemon's loop arms the timer for it.
    surfaces.waitingFrame = 5_000_000
    try daemon.handleServerEvents()
    #expect(daemon.frameTimerDescriptor != nil)
    daemon.frameTimerFired()
    #expect(surfaces.framesAsked == 1 && daemon.frameTimerDescriptor == nil, "one frame, then idle")
    #expect(daemon.counters.composites == surfaces.frames, "status counts the host's frames")
    try daemon.handleServerEvents()
    #expect(surfaces.framesAsked == 1 && daemon.frameTimerDescriptor == nil, "nothing waits: no frame, no timer")
  }

  /// A capture the compositor refuses every time (a source powered off): one more try, then
  /// the placeholder, and no loop of tries driven by the failures.
  @Test func aMirrorWhoseCaptureAlwaysFailsIsTriedOnceMoreThenShowsThePlaceholder() throws {
    let server = desk()
    var config = immediate
    config.defaults.content = .mirror
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    surfaces.mirrorsFail = true
    plug(server, 1)
    try daemon.handleServerEvents()
    #expect(surfaces.mirrorsStarted == 1)
    for _ in 0..<5 { try daemon.handleServerEvents() }
    #expect(surfaces.mirrorsStarted == 2, "one retry, then none")
    #expect(surfaces.showing == 1 && surfaces.held == 1 && surfaces.misuses == 0, "the placeholder shows")
    #expect(surfaces.pending.isEmpty)
  }

  /// Two mirrors, one whose capture always fails and one animating: the other's frames do not
  /// count as frames of the failing one, so it too is tried once more, then shows the
  /// placeholder, while the other keeps mirroring.
  @Test func aMirrorThatAlwaysFailsBesideAnAnimatingOneStillStopsTrying() throws {
    let server = desk()
    var config = immediate
    config.defaults.content = .mirror
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    surfaces.mirrorsFailOn = ["DP-1"]
    plug(server, 1)
    plug(server, 2)
    try daemon.handleServerEvents()
    let failing = try #require(surfaces.surface(on: "DP-1"))
    let animating = try #require(surfaces.surface(on: "HDMI-1"))
    for _ in 0..<5 {
      surfaces.showFrame(on: animating)
      try daemon.handleServerEvents()
    }
    #expect(surfaces.mirrorStarts[failing] == 2, "one retry, then none")
    #expect(surfaces.surfaces[failing]?.picture != nil, "the placeholder shows")
    #expect(surfaces.mirrorStarts[animating] == 1 && surfaces.surfaces[animating]?.mirror != nil, "still mirroring")
    #expect(surfaces.misuses == 0 && surfaces.pending.isEmpty)
  }

  /// A mirror that stopped once (a failed capture between frames) is started again.
  @Test func aMirrorThatStoppedOnceIsStartedAgain() throws {
    let server = desk()
    var config = immediate
    config.defaults.content = .mirror
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    let id = try #require(surfaces.surfaces.keys.first)
    surfaces.pending.append(.mirrorSourceLost(id))
    try daemon.handleServerEvents()
    #expect(surfaces.mirrorsStarted == 2 && surfaces.mirroring == 1)
    // Frames shown since: a later stop is tried again too.
    surfaces.pending.append(.mirrorSourceLost(id))
    try daemon.handleServerEvents()
    #expect(surfaces.mirrorsStarted == 3 && surfaces.mirroring == 1)
  }

  @Test func anExposedSurfaceGetsItsPictureAgain() throws {
    let server = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(), log: quiet)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    let redraws = daemon.counters.redraws
    surfaces.expose(try #require(surfaces.surfaces.keys.first))
    try daemon.handleServerEvents()
    #expect(daemon.counters.redraws == redraws + 1 && surfaces.showing == 1 && surfaces.opened == 1)
  }

  // A Wayland compositor withdraws an output turned off by someone else and its layer surface
  // with it; when the head is lit again within the same layout the daemon must open a new
  // surface, not believe the released one still shows.
  @Test func aSurfaceWhoseHeadWentIsForgottenAndMadeAgain() throws {
    let server = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(), log: quiet)
    try daemon.start()
    plug(server, 1)
    try daemon.handleServerEvents()
    let old = try #require(surfaces.surfaces.keys.first)
    surfaces.headGoneFromOutside(old)
    try daemon.handleServerEvents()
    #expect(surfaces.held == 1 && surfaces.surfaces[old] == nil, "a new surface in place of the released one")
    #expect(surfaces.misuses == 0, "the released surface is never closed again")
  }

  @Test func anApplyFailingHalfWayRollsBackAndTheFailedMonitorIsRetriedOnTheNextChange() throws {
    let server = desk()
    var lines: [String] = []
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(),
      log: Logger(level: .info) { lines.append($0) })
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
        "displayd[info]: reconcile 2 (the server's events): HDMI-1 1920x1080@60.00 at 1920,0, rolled back: DP-1 failed\n",
        "displayd[error]: could not configure DP-1: request 2 failed (fake)\n",
        "displayd[info]: reconcile 2 (the server's events): HDMI-1 1920x1080@60.00 at 1920,0, screen 3840x1080\n",
      ])
    #expect(surfaces.held == 1 && server.topology.crtcs[2].mode == nil, "the other monitor is lit alone")
    // The next change of the desk retries it, and it is lit.
    server.change { $0.primary = $0.outputs[0].id }
    try daemon.handleServerEvents()
    #expect(server.topology.crtcs[2].mode == TopologyBuilder.m1080.id && surfaces.held == 2)
    #expect(surfaces.misuses == 0)
  }

  @Test func aWindowWhoseCreationFailsIsMadeOnTheNextChange() throws {
    let server = desk()
    var lines: [String] = []
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(),
      log: Logger(level: .info) { lines.append($0) })
    try daemon.start()
    plug(server, 1)
    surfaces.failOpen(1)
    try daemon.handleServerEvents()
    #expect(surfaces.held == 0 && server.topology.crtcs[1].mode != nil, "lit, without its window")
    #expect(lines.contains { $0.hasPrefix("displayd[error]: could not create a window on HDMI-1: X request failed:") })
    // An event that changes nothing changes nothing; the next change of the topology makes it.
    server.pendingRandR += 1
    try daemon.handleServerEvents()
    #expect(surfaces.held == 0)
    server.change { $0.primary = $0.outputs[0].id }
    try daemon.handleServerEvents()
    #expect(surfaces.held == 1 && surfaces.showing == 1)
  }

  @Test func theWatchLoopOverAnyServerTurnsEventsIntoOneSnapshotAndItsDiff() throws {
    let server = desk()
    let watcher = try HeadWatcher(server: server)
    plug(server, 1)
    server.pendingRandR += 2
    #expect(try watcher.drain() == 3)
    #expect(try watcher.refresh().map(\.kind) == [.connected], "three events, one snapshot, one change")
    #expect(watcher.snapshots == 1 && watcher.heads == server.heads(of: server.topology))
    #expect(server.lastRead == server.topology)
    #expect(try watcher.drain() == 0 && watcher.refresh().isEmpty)
  }

  @Test func aReloadThatCannotBeAppliedLeavesThePreviousConfigInForce() throws {
    let server = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: Config(), log: quiet)
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
