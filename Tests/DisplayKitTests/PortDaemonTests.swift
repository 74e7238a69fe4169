import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import DisplayX11
import Testing

/// The daemon's logic through the output-manager port: `OutputManagerLayout` over
/// `FakeOutputManager` (as Wayland runs it over `WaylandOutputManager`) and `FakeSurfaceHost`,
/// no server, milliseconds a test. What a real compositor does is tested beside these, on sway
/// and labwc.
@Suite struct DaemonOverAnOutputManager {
  let quiet = Logger(level: .error) { _ in }
  let surfaces = FakeSurfaceHost()

  /// eDP-1 lit at 0,0 as main, the only head listed (wlroots lists only attached heads).
  func desk(_ more: [Head] = []) -> (FakeOutputManager, PortDisplayServer) {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0), panel: true)] + more)
    return (manager, PortDisplayServer(manager))
  }

  /// The config's text with unplugs handled at once (no grace).
  func config(_ body: String) throws -> Config {
    try Config.parse(Array("{ disconnect_grace: 0, \(body) }".utf8), file: "config.json5")
  }

  func rect(_ head: Head?) -> Rect? { head?.rect }

  /// A compositor has no screen: the heads say the lit heads' bounding box within the limits
  /// the backend states.
  @Test func theHeadsOfACompositorSayTheLitHeadsBoundingBoxAsTheirScreen() throws {
    let (_, server) = desk([FakeOutputManager.head("HDMI-1", at: (1920, 0))])
    _ = try server.layout.read()
    let screen = try #require(server.heads(holding: .none).screen)
    #expect((screen.width, screen.height, screen.maxWidth) == (1920 + 1920, 1080, PortDisplayServer.desk.maxWidth))
  }

  @Test func aPluggedHeadGetsItsRulesModeAndPlaceAndItsOwnChangeCausesNoOther() throws {
    let (manager, server) = desk()
    let rules = try config(#"monitors: [{ match: { output: "HDMI-1" }, mode: "1280x1024", position: "below main" }]"#)
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: rules, log: quiet)
    try daemon.start()
    #expect(manager.applied.isEmpty && surfaces.held == 0, "nothing to change on the panel alone")
    manager.plug(FakeOutputManager.head("HDMI-1"))
    try daemon.handleServerEvents()
    #expect(rect(manager.head("HDMI-1")) == Rect(x: 0, y: 1080, width: 1280, height: 1024))
    #expect(manager.head("HDMI-1")?.mode?.refreshMilliHz == 60000)
    #expect(manager.tested.count == 1 && manager.applied.count == 1, "tested, then applied, once")
    #expect(manager.applied.first?.heads.map(\.name) == ["HDMI-1"], "the heads it does not change are not named")
    #expect(surfaces.rects == [Rect(x: 0, y: 1080, width: 1280, height: 1024)] && surfaces.showing == 1)
    // The compositor's `done` for the daemon's own configuration: nothing more to do.
    #expect(manager.pendingChanges == 1)
    try daemon.handleServerEvents()
    #expect(manager.applied.count == 1 && surfaces.opened == 1)
  }

  /// The planners over heads take the heads the daemon read, not heads made back from its
  /// topology: what the compositor listed, the plugged head's new instance among it.
  @Test func theDaemonsHeadsAreTheCompositorsAfterAPlugAndItsOwnChange() throws {
    let (manager, server) = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: try config(""), log: quiet)
    try daemon.start()
    manager.plug(FakeOutputManager.head("HDMI-1"))
    try daemon.handleServerEvents()
    try daemon.handleServerEvents()
    #expect(daemon.heads.heads == manager.heads)
    #expect(daemon.heads.head(named: "HDMI-1")?.rect == Rect(x: 1920, y: 0, width: 1920, height: 1080))
    #expect(daemon.heads.head(named: "HDMI-1")?.instance == 1)
  }

  /// A head listed as disconnected while its monitor's disconnect waits for the grace is
  /// still connected in the daemon's heads, as in its topology: its window stays meanwhile.
  @Test func aHeadWhoseDisconnectWaitsForTheGraceStaysConnectedInTheDaemonsHeads() throws {
    let (manager, server) = desk()
    var graceful = Config()
    graceful.disconnectGrace = 5
    let clock = ManualClock()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: graceful, log: quiet, clock: clock)
    try daemon.start()
    manager.plug(FakeOutputManager.head("HDMI-1"))
    try daemon.handleServerEvents()
    manager.unplug("HDMI-1")
    try daemon.handleServerEvents()
    #expect(!daemon.pendingDisconnects.isEmpty && manager.head("HDMI-1")?.connected == false)
    #expect(daemon.heads.head(named: "HDMI-1")?.connected == true, "waiting for the grace")
    #expect(surfaces.held == 1)
    manager.plug(FakeOutputManager.head("HDMI-1"))
    try daemon.handleServerEvents()
    #expect(daemon.pendingDisconnects.isEmpty && surfaces.opened == 1, "back within the grace: left as it was")
    manager.unplug("HDMI-1")
    try daemon.handleServerEvents()
    clock.advance(6_000_000_000)
    try daemon.graceTimerFired()
    #expect(daemon.heads.head(named: "HDMI-1")?.connected == false, "the grace over")
  }

  @Test func aRefusedConfigurationLeavesTheDeskAsItWasIsLoggedAndIsTriedAgainOnTheNextChange() throws {
    let (manager, server) = desk()
    var lines: [String] = []
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: try config(""),
      log: Logger(level: .info) { lines.append($0) })
    try daemon.start()
    manager.plug(FakeOutputManager.head("HDMI-1"))
    let before = manager.heads
    manager.refuseApply(1, reason: "the compositor would not accept the configuration")
    lines = []
    try daemon.handleServerEvents()
    #expect(manager.heads == before && manager.applied.count == 1, "all or nothing: the desk as it was")
    #expect(surfaces.held == 0, "no surface on a head left dark")
    #expect(
      lines.contains(
        "displayd[error]: the compositor refused the configuration: the compositor would not accept the configuration\n"
      ), "\(lines)")
    // Its own refusal brings no event; the next change of the desk (another monitor) tries it again.
    try daemon.handleServerEvents()
    #expect(manager.applied.count == 1)
    manager.plug(FakeOutputManager.head("DP-1"))
    try daemon.handleServerEvents()
    #expect(manager.head("HDMI-1")?.enabled == true && manager.head("DP-1")?.enabled == true)
    #expect(surfaces.held == 2 && surfaces.misuses == 0)
  }

  /// Another client changed the desk between the daemon's snapshot and its apply: nothing
  /// was changed by the daemon's configuration, and the snapshot that follows (that change's)
  /// is planned again, not the old one retried.
  @Test func aStaleConfigurationIsPlannedAgainFromTheChangeThatMadeItStale() throws {
    let (manager, server) = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: try config(""), log: quiet)
    try daemon.start()
    manager.plug(FakeOutputManager.head("HDMI-1"))
    manager.staleApply(1)
    try daemon.handleServerEvents()
    let generations = manager.applied.map(\.generation)
    #expect(generations.count == 2 && generations[0] < generations[1], "\(generations)")
    #expect(rect(manager.head("HDMI-1")) == Rect(x: 1920, y: 0, width: 1920, height: 1080), "right of main")
    #expect(surfaces.rects == [Rect(x: 1920, y: 0, width: 1920, height: 1080)])
    // The events of both changes, drained now, change nothing.
    try daemon.handleServerEvents()
    #expect(manager.applied.count == 2 && surfaces.opened == 1 && surfaces.misuses == 0)
  }

  /// (A profile shows no content unless it says so.)
  @Test func profilesSwitchByHandTurningAndPlacingTheHeadAndItsSurfaceFollows() throws {
    let (manager, server) = desk([FakeOutputManager.head("HDMI-1")])
    let profiles = try config(
      """
      profiles: [
        { name: "stacked", outputs: [
          { match: { output: "eDP-1" }, position: "0,0" },
          { match: { output: "HDMI-1" }, position: "0,1080", content: "placeholder" } ] },
        { name: "row", outputs: [
          { match: { output: "eDP-1" }, position: "0,0" },
          { match: { output: "HDMI-1" }, rotate: "left", position: "1920,0", content: "placeholder" } ] },
      ]
      """)
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: profiles, log: quiet)
    try daemon.start()
    #expect(daemon.activeProfile.name == "stacked")
    #expect(rect(manager.head("HDMI-1")) == Rect(x: 0, y: 1080, width: 1920, height: 1080))
    #expect(try daemon.switchProfile("row") == nil)
    #expect(daemon.activeProfile.name == "row")
    #expect(manager.head("HDMI-1")?.transform == .rotated90, "RandR's left is wl_output's 90")
    #expect(rect(manager.head("HDMI-1")) == Rect(x: 1920, y: 0, width: 1080, height: 1920))
    #expect(surfaces.rects == [Rect(x: 1920, y: 0, width: 1080, height: 1920)])
    #expect(try daemon.switchProfile("stacked") == nil)
    #expect(manager.head("HDMI-1")?.transform == Transform.normal)
    #expect(surfaces.rects == [Rect(x: 0, y: 1080, width: 1920, height: 1080)])
    #expect(surfaces.held == 1 && surfaces.misuses == 0)
    #expect(try daemon.switchProfile("nope") == .unknown(name: "nope", known: ["stacked", "row"]))
  }

  @Test func anUnpluggedHeadIsTurnedOffAndAGoneOneLosesItsSurface() throws {
    let (manager, server) = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: try config(""), log: quiet)
    try daemon.start()
    manager.plug(FakeOutputManager.head("HDMI-1"))
    try daemon.handleServerEvents()
    #expect(surfaces.held == 1)
    // Listed as disconnected while still lit (RandR's way): the daemon turns it off.
    manager.unplug("HDMI-1")
    try daemon.handleServerEvents()
    #expect(manager.applied.last?.heads == [.off("HDMI-1")])
    #expect(manager.head("HDMI-1")?.enabled == false)
    #expect(surfaces.held == 0 && surfaces.closed == 1 && surfaces.misuses == 0)
    // No longer listed at all (wlroots' way): its surface goes, and nothing is sent for it.
    manager.plug(FakeOutputManager.head("DP-1"))
    try daemon.handleServerEvents()
    let applies = manager.applied.count
    manager.remove("DP-1")
    try daemon.handleServerEvents()
    #expect(manager.applied.count == applies)
    #expect(surfaces.held == 0 && surfaces.closed == 2 && surfaces.misuses == 0)
  }

  @Test func aHeadThatCannotScaleIsPlannedUnscaledWithAWarning() throws {
    let (manager, server) = desk()
    var lines: [String] = []
    let rules = try config(#"monitors: [{ match: { output: "HDMI-1" }, scale: 1.5 }]"#)
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: rules,
      log: Logger(level: .warning) { lines.append($0) })
    try daemon.start()
    var head = FakeOutputManager.head("HDMI-1")
    head.capabilities.scaling = false
    manager.plug(head)
    try daemon.handleServerEvents()
    // The head says it cannot scale: the rules never ask the compositor for a scale it would refuse.
    #expect(manager.tested.map { $0.heads.first?.scale } == [1], "asked unscaled at once")
    #expect(manager.applied.count == 1 && manager.head("HDMI-1")?.scale == 1)
    #expect(rect(manager.head("HDMI-1")) == Rect(x: 1920, y: 0, width: 1920, height: 1080))
    #expect(lines.contains { $0.contains("HDMI-1 cannot scale; scale 1 instead of 1.5") }, "\(lines)")
    #expect(surfaces.held == 1)
  }
}

