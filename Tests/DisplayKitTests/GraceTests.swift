import DisplayCLI
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplayService
import DisplaySupport
import DisplayX11
import Testing

@testable import DisplayKit

/// `disconnect_grace`: a monitor that drops off and comes back within the grace (a DisplayPort
/// monitor going to sleep, a dock's USB hiccup) finds everything as it was. Against the fake
/// with a manual clock; the real server's side is in GraceVNCTests.
@Suite struct DisconnectGraceTests {
  let quiet = Logger(level: .error) { _ in }

  @Test func theGraceIsOneAndAHalfSecondsByDefaultAndZeroToSixtyIsAccepted() throws {
    #expect(Config().disconnectGrace == 1.5)
    for (text, value) in [("0", 0.0), ("60", 60.0), ("0.25", 0.25)] {
      let config = try Config.parse(Array("{ disconnect_grace: \(text) }".utf8), file: "c.json5")
      #expect(config.disconnectGrace == value)
    }
  }

  @Test func aBadGraceIsAConfigErrorNamingTheFileLineAndKey() {
    for bad in ["Infinity", "-Infinity", "NaN", "-1", "61", "'soon'", "true"] {
      do {
        _ = try Config.parse(Array("{\n  main: 'eDP-1',\n  disconnect_grace: \(bad),\n}".utf8), file: "c.json5")
        Issue.record("accepted: \(bad)")
      } catch {
        #expect(error.keyPath == "disconnect_grace" && error.line == 3, "\(bad): \(error)")
        #expect(error.description.hasPrefix("c.json5:3:"), "\(bad): \(error)")
      }
    }
  }

  @Test func thePendingEventsRecordSaysSoAndOtherRecordsKeepTheirBytes() throws {
    let desk = try Desk()
    desk.unplug()
    try desk.daemon.handleServerEvents()
    let event = try #require(desk.events.first)
    let record = EventRecord(event, in: desk.daemon.heads, time: "T")
    let line = JSON.record(record).serialized()
    #expect(line.hasPrefix(#"{"event":"disconnect-pending","output":"HDMI-1","time":"T","id":101,"connected":false"#))
    #expect(line.hasSuffix(#","grace_seconds":1.5}"#), "\(line)")
    #expect(line == (try JSON(encoding: record)).serialized(), "the hand-built record is its Encodable's")
    #expect(try EventRecord.decode(Array(line.utf8)) == record)
    let text = EventReport.text(record)
    #expect(text.hasPrefix("T disconnect-pending HDMI-1 ") && text.hasSuffix(" grace 1.5 s"), "\(text)")
    let plain = EventRecord(HeadEvent(kind: .connected, head: event.head), in: desk.daemon.heads, time: "T")
    #expect(!JSON.record(plain).serialized().contains("grace"), "absent from other events")
    #expect(JSON.record(plain).serialized() == (try JSON(encoding: plain)).serialized())
  }

  /// The grace's own events as records: the pending disconnect shows the monitor as it was,
  /// no longer connected, over the CRTC the server keeps lit; another monitor back is the old
  /// one's disconnect (dark, its EDID) and the new one's connect.
  @Test func theGracesEventRecordsShowTheMonitorAsItWasAndThenTheNewOne() throws {
    let desk = try Desk()
    let line = { (event: HeadEvent) in JSON.record(EventRecord(event, in: desk.daemon.heads, time: "T")).serialized() }
    desk.unplug()
    try desk.daemon.handleServerEvents()
    #expect(desk.events.map(line) == [Self.pendingLine])
    desk.events = []
    desk.plug(edid: try hostileEDID(name: "BETA", serial: "2"))
    try desk.daemon.handleServerEvents()
    #expect(desk.kinds.prefix(2) == [.disconnected, .connected], "\(desk.kinds)")
    #expect(desk.events.prefix(2).map(line) == [Self.goneLine, Self.backLine])
  }

