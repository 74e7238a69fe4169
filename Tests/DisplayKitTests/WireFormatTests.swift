import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayRender
import DisplayService
import DisplaySupport
import Foundation
import Testing

/// The exact bytes the control socket and the CLI print for one fixed daemon state: the status
/// answer (`status --json`), its text (`status`), an event record (`watch --json`) and the
/// lines made from it (`watch`, the daemon's log). Pinned, so a refactoring of how they are
/// built cannot change a byte.
@Suite struct WireFormatIsPinned {
  /// A daemon managing HDMI-1 (an EDID'd monitor) beside the main eDP-1, on the fake server,
  /// with its status answer and the events of the plug.
  func plugged() throws -> (daemon: Daemon, events: [HeadEvent], heads: HeadSnapshot) {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: Config(),
      log: Logger(level: .error) { _ in })
    try daemon.start()
    var seen: [HeadEvent] = []
    daemon.onEvents = { events, _, _ in seen += events }
    let edid = try hostileEDID(name: "PIN\"NAME", serial: "S-1")
    server.change {
      $0.outputs[1].connection = .connected
      $0.outputs[1].edid = edid
    }
    try daemon.handleServerEvents()
    return (daemon, seen, daemon.heads)
  }

  /// The status answer with its two wall-clock times replaced by placeholders.
  func statusLine(_ daemon: Daemon, error: String?) -> String {
    var line = daemon.statusJSON(configPath: "/home/u/.config/displayd/config.json5", configError: error)
      .serialized()
    // The daemon's time comes first; a monitor's may be the same millisecond.
    if let start = line.firstRange(of: "\"since\":\"\(daemon.startedAt)\"") {
      line.replaceSubrange(start, with: "\"since\":\"START\"")
    }
    for monitor in daemon.monitors.values {
      line = line.replacing("\"since\":\"\(monitor.since)\"", with: "\"since\":\"SINCE\"")
    }
    return line
  }

  static let status =
    #"{"display":":fake","since":"START","config":"/home/u/.config/displayd/config.json5","config_error":null,"main":"eDP-1","lid":"open","profile":{"name":null,"reason":"none"},"layout":{"by_hand":false,"profile":null,"builtin":null},"monitors":[{"output":"HDMI-1","identity":{"manufacturer":"ACR","product_name":"PIN\"NAME","serial":"S-1","display_id":"ACR-1a-818181fb-1017f53c794686bd"},"mode":"1920x1080@60.00","geometry":{"x":1920,"y":0,"width":1920,"height":1080},"window":4194305,"content":"placeholder","level":"normal","since":"SINCE"}],"counters":{"reconciles":2,"reconciles_changed":1,"windows_created":1,"windows_destroyed":0,"redraws":1,"composites":0,"probes":0},"xft_dpi":null,"xsettings":null,"desktop":{"manager":null,"desktop":null,"policy":"auto","layout":"displayd"}}"#

  static let connected =
    #"{"event":"connected","output":"HDMI-1","time":"2026-12-01T10:00:00.000Z","id":101,"connected":true,"connection":"connected","primary":false,"main":false,"crtc":null,"rotation":null,"current_mode":null,"mm":null,"non_desktop":false,"identity":{"manufacturer":"ACR","product_code":26,"serial_number":2172748283,"product_name":"PIN\"NAME","serial_string":"S-1","edid_version":"1.3","extension_count":0,"checksum_ok":true,"max_image_size_cm":[41,26],"preferred_mode":{"width":1440,"height":900,"refresh_hz":59.887,"pixel_clock_khz":106500,"interlaced":false},"manufacture_year":2008,"manufacture_week":18,"model_year":null,"input_type":"analog","block_count":1,"extension_block_types":[],"extension_checksums_ok":[],"display_id":"ACR-1a-818181fb-1017f53c794686bd","warnings":[]}}"#
  static let modeChanged =
    #"{"event":"mode-changed","output":"HDMI-1","time":"2026-12-01T10:00:00.000Z","id":101,"connected":true,"connection":"connected","primary":false,"main":false,"crtc":{"x":1920,"y":0,"width":1920,"height":1080},"rotation":"normal","current_mode":{"id":1,"name":"1920x1080","width":1920,"height":1080,"refresh_hz":60.0,"current":true,"preferred":true,"interlaced":false,"doublescan":false,"dot_clock_hz":148500000},"mm":null,"non_desktop":false,"identity":{"manufacturer":"ACR","product_code":26,"serial_number":2172748283,"product_name":"PIN\"NAME","serial_string":"S-1","edid_version":"1.3","extension_count":0,"checksum_ok":true,"max_image_size_cm":[41,26],"preferred_mode":{"width":1440,"height":900,"refresh_hz":59.887,"pixel_clock_khz":106500,"interlaced":false},"manufacture_year":2008,"manufacture_week":18,"model_year":null,"input_type":"analog","block_count":1,"extension_block_types":[],"extension_checksums_ok":[],"display_id":"ACR-1a-818181fb-1017f53c794686bd","warnings":[]}}"#

  @Test func theStatusAnswer() throws {
    let (daemon, _, _) = try plugged()
    #expect(statusLine(daemon, error: nil) == Self.status)
  }

  @Test func theStatusText() throws {
    let (daemon, _, _) = try plugged()
    let answer = try StatusAnswer.decode(Array(statusLine(daemon, error: "line 3: defaults.level").utf8))
    #expect(
      StatusReport.text(answer) == """
        displayd on :fake since START, main eDP-1
        config: /home/u/.config/displayd/config.json5 (error: line 3: defaults.level; previous config in force)
        profile: none
        layout: automatic
          HDMI-1 [ACR PIN"NAME]: 1920x1080@60.00, window 0x400001, placeholder, level normal, since SINCE
        reconciles: 2 (1 changed the layout); windows created 1, destroyed 0
        desktop: none seen, policy auto: displayd lays the monitors out

        """)
  }

  /// The desktop is the answer's last key: every byte before it is as it was, and an answer
  /// without it (an older daemon's) still reads, its text without the desktop line.
  @Test func theDesktopKeyComesLastAndMayBeMissing() throws {
    let (daemon, _, _) = try plugged()
    let line = statusLine(daemon, error: nil)
    let old = try #require(line.firstRange(of: #","desktop":"#)).lowerBound
    let answer = try StatusAnswer.decode(Array((String(line[..<old]) + "}").utf8))
    #expect(answer.desktop == nil)
    #expect(!StatusReport.text(answer).contains("desktop:"))
  }

  @Test func theEventRecordAndItsLines() throws {
    let (_, events, heads) = try plugged()
    #expect(events.map(\.kind) == [.connected, .modeChanged])
    let lines = events.map { JSON.record(EventRecord($0, in: heads, time: "2026-12-01T10:00:00.000Z")).serialized() }
    #expect(lines == [Self.connected, Self.modeChanged])
    #expect(
      try lines.map { EventReport.text(try EventRecord.decode(Array($0.utf8))) } == [
        // Through the daemon the line is the one `watch` prints itself. (Before the record was
        // decoded as such, a whole refresh rate such as 60.0 read back as an integer and the
        // mode was left out of this line.)
        "2026-12-01T10:00:00.000Z connected HDMI-1",
        "2026-12-01T10:00:00.000Z mode-changed HDMI-1 1920x1080+1920+0 1920x1080@60.00",
      ])
    #expect(
      events.map { EventReport.text($0, time: "T") } == [
        "T connected HDMI-1", "T mode-changed HDMI-1 1920x1080+1920+0 1920x1080@60.00",
      ])
    let records = events.map { EventRecord($0, in: heads, time: "2026-12-01T10:00:00.000Z") }
    #expect(try lines.map { try EventRecord.decode(Array($0.utf8)) } == records, "read back whole")
    #expect(
      events.map(\.summary) == ["connected HDMI-1", "mode-changed HDMI-1 1920x1080+1920+0 1920x1080@60.00"])
  }
}

