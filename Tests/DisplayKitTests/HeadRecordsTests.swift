import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import Testing

@testable import DisplayX11

/// The state records made from heads are the bytes the records of the topology the heads
/// report make: `outputs --json`, `watch --json` and the socket's events cannot change
/// when the service reports heads. On RandR the heads carry the server's facts (ids, mode
/// names, dot clocks, double scan, `unknown`); on Wayland the records are the bridge's.
@Suite struct HeadRecordsTests {
  static let desks = 3000

  static func line<T: JSONRecord>(_ record: T) -> String { JSON.record(record).serialized() }

  /// What the backend reads from `t`: the RandR output manager's heads.
  static func heads(_ t: Topology) throws -> HeadSnapshot {
    try RandROutputManager(server: FakeRandRServer(t)).heads(probe: false)
  }

  @Test func theOutputRecordsOfTheRandRBackendsHeadsAreTheRecordsOfTheirTopologyOnRandomDesks() throws {
    var (manager, converted, reflected) = (RecordTally(), RecordTally(), 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      let t = WireDesk.topology(&r)
      let (read, made) = (try Self.heads(t), HeadSnapshot(topology: t))
      for (i, output) in t.outputs.enumerated() {
        let old = Self.line(OutputRecord(output, in: t))
        manager.compare(old, Self.line(OutputRecord(read.heads[i], in: read)), "seed \(seed) \(output.name)")
        converted.compare(old, Self.line(OutputRecord(made.heads[i], in: made)), "seed \(seed) \(output.name)")
      }
      reflected += t.crtcs.filter { $0.isActive && $0.rotation.contains(.reflectY) }.count
    }
    print(
      "outputs --json on \(Self.desks) RandR desks: \(manager.summary); from the tests' own conversion of the "
        + "desks \(converted.differ.count) differ; \(reflected) CRTCs reflected in y")
    #expect(manager.differ.isEmpty, "\(manager.differ.count) differ: \(manager.differ.prefix(2))")
    #expect(converted.differ.isEmpty, "\(converted.differ.count) differ: \(converted.differ.prefix(2))")
    manager.expectCoverage()
    #expect(reflected > 100)
  }

  /// Events of two random desks, by `TopologyDiff` over the topologies and by `HeadDiff`
  /// over the heads the backend reads, as `watch --json` lines. An output that the second
  /// desk no longer lists is shown dark from heads; the topology's record looks its old CRTC up in
  /// the new desk, which can be lit for another output there (RandR keeps its outputs, so
  /// only a desk drawn from scratch has this): those are counted apart.
  @Test func theEventRecordsOfHeadDiffAreThoseOfTopologyDiffOnRandomRandRDesks() throws {
    var (tally, borrowed, events) = (RecordTally(), 0, 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      let a = WireDesk.topology(&r)
      var b = WireDesk.topology(&r)
      // One server's modes: an id is the same mode in both.
      b.modes = a.modes
      let old = TopologyDiff.events(from: a, to: b)
      let new = HeadDiff.events(from: try Self.heads(a), to: try Self.heads(b))
      let snapshot = try Self.heads(b)
      guard old.count == new.count else {
        tally.differ.append("seed \(seed): \(old.map(\.summary)) against \(new.map(\.summary))")
        continue
      }
      events += old.count
      for (o, n) in zip(old, new) {
        let (before, after) = (
          Self.line(EventRecord(o, in: b, time: "T")), Self.line(EventRecord(n, in: snapshot, time: "T"))
        )
        if before != after, b.output(o.output.id) == nil, let crtc = o.output.crtc, b.crtc(crtc)?.isActive == true {
          borrowed += 1
          #expect(after.contains(#""crtc":null,"rotation":null,"current_mode":null"#), "seed \(seed): \(after)")
          continue
        }
        tally.compare(before, after, "seed \(seed) \(o.summary)")
      }
    }
    print(
      "watch --json on \(Self.desks) RandR desk pairs: \(events) events, \(tally.differ.count) differ, "
        + "\(borrowed) of outputs no longer listed whose old CRTC the new desk lights")
    #expect(tally.differ.isEmpty, "\(tally.differ.count) differ: \(tally.differ.prefix(2))")
    #expect(events > Self.desks)
  }