  // Written out once from the product and reviewed: HDMI-1 (ALPHA) pending, still on the CRTC
  // the server keeps lit at 1920,0; then gone dark; then BETA connected and lit there.
  static let pendingLine =
    #"{"event":"disconnect-pending","output":"HDMI-1","time":"T","id":101,"connected":false,"connection":"disconnected","primary":false,"main":false,"crtc":{"x":1920,"y":0,"width":1920,"height":1080},"rotation":"normal","current_mode":{"id":1,"name":"1920x1080","width":1920,"height":1080,"refresh_hz":60.0,"current":true,"preferred":true,"interlaced":false,"doublescan":false,"dot_clock_hz":148500000},"mm":null,"non_desktop":false,"identity":{"manufacturer":"ACR","product_code":26,"serial_number":2172748283,"product_name":"ALPHA","serial_string":"1","edid_version":"1.3","extension_count":0,"checksum_ok":true,"max_image_size_cm":[41,26],"preferred_mode":{"width":1440,"height":900,"refresh_hz":59.887,"pixel_clock_khz":106500,"interlaced":false},"manufacture_year":2008,"manufacture_week":18,"model_year":null,"input_type":"analog","block_count":1,"extension_block_types":[],"extension_checksums_ok":[],"display_id":"ACR-1a-818181fb-184b0a3907ce85bd","warnings":[]},"grace_seconds":1.5}"#
  static let goneLine =
    #"{"event":"disconnected","output":"HDMI-1","time":"T","id":101,"connected":false,"connection":"disconnected","primary":false,"main":false,"crtc":null,"rotation":null,"current_mode":null,"mm":null,"non_desktop":false,"identity":{"manufacturer":"ACR","product_code":26,"serial_number":2172748283,"product_name":"ALPHA","serial_string":"1","edid_version":"1.3","extension_count":0,"checksum_ok":true,"max_image_size_cm":[41,26],"preferred_mode":{"width":1440,"height":900,"refresh_hz":59.887,"pixel_clock_khz":106500,"interlaced":false},"manufacture_year":2008,"manufacture_week":18,"model_year":null,"input_type":"analog","block_count":1,"extension_block_types":[],"extension_checksums_ok":[],"display_id":"ACR-1a-818181fb-184b0a3907ce85bd","warnings":[]}}"#
  static let backLine =
    #"{"event":"connected","output":"HDMI-1","time":"T","id":101,"connected":true,"connection":"connected","primary":false,"main":false,"crtc":{"x":1920,"y":0,"width":1920,"height":1080},"rotation":"normal","current_mode":{"id":1,"name":"1920x1080","width":1920,"height":1080,"refresh_hz":60.0,"current":true,"preferred":true,"interlaced":false,"doublescan":false,"dot_clock_hz":148500000},"mm":null,"non_desktop":false,"identity":{"manufacturer":"ACR","product_code":26,"serial_number":2172748283,"product_name":"BETA","serial_string":"2","edid_version":"1.3","extension_count":0,"checksum_ok":true,"max_image_size_cm":[41,26],"preferred_mode":{"width":1440,"height":900,"refresh_hz":59.887,"pixel_clock_khz":106500,"interlaced":false},"manufacture_year":2008,"manufacture_week":18,"model_year":null,"input_type":"analog","block_count":1,"extension_block_types":[],"extension_checksums_ok":[],"display_id":"ACR-1a-818181fb-4f22b5df5f018395","warnings":[]}}"#

  /// eDP-1 lit as main, HDMI-1 plugged and covered by a window; the daemon's events recorded.
  final class Desk {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let clock = ManualClock()
    let surfaces = FakeSurfaceHost()
    let daemon: Daemon
    var events: [HeadEvent] = []
    let edid: [UInt8]

    init(grace: Double = 1.5, main: Bool = true) throws {
      var config = Config()
      config.disconnectGrace = grace
      edid = try hostileEDID(name: "ALPHA", serial: "1")
      daemon = try Daemon(
        server: server, surfaces: surfaces, painter: CairoPicturePainter(), config: config,
        log: Logger(level: .error) { _ in }, clock: clock)
      daemon.onEvents = { [unowned self] new, _, _ in events += new }
      try daemon.start()
      plug(edid: edid)
      try daemon.handleServerEvents()
      events = []
    }

