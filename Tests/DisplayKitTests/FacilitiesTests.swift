import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Testing

/// A daemon given no facilities (a Wayland compositor's daemon) leaves the X desk's features
/// out as a server without them answers, even on a fake that has them: the daemon asks only
/// its facilities, never the display server.
@Suite struct DaemonWithoutFacilities {
  final class Lines { var all: [String] = [] }

  func daemon(_ server: FakeDisplayServer, _ config: String, _ lines: Lines, clock: ManualClock = ManualClock())
    throws -> Daemon
  {
    let config = try Config.parse(Array(config.utf8), file: "config.json5")
    let log = Logger(level: .debug) { lines.all.append($0) }
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), facilities: DisplayFacilities(),
      config: config, log: log,
      clock: clock)
    try daemon.start()
    return daemon
  }

  @Test func aDPIProfileWritesNoResourcesAndSaysOnceThatTheServerHasNone() throws {
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    server.resources = Array("Xft.dpi:\t96\n".utf8)
    let lines = Lines()
    let daemon = try daemon(server, dpiProfiles.replacingOccurrences(of: "OUTPUT", with: "eDP-1"), lines)
    // The profile comes into force again at a resync: still said once.
    try daemon.resync(reason: "test")
    let said = lines.all.filter { $0.contains("dpi: this display server has no X resources") }
    #expect(said.count == 1, "\(lines.all)")
    #expect(!lines.all.contains { $0.contains("RESOURCE_MANAGER is not a string") })
    #expect(server.resourceWrites == 0 && daemon.xftDPI == nil)
    #expect(!lines.all.contains { $0.contains("XSETTINGS") })
  }

  @Test func aWantedPropertyAndTouchAreSaidOnceNotToApplyOnAServerWithoutThem() throws {
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    server.properties[server.topology.outputs[0].id] = ["Broadcast RGB": OutputExtrasTests.rgb]
    let lines = Lines()
    let config =
      "{ monitors: [ { match: { output: 'eDP-1' }, properties: { 'Broadcast RGB': 'Full' }, touch: ['ELAN*'] } ] }"
    let daemon = try daemon(server, config, lines)
    _ = try daemon.reconcile(reason: "test")
    #expect(server.propertyWrites == 0)
    let properties = lines.all.filter { $0.contains("eDP-1: this display server has no output properties") }
    #expect(properties.count == 1, "\(lines.all)")
    let touch = lines.all.filter { $0.contains("touch: this display server has no X input devices") }
    #expect(touch.count == 1, "\(lines.all)")
    #expect(!lines.all.contains { $0.contains("XInput 2") || $0.contains("no such property") })
  }

  @Test func aDisconnectIsNotHeldForABlankedScreenTheDaemonCannotSee() throws {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let clock = ManualClock()
    let daemon = try daemon(server, "{}", Lines(), clock: clock)
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(daemon.monitors[server.topology.outputs[1].name] != nil)
    server.blanked = true
    server.change { $0.outputs[1].connection = .disconnected }
    try daemon.handleServerEvents()
    clock.advance(1_600_000_000)
    try daemon.graceTimerFired()
    #expect(daemon.monitors[server.topology.outputs[1].name] == nil, "handled after the grace, as if never blanked")
  }
}
