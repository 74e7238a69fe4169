import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

@testable import DisplayKit

/// Main moves with what else it depends on (the profile chosen, the config), without a read
/// of the heads.
@Suite struct MainOncePerRead {
  let quiet = Logger(level: .error) { _ in }

  /// The panel off by its rule, DP-1 and HDMI-1 lit side by side where their rules put them:
  /// the rules' main is DP-1 (the first lit head); with the lid closed, `docked` matches the
  /// heads as they are, and its main is its first entry lit, HDMI-1.
  static let docked = """
    { disconnect_grace: 0,
      monitors: [
        { match: { output: "eDP-1" }, enabled: false },
        { match: { output: "DP-1" }, position: "0,0" },
        { match: { output: "HDMI-1" }, position: "1920,0" } ],
      profiles: [ { name: "docked", lid: "closed", outputs: [
        { match: { output: "eDP-1" }, enabled: false },
        { match: { output: "HDMI-1" }, position: "1920,0", content: "placeholder" },
        { match: { output: "DP-1" }, position: "0,0", content: "placeholder" } ] } ] }
    """

  func desk() -> FakeOutputManager {
    FakeOutputManager([
      FakeOutputManager.head("eDP-1", panel: true), FakeOutputManager.head("DP-1", at: (0, 0)),
      FakeOutputManager.head("HDMI-1", at: (1920, 0)),
    ])
  }

  @Test func aProfileChosenOnTheSameHeadsMovesMainAndTheWindows() throws {
    let manager = desk()
    let surfaces = FakeSurfaceHost()
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: surfaces, painter: CairoPicturePainter(),
      config: try Config.parse(Array(Self.docked.utf8), file: "config.json5"), log: quiet)
    try daemon.start()
    #expect(daemon.mainOutput?.name == "DP-1")
    #expect(daemon.monitors.keys.sorted() == ["HDMI-1"])
    let (applied, reads) = (manager.applied.count, daemon.layout.watcher.snapshots)
    try daemon.setLid(.closed)
    let unchanged = manager.applied.count == applied && daemon.layout.watcher.snapshots == reads
    #expect(unchanged, "nothing applied, nothing read")
    #expect(daemon.activeProfile == ActiveProfile(name: "docked", reason: .matched))
    #expect(daemon.mainOutput?.name == "HDMI-1")
    #expect(daemon.monitors.keys.sorted() == ["DP-1"], "the window leaves the new main")
  }

  @Test func aReloadNamingAnotherMainMovesItOnTheSameHeads() throws {
    let manager = desk()
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(),
      config: try Config.parse(Array(Self.docked.utf8), file: "config.json5"), log: quiet)
    try daemon.start()
    #expect(daemon.mainOutput?.name == "DP-1")
    var config = daemon.config
    config.main = "HDMI-1"
    let (applied, reads) = (manager.applied.count, daemon.layout.watcher.snapshots)
    try daemon.reload(config)
    let unchanged = manager.applied.count == applied && daemon.layout.watcher.snapshots == reads
    #expect(unchanged, "nothing applied, nothing read")
    #expect(daemon.mainOutput?.name == "HDMI-1")
  }
}

/// The daemon forgets the monitors gone whenever it looks, also when what it remembers
/// changed without a read (a layout put back names the heads lit then).
@Suite struct ForgettingOncePerRead {
  let quiet = Logger(level: .error) { _ in }

  @Test func whatIsRememberedOfAGoneHeadWithoutAReadIsForgotten() throws {
    let manager = FakeOutputManager([FakeOutputManager.head("DP-1", at: (0, 0))])
    let daemon = try Daemon(server: PortDisplayServer(manager), surfaces: nil, config: Config(), log: quiet)
    try daemon.start()
    daemon.layout.forgetGoneMonitors()
    let reads = daemon.layout.watcher.snapshots
    daemon.layout.litByDaemon.insert("HDMI-1")
    daemon.layout.forgetGoneMonitors()
    #expect(!daemon.layout.litByDaemon.contains("HDMI-1"))
    daemon.layout.settled["HDMI-1"] = MonitorKey(nil)
    daemon.layout.forgetGoneMonitors()
    #expect(daemon.layout.settled["HDMI-1"] == nil)
    daemon.layout.failures["HDMI-1"] = (MonitorKey(nil), 1)
    daemon.layout.forgetGoneMonitors()
    #expect(daemon.layout.failures["HDMI-1"] == nil && daemon.layout.watcher.snapshots == reads)
  }
}