    func plug(edid: [UInt8]?) {
      server.change {
        $0.outputs[1].connection = .connected
        $0.outputs[1].edid = edid
      }
    }

    /// The monitor goes: as on real hardware, its CRTC stays set until someone turns it off.
    func unplug() {
      server.change {
        $0.outputs[1].connection = .disconnected
        $0.outputs[1].edid = nil
      }
    }

    var window: SurfaceID? { daemon.monitors["HDMI-1"]?.surface }
    var kinds: [HeadEvent.Kind] { events.map(\.kind) }

    /// Time passes; the timer fires (the service's poll would see its descriptor).
    func wait(_ seconds: Double) throws {
      clock.advance(UInt64(seconds * 1e9))
      try daemon.graceTimerFired()
    }
  }

  @Test func aFlapWithinTheGraceChangesNothingAndReportsOnlyThatItWasPending() throws {
    let desk = try Desk()
    let window = try #require(desk.window)
    let (applies, requests, created) = (desk.server.applies, desk.server.requests, desk.daemon.counters.windowsCreated)
    desk.unplug()
    try desk.daemon.handleServerEvents()
    #expect(desk.daemon.graceTimerDescriptor != nil, "a timer while the disconnect waits")
    #expect(desk.window == window && desk.server.topology.crtcs[1].mode != nil, "its window and CRTC kept")
    try desk.wait(1)
    desk.plug(edid: desk.edid)
    try desk.daemon.handleServerEvents()
    #expect(desk.window == window, "the same window")
    #expect(desk.server.applies == applies && desk.server.requests == requests, "no request at all")
    #expect(desk.daemon.counters.windowsCreated == created && desk.daemon.counters.windowsDestroyed == 0)
    #expect(desk.kinds == [.disconnectPending], "no disconnected/connected pair")
    #expect(desk.events.first?.graceSeconds == 1.5)
    #expect(desk.daemon.graceTimerDescriptor == nil && desk.daemon.pendingDisconnects.isEmpty, "no timer left")
  }

  /// A monitor back within the grace whose scanout the server changed meanwhile (its CRTC
  /// moved, or turned off) is not back as it was: the config's layout is applied to it
  /// again, where a flap that left it as it was makes no request.
  @Test(arguments: ["moved", "off"])
  func aMonitorBackWithinTheGraceNotAsItWasIsPlannedAgain(change: String) throws {
    let desk = try Desk()
    let planned = desk.server.topology.crtcs[1]
    #expect(planned.mode != nil, "HDMI-1 lit on its CRTC")
    let applies = desk.server.applies
    desk.unplug()
    try desk.daemon.handleServerEvents()
    try desk.wait(1)
    desk.server.change { t in
      if change == "moved" {
        t.crtcs[1].x += 8
      } else {
        for i in t.outputs.indices where t.outputs[i].crtc == planned.id { t.outputs[i].crtc = nil }
        t.crtcs[1] = Crtc(id: planned.id, possibleOutputs: planned.possibleOutputs, rotations: planned.rotations)
      }
    }
    desk.plug(edid: desk.edid)
    try desk.daemon.handleServerEvents()
    #expect(desk.server.applies > applies, "the layout applied again")
    let now = desk.server.topology.crtcs[1]
    #expect((now.x, now.y, now.mode) == (planned.x, planned.y, planned.mode), "back where the rules put it")
    #expect(desk.daemon.pendingDisconnects.isEmpty && desk.daemon.graceTimerDescriptor == nil)
  }