  /// Wayland heads state no server facts: their records are those of the topology the bridge
  /// makes of them (ids from names, modes named by size, dot clocks their pixel rates, no
  /// interlace), for `outputs --json` and for each event `HeadDiff` finds.
  @Test func theRecordsOfWaylandHeadsAreTheRecordsOfTheirBridgedTopologyOnRandomDesks() throws {
    var (outputs, events) = (RecordTally(), RecordTally())
    for seed in UInt64(1)...UInt64(Self.desks) {
      let (before, _) = try WireDesk.wayland(seed: seed &+ 1_000_000)
      let (snapshot, t) = try WireDesk.wayland(seed: seed)
      for head in snapshot.heads {
        let output = try #require(t.output(named: head.name))
        outputs.compare(
          Self.line(OutputRecord(output, in: t)), Self.line(OutputRecord(head, in: snapshot)), "seed \(seed)")
      }
      let old = Topology(heads: before)
      for event in HeadDiff.events(from: before, to: snapshot) {
        let output = try #require(t.output(named: event.head.name) ?? old.output(named: event.head.name))
        let bridged = TopologyEvent(kind: event.kind, output: output, graceSeconds: event.graceSeconds)
        events.compare(
          Self.line(EventRecord(bridged, in: t, time: "T")), Self.line(EventRecord(event, in: snapshot, time: "T")),
          "seed \(seed) \(event.summary)")
      }
    }
    print("Wayland desks: outputs --json \(outputs.summary); watch --json \(events.summary)")
    #expect(outputs.differ.isEmpty, "\(outputs.differ.count) differ: \(outputs.differ.prefix(2))")
    #expect(events.differ.isEmpty, "\(events.differ.count) differ: \(events.differ.prefix(2))")
    #expect(outputs.identities > 500 && events.records > Self.desks)
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
    #expect(record == Self.line(OutputRecord(t.outputs[0], in: t)))
  }

  /// A mode displayd made keeps the server's name, id and dot clock on the wire, which the
  /// bridge (naming a mode by its size) would lose.
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
    #expect(Self.line(OutputRecord(head, in: snapshot)) == Self.line(OutputRecord(t.outputs[0], in: t)))
    let bridged = Topology(heads: snapshot)
    #expect(bridged.currentMode(of: bridged.outputs[0])?.name == "1600x700", "the bridge names it by its size")
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

/// How many records were compared, which differ, and how many showed each fact.
struct RecordTally {
  var records = 0
  var differ: [String] = []
  var unknown = 0, custom = 0, doubleScan = 0, interlaced = 0, identities = 0

  mutating func compare(_ old: String, _ new: String, _ context: @autoclosure () -> String) {
    records += 1
    unknown += old.contains(#""connection":"unknown""#) ? 1 : 0
    custom += old.contains(#""name":"\#(CustomModes.prefix)"#) ? 1 : 0
    doubleScan += old.contains(#""doublescan":true"#) ? 1 : 0
    interlaced += old.contains(#""interlaced":true"#) ? 1 : 0
    identities += old.contains(#""identity":{"#) ? 1 : 0
    if old != new { differ.append("\(context())\n  topology: \(old)\n  heads:    \(new)") }
  }

  var summary: String {
    "\(records) records, \(differ.count) differ (unknown \(unknown), custom modes \(custom), "
      + "double scan \(doubleScan), interlaced \(interlaced), EDID identities \(identities))"
  }

  /// Each fact the heads carry for the wire was on it often enough to be compared.
  func expectCoverage(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(unknown > 100 && custom > 100, "\(summary)", sourceLocation: sourceLocation)
    #expect(doubleScan > 100 && interlaced > 100 && identities > 1000, "\(summary)", sourceLocation: sourceLocation)
  }
}