/// The records the CLI prints are built by hand (`JSONRecord`, for start-up time); their
/// `Encodable` conformances stay the definition, so the hand-built value must be the one
/// `JSON(encoding:)` makes from it, with every optional nil and set.
@Suite struct HandBuiltRecordsMatchTheirEncodable {
  func expectSame<T: JSONRecord>(_ record: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(record.json.serialized() == (try JSON(encoding: record)).serialized(), sourceLocation: sourceLocation)
  }

  @Test func everyEDIDFixture() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: fixtureFolder).filter { $0.hasSuffix(".bin") }
    #expect(files.count == 6)
    for file in files {
      var record = EDIDRecord(try EDID(bytes: Array(try readFile(fixtureFolder + "/" + file).get())))
      try expectSame(record)
      try expectSame(try #require(record.preferredMode))
      (record.serialNumber, record.productName, record.serialString) = (nil, nil, nil)
      (record.maxImageSizeCm, record.preferredMode) = (nil, nil)
      (record.manufactureYear, record.manufactureWeek, record.modelYear) = (nil, nil, 7)
      (record.extensionBlockTypes, record.extensionChecksumsOK, record.warnings) = (["CTA-861"], [false], ["w\"1"])
      try expectSame(record)
    }
  }

  @Test func outputsModesAndEvents() throws {
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let heads = try server.snapshot(ReadOptions()).randrHeads()
    let lit = try #require(heads.heads.first)
    let dark = try #require(heads.heads.last)
    for head in [lit, dark] {
      try expectSame(OutputRecord(head, in: heads))
      try expectSame(OutputState(head, in: heads))
      for mode in head.modes {
        try expectSame(ModeRecord(mode, bridgeID: ModeID(rawValue: 1), current: true))
      }
      try expectSame(EventRecord(HeadEvent(.connected, showing: head), in: heads, time: "T"))
    }
    var state = OutputState(lit, in: heads)
    #expect(state.crtc != nil && state.currentMode != nil && state.rotation != nil)
    state.identity = EDIDRecord(try EDID(bytes: try hostileEDID(name: "N\\\u{1}", serial: "S")))
    try expectSame(state)
    try expectSame(RectRecord(Rect(x: -5, y: 7, width: 1, height: 2)))
  }
}