/// The adapter's own choices, with values.
@Suite struct OutputManagerLayoutValues {
  @Test func aConfigurationOfOnlyAPrimarySendsNothingWithoutAPrimaryAndOneConfigurationWithOne() throws {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0))])
    let primaryOnly = OutputConfiguration(generation: manager.generation, heads: [], primary: "eDP-1")
    let without = try PortDisplayServer(manager).layout.apply(primaryOnly)
    #expect(manager.tested.isEmpty && without.result == .applied)
    var desk = PortDisplayServer.desk
    desk.hasPrimary = true
    let with = try PortDisplayServer(manager, desk: desk).layout.apply(primaryOnly)
    #expect(manager.tested.map(\.primary) == ["eDP-1"] && manager.tested.first?.heads == [])
    #expect(with.result == .applied)
  }

  /// The layout asks for the PNP ids of the makes the snapshot's heads show, and a rule's
  /// `manufacturer` id then matches a head that has only a make.
  @Test func theSnapshotAsksTheVendorsOfTheMakesItsHeadsShow() throws {
    var dell = FakeOutputManager.head("DP-1", at: (0, 0))
    dell.make = "Dell Inc."
    let manager = FakeOutputManager([dell, FakeOutputManager.head("eDP-1", at: (1920, 0))])
    var asked: [[String]] = []
    let layout = OutputManagerLayout(manager, desk: PortDisplayServer.desk) { makes in
      asked.append(makes)
      return PNPVendors(pnpIDs: "DEL\tDell Inc.\n", names: Set(makes))
    }
    let heads = try layout.read(ReadOptions())
    let vendors = layout.vendors(of: heads)
    #expect(asked == [["Dell Inc.", ""]])
    let rules = try Config.parse(Array("{monitors: [{match: {manufacturer: 'DEL'}, ignore: true}]}".utf8), file: "t")
    #expect(rules.settings(for: try #require(heads.head(named: "DP-1")), vendors: vendors) == nil, "DEL matches")
    #expect(rules.settings(for: try #require(heads.head(named: "eDP-1")), vendors: vendors) != nil)
  }

  @Test func theSnapshotHasTheScreenLimitsTheBackendStates() throws {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0))])
    let desk = OutputManagerLayout.Desk(server: "the fake", maxWidth: 8192, maxHeight: 4096)
    let screen = try #require(try PortDisplayServer(manager, desk: desk).layout.read().screen)
    #expect((screen.width, screen.height, screen.maxWidth, screen.maxHeight) == (1920, 1080, 8192, 4096))
  }

  /// The fake as a compositor: a configuration of an older generation changes nothing.
  @Test func theFakeAnswersAnOldGenerationStaleAndAppliesAllOrNothing() throws {
    let manager = FakeOutputManager([FakeOutputManager.head("eDP-1", at: (0, 0)), FakeOutputManager.head("DP-1")])
    let old = manager.generation
    manager.change { $0[0].x = 10 }
    let moved = OutputConfiguration(
      generation: old, heads: [HeadConfiguration(name: "DP-1", enabled: true, x: 1920)])
    #expect(try manager.apply(moved) == .stale && manager.head("DP-1")?.enabled == false)
    var now = moved
    now.generation = manager.generation
    now.heads.append(HeadConfiguration(name: "eDP-1", enabled: true, transform: .flipped, scale: 2))
    now.heads.append(HeadConfiguration(name: "HDMI-9", enabled: true))
    let answer = try manager.apply(now)
    #expect(answer == .refused(ApplyRefusal(reason: "no head named 'HDMI-9'")), "a head it does not list")
    #expect(manager.head("DP-1")?.enabled == false, "nothing applied of a refused configuration")
    now.heads.removeLast()
    #expect(try manager.apply(now) == .applied)
    #expect(manager.head("DP-1")?.rect == Rect(x: 1920, y: 0, width: 1920, height: 1080))
    #expect(manager.head("eDP-1")?.rect == Rect(x: 0, y: 0, width: 3840, height: 2160))
    #expect(manager.head("eDP-1")?.transform == .flipped && manager.generation > old + 1)
    // A head that shows only some transforms refuses the others, naming no refused scale.
    manager.change { $0[1].capabilities.transforms = [.normal] }
    let turned = OutputConfiguration(
      generation: manager.generation, heads: [HeadConfiguration(name: "DP-1", enabled: true, transform: .rotated90)])
    #expect(try manager.test(turned) == .refused(ApplyRefusal(reason: "DP-1 cannot show the transform rotated90")))
    #expect(manager.head("DP-1")?.transform == .normal)
  }
}