  @Test func aMonitorNotBackWithinTheGraceIsHandledAsToday() throws {
    let desk = try Desk()
    desk.unplug()
    try desk.daemon.handleServerEvents()
    try desk.wait(1.4)
    #expect(desk.window != nil && desk.kinds == [.disconnectPending], "still waiting at 1.4 s")
    try desk.wait(0.2)
    #expect(desk.window == nil && desk.surfaces.held == 0, "window released")
    #expect(desk.server.topology.crtcs[1].mode == nil, "its CRTC turned off")
    #expect(desk.kinds == [.disconnectPending, .disconnected])
    #expect(desk.events.last?.head.name == "HDMI-1" && desk.surfaces.held == 0 && desk.surfaces.misuses == 0)
    #expect(desk.daemon.graceTimerDescriptor == nil, "no timer once nothing is pending")
  }

  /// With no timer to end the grace (timerfd_create failing: descriptors exhausted), a held
  /// disconnect would wait forever: window up, CRTC lit, no hook. It is handled at once.
  @Test func aGraceWithoutATimerHandlesTheDisconnectAtOnce() throws {
    let desk = try Desk()
    desk.daemon.layout.grace.makeTimer = { nil }
    desk.unplug()
    try desk.daemon.handleServerEvents()
    #expect(desk.window == nil && desk.server.topology.crtcs[1].mode == nil, "released and turned off now")
    #expect(desk.kinds.last == .disconnected && desk.daemon.pendingDisconnects.isEmpty)
  }

  @Test func aGraceOfZeroHandlesTheDisconnectAtOnce() throws {
    let desk = try Desk(grace: 0)
    desk.unplug()
    try desk.daemon.handleServerEvents()
    #expect(desk.window == nil && desk.kinds == [.disconnected] && desk.server.topology.crtcs[1].mode == nil)
    #expect(desk.daemon.graceTimerDescriptor == nil)
  }

  @Test func aReloadToAGraceOfZeroHandlesWhatWaitsAtOnce() throws {
    let desk = try Desk()
    desk.unplug()
    try desk.daemon.handleServerEvents()
    var config = desk.daemon.config
    config.disconnectGrace = 0
    try desk.daemon.reload(config)
    #expect(desk.window != nil && desk.daemon.graceTimerDescriptor != nil, "due now: the timer fires next")
    try desk.daemon.graceTimerFired()
    #expect(desk.window == nil && desk.kinds == [.disconnectPending, .disconnected])
  }

  @Test func anotherMonitorOnTheConnectorWithinTheGraceIsANewMonitor() throws {
    let desk = try Desk()
    let window = try #require(desk.window)
    desk.unplug()
    try desk.daemon.handleServerEvents()
    desk.plug(edid: try hostileEDID(name: "BETA", serial: "2"))
    try desk.daemon.handleServerEvents()
    #expect(Array(desk.kinds.prefix(3)) == [.disconnectPending, .disconnected, .connected], "\(desk.kinds)")
    #expect(desk.window != nil && desk.window != window, "a new window for the new monitor")
    #expect(desk.daemon.pendingDisconnects.isEmpty && desk.daemon.graceTimerDescriptor == nil)
  }

  @Test func aStormOfFlapsKeepsTheWindowAndMakesNoRequest() throws {
    let desk = try Desk()
    let window = try #require(desk.window)
    let (requests, opened) = (desk.server.requests, desk.surfaces.opened)
    for _ in 0..<20 {
      desk.unplug()
      try desk.daemon.handleServerEvents()
      desk.clock.advance(100_000_000)
      desk.plug(edid: desk.edid)
      try desk.daemon.handleServerEvents()
    }
    #expect(desk.window == window && desk.server.requests == requests && desk.surfaces.opened == opened)
    #expect(desk.kinds == Array(repeating: .disconnectPending, count: 20))
    #expect(desk.daemon.counters.windowsDestroyed == 0 && desk.daemon.pendingDisconnects.isEmpty)
  }

