import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

/// The per-monitor rules planned over the daemon's heads and sent through the port: on X
/// each configuration reaches the RandR backend, which alone turns it into CRTC changes.
@Suite struct RulesOverThePort {
  let surfaces = FakeSurfaceHost()

  /// eDP-1 lit as main; HDMI-1 dark and disconnected.
  func desk() -> FakeDisplayServer {
    FakeDisplayServer(TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
  }

  func rules(_ text: String) throws -> Config {
    var config = try Config.parse(Array("{monitors: [\(text)]}".utf8), file: "test.json5")
    config.disconnectGrace = 0
    return config
  }

  @Test func aPluggedMonitorsRuleReachesTheRandRBackendAsAConfigurationOfItsHead() throws {
    let server = desk()
    var lines: [String] = []
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(),
      config: try rules("{match: {output: 'HDMI-1'}, position: 'left-of main'}"),
      log: Logger(level: .info) { lines.append($0) })
    try daemon.start()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    let sent = try #require(server.configurations.last)
    #expect(sent.heads.map { "\($0.name) \($0.enabled) \($0.x),\($0.y)" } == ["eDP-1 true 1920,0", "HDMI-1 true 0,0"])
    #expect(server.configurations.count == server.plans.count, "every plan is the backend's of a configuration")
    #expect(daemon.heads.head(named: "HDMI-1")?.rect == Rect(x: 0, y: 0, width: 1920, height: 1080))
    // The line is the port's report: each head, the mode the backend took, its place.
    #expect(lines.contains { $0.contains("reconcile") && $0.contains("HDMI-1 1920x1080@60.00 at 0,0") }, "\(lines)")
  }

  /// Settled once in force: the next look sends nothing for it.
  @Test func aMonitorTheRulesConfiguredIsLeftAloneAfterwards() throws {
    let server = desk()
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: try rules(""),
      log: Logger(level: .error) { _ in })
    try daemon.start()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    let sent = server.configurations.count
    server.change { _ in }
    try daemon.handleServerEvents()
    #expect(sent == 1 && server.configurations.count == sent)
  }

  /// As the planner over CRTCs did: a monitor nothing can drive stays dark with a warning,
  /// and the others are lit all the same.
  @Test func aMonitorWithoutAFreeCrtcIsLeftDarkAndTheOthersLit() throws {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    var lines: [String] = []
    let daemon = try Daemon(
      server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: try rules(""),
      log: Logger(level: .warning) { lines.append($0) })
    try daemon.start()
    server.change {
      $0.crtcs.removeLast()
      for i in [1, 2] { $0.outputs[i].connection = .connected }
      $0.outputs[2].possibleCrtcs = []
    }
    try daemon.handleServerEvents()
    #expect(daemon.heads.head(named: "HDMI-1")?.rect == Rect(x: 1920, y: 0, width: 1920, height: 1080))
    #expect(daemon.heads.head(named: "DP-1")?.enabled == false)
    #expect(lines.contains { $0.contains("no free CRTC can drive DP-1; left dark") }, "\(lines)")
    #expect(!lines.contains { $0.contains("error") }, "\(lines)")
  }
}
