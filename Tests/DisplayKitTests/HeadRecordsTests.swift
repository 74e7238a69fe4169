import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import Testing

@testable import DisplayX11

/// The state records made from heads (`outputs --json`, `watch --json` and the socket's
/// events): on random RandR desks the heads carry the server's facts (ids, mode names, dot
/// clocks, double scan, interlace, `unknown`); on Wayland desks ids come from names, modes are
/// named by size, dot clocks are pixel rates. The records of each desk's heads and of the
/// events `SnapshotDiff` finds between two desks are those a person reviewed once
/// (`Fixtures/golden/records-x.txt`, `records-wayland.txt`; records joined by ` | `).
@Suite struct HeadRecordsTests {
  static func line<T: JSONRecord>(_ record: T) -> String { JSON.record(record).serialized() }

  /// What the backend reads from `t`: the RandR output manager's heads.
  static func heads(_ t: Topology) throws -> HeadSnapshot {
    try RandROutputManager(server: FakeRandRServer(t)).heads(probe: false)
  }

  @Test func theRecordsOfTheRandRBackendsHeadsOnRandomDesks() throws {
    try GoldenDesks.expectGolden("records-x", minimum: 40) { try Self.recordsOnX($0) }
  }

  @Test func theRecordsOfWaylandHeadsOnRandomDesks() throws {
    try GoldenDesks.expectGolden("records-wayland", minimum: 40) { try Self.recordsOnWayland($0) }
  }

  /// An output the server no longer lists while its CRTC is lit for another: the gone
  /// output's disconnect shows it dark (not the CRTC that now lights the other), the other's
  /// change shows what it shows now.
  @Test func anOutputNoLongerListedWhileItsCrtcLightsAnotherIsRecordedDark() throws {
    let B = TopologyBuilder.self
    let before = B.topology(["DP-1", "HDMI-1"], on: ["DP-1": B.m1080])
    var after = before
    after.outputs[1].connection = .connected
    after.outputs[1].crtc = before.crtcs[0].id
    after.crtcs[0].outputs = [after.outputs[1].id]
    after.crtcs[0].possibleOutputs.append(after.outputs[1].id)
    after.outputs.removeFirst()
    let (old, new) = (try Self.heads(before), try Self.heads(after))
    let records = SnapshotDiff.events(from: old, to: new).map { Self.line(EventRecord($0, in: new, time: "T")) }
    #expect(records == Self.goneWhileItsCrtcIsLit, "\(records)")
  }

  /// Written out once from the product and reviewed: HDMI-1 lit on the CRTC, DP-1 gone with
  /// no CRTC (as it was, connected, its last state), main moved to HDMI-1.
  static let goneWhileItsCrtcIsLit = [
    #"{"event":"connected","output":"HDMI-1","time":"T","id":101,"connected":true,"connection":"connected","primary":false,"main":true,"crtc":{"x":0,"y":0,"width":1920,"height":1080},"rotation":"normal","current_mode":{"id":1,"name":"1920x1080","width":1920,"height":1080,"refresh_hz":60.0,"current":true,"preferred":true,"interlaced":false,"doublescan":false,"dot_clock_hz":148500000},"mm":null,"non_desktop":false,"identity":null}"#,
    #"{"event":"disconnected","output":"DP-1","time":"T","id":100,"connected":true,"connection":"connected","primary":false,"main":false,"crtc":null,"rotation":null,"current_mode":null,"mm":null,"non_desktop":false,"identity":null}"#,
    #"{"event":"primary-changed","output":"HDMI-1","time":"T","id":101,"connected":true,"connection":"connected","primary":false,"main":true,"crtc":{"x":0,"y":0,"width":1920,"height":1080},"rotation":"normal","current_mode":{"id":1,"name":"1920x1080","width":1920,"height":1080,"refresh_hz":60.0,"current":true,"preferred":true,"interlaced":false,"doublescan":false,"dot_clock_hz":148500000},"mm":null,"non_desktop":false,"identity":null}"#,
  ]