  @Test func aFlapLeavesTheProfileInForceAndAnUnplugAfterTheGraceLeavesIt() throws {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let clock = ManualClock()
    let config = try Config.parse(
      Array(
        """
        { profiles: [
            { name: "docked", outputs: [ { match: { output: "eDP-1" } },
                                         { match: { output: "HDMI-1" }, position: "right-of eDP-1" } ] },
            { name: "solo", outputs: [ { match: { output: "eDP-1" } } ] } ] }
        """.utf8), file: "c.json5")
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet,
      clock: clock)
    try daemon.start()
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(daemon.activeProfile.name == "docked")
    let requests = server.requests
    server.change { $0.outputs[1].connection = .disconnected }
    try daemon.handleServerEvents()
    #expect(daemon.activeProfile.name == "docked", "no switch during the grace")
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(daemon.activeProfile.name == "docked" && server.requests == requests, "nothing applied for a flap")
    server.change { $0.outputs[1].connection = .disconnected }
    try daemon.handleServerEvents()
    clock.advance(2_000_000_000)
    try daemon.graceTimerFired()
    #expect(daemon.activeProfile.name == "solo", "after the grace, as today")
  }

  @Test func aDisconnectWhileTheScreenIsBlankedIsHeldUntilItIsOnAgain() throws {
    let desk = try Desk()
    desk.server.blanked = true
    desk.unplug()
    try desk.daemon.handleServerEvents()
    try desk.wait(1.6)
    try desk.wait(30)
    #expect(desk.window != nil && desk.kinds == [.disconnectPending], "held past the grace while blanked")
    #expect(desk.daemon.graceTimerDescriptor != nil, "looked at again while held")
    desk.server.blanked = false
    try desk.wait(1)
    #expect(desk.window != nil, "once the screen is on, the monitor has the grace again to wake up")
    try desk.wait(1.5)
    #expect(desk.window == nil && desk.kinds == [.disconnectPending, .disconnected], "then handled")
    #expect(desk.server.topology.crtcs[1].mode == nil && desk.daemon.graceTimerDescriptor == nil)
  }

  @Test func aMonitorBackSoonAfterTheScreenIsOnIsLeftAsItWas() throws {
    let desk = try Desk()
    let window = try #require(desk.window)
    desk.server.blanked = true
    desk.unplug()
    try desk.daemon.handleServerEvents()
    try desk.wait(600)
    desk.server.blanked = false
    try desk.wait(1)
    desk.plug(edid: desk.edid)
    try desk.daemon.handleServerEvents()
    #expect(desk.window == window && desk.kinds == [.disconnectPending] && desk.daemon.pendingDisconnects.isEmpty)
  }

  @Test func aMonitorBackWhileTheScreenIsBlankedIsLeftAsItWas() throws {
    let desk = try Desk()
    let window = try #require(desk.window)
    desk.server.blanked = true
    desk.unplug()
    try desk.daemon.handleServerEvents()
    try desk.wait(20)
    desk.plug(edid: desk.edid)
    try desk.daemon.handleServerEvents()
    #expect(desk.window == window && desk.kinds == [.disconnectPending])
  }

  @Test func theLastLitMonitorIsNotHeldByTheBlankedScreenPastTheGrace() throws {
    // A desktop with one monitor, the main one: when it goes, nothing else is lit.
    let server = FakeDisplayServer(TopologyBuilder.topology(["HDMI-1", "DP-1"], on: ["HDMI-1": TopologyBuilder.m1080]))
    let clock = ManualClock()
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: Config(), log: quiet,
      clock: clock)
    var kinds: [HeadEvent.Kind] = []
    daemon.onEvents = { events, _, _ in kinds += events.map(\.kind) }
    try daemon.start()
    server.blanked = true
    server.change { $0.outputs[0].connection = .disconnected }
    try daemon.handleServerEvents()
    clock.advance(1_400_000_000)
    try daemon.graceTimerFired()
    #expect(kinds == [.disconnectPending], "the grace still applies")
    clock.advance(200_000_000)
    try daemon.graceTimerFired()
    #expect(kinds.contains(.disconnected), "never a dark desk past the grace: \(kinds)")
    #expect(daemon.pendingDisconnects.isEmpty && daemon.graceTimerDescriptor == nil)
  }
}