  /// Two random RandR desks of one server's modes: the second's output records, then the
  /// event records from the first to the second.
  static func recordsOnX(_ seed: UInt64) throws -> String {
    var r = SimRandom(seed: seed)
    let a = WireDesk.topology(&r)
    var b = WireDesk.topology(&r)
    b.modes = a.modes
    let (before, after) = (try heads(a), try heads(b))
    return records(before, after)
  }

  /// Two Wayland desks: the second's head records, then the event records between them.
  static func recordsOnWayland(_ seed: UInt64) throws -> String {
    let before = try WireDesk.wayland(seed: seed &+ 1_000_000)
    return records(before, try WireDesk.wayland(seed: seed))
  }

  static func records(_ before: HeadSnapshot, _ after: HeadSnapshot) -> String {
    let outputs = after.heads.map { line(OutputRecord($0, in: after)) }
    let events = SnapshotDiff.events(from: before, to: after).map { line(EventRecord($0, in: after, time: "T")) }
    return "outputs: " + outputs.joined(separator: " | ") + " || events: " + events.joined(separator: " | ")
  }

  /// RandR says `unknown` when it cannot tell whether a monitor is attached: the head is not
  /// connected, and the wire says the server's word and the output's XID.
  @Test func aRandROutputWhoseConnectionTheServerCannotTellSaysUnknown() throws {
    var t = TopologyBuilder.topology(["VGA-1", "HDMI-1"], on: ["HDMI-1": TopologyBuilder.m1080])
    t.outputs[0].connection = .unknown
    let snapshot = try Self.heads(t)
    let head = try #require(snapshot.head(named: "VGA-1"))
    #expect(!head.connected && head.connection == .unknown)
    let record = Self.line(OutputRecord(head, in: snapshot))
    #expect(record.hasPrefix(#"{"name":"VGA-1","id":100,"connected":false,"connection":"unknown","#), "\(record)")
  }

  /// A mode displayd made keeps the server's name, id and dot clock on the wire.
  @Test func aCustomModeKeepsItsServerNameOnTheWire() throws {
    let custom = Mode(
      id: ModeID(rawValue: 0x4a), name: CustomModes.prefix + "1600x700_60.00", width: 1600, height: 700,
      dotClock: 92_250_000, hTotal: 2080, vTotal: 741, flags: [.hSyncNegative, .vSyncPositive])
    var t = TopologyBuilder.topology(["DP-1"], on: ["DP-1": custom])
    t.modes[custom.id] = custom
    t.outputs[0].modes.append(custom.id)
    let snapshot = try Self.heads(t)
    let head = try #require(snapshot.heads.first)
    let mode = try #require(OutputRecord(head, in: snapshot).state.currentMode)
    #expect((mode.id, mode.name, mode.dotClockHz) == (0x4a, "displayd-1600x700_60.00", 92_250_000))
    #expect(mode.refreshHz == 59.853 && head.mode?.custom == true)
  }

  /// A Wayland head has no server id: its record's id is FNV-1a over its name (40 bits, the
  /// low bit set), its preferred mode's the head's id shifted 12 bits with slot 1, and its
  /// dot clock the mode's pixel rate.
  @Test func aWaylandHeadsIdIsTheFNVHashOfItsName() throws {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in "HDMI-A-1".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    let id = Int(hash & 0xff_ffff_ffff | 1)
    let modes = [
      HeadMode(width: 1280, height: 720, refreshMilliHz: 60000),
      HeadMode(width: 1920, height: 1080, refreshMilliHz: 59940, preferred: true),
    ]
    let head = Head(name: "HDMI-A-1", enabled: true, modes: modes, currentMode: 1)
    let state = OutputState(head, in: HeadSnapshot(heads: [head]))
    #expect(state.id == id && state.connection == "connected" && state.main)
    let mode = try #require(state.currentMode)
    #expect((mode.id, mode.name, mode.dotClockHz, mode.refreshHz) == (id << 12 | 1, "1920x1080", 124_291_584, 59.94))
  }
}
