import DisplayCLI
import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import Testing

@testable import DisplayX11

/// `outputs --json` is made from the heads a backend reads, and its bytes are those the
/// topology the heads report gives: scripts that parse it see no change whichever
/// representation the CLI reads.
@Suite struct OutputsReportOverHeads {
  static let desks = 3000

  @Test func theRandRBackendsHeadsGiveTheTopologysDocumentOnRandomDesks() throws {
    var (differ, lit) = ([UInt64](), 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      let t = WireDesk.topology(&r)
      let heads = try RandROutputManager(server: FakeRandRServer(t)).heads(probe: false)
      let (old, new) = (TopologyReport.outputsJSON(t).serialized(), TopologyReport.outputsJSON(heads).serialized())
      if old != new { differ.append(seed) }
      lit += t.screen.width > 0 ? 1 : 0
    }
    #expect(differ.isEmpty, "\(differ.count) of \(Self.desks) differ, seeds \(differ.prefix(5))")
    #expect(lit > Self.desks / 2, "most desks light a screen")
  }

  @Test func waylandHeadsGiveTheirBridgedTopologysDocumentOnRandomDesks() throws {
    var (differ, wide) = ([UInt64](), 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      let (snapshot, t) = try WireDesk.wayland(seed: seed)
      let old = TopologyReport.outputsJSON(t).serialized()
      let new = TopologyReport.outputsJSON(snapshot.bounded().snapshot).serialized()
      if old != new { differ.append(seed) }
      wide += t.screen.width > 1920 ? 1 : 0
    }
    #expect(differ.isEmpty, "\(differ.count) of \(Self.desks) differ, seeds \(differ.prefix(5))")
    #expect(wide > 100, "desks wider than one monitor were drawn")
  }

  /// `modes --json` alike, for the connected heads (no names given) and for every head by name.
  @Test func modesOfTheRandRBackendsHeadsGiveTheTopologysDocumentOnRandomDesks() throws {
    var (differ, modes) = ([UInt64](), 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      let t = WireDesk.topology(&r)
      let heads = try RandROutputManager(server: FakeRandRServer(t)).heads(probe: false)
      for names in [[], t.outputs.map(\.name)] {
        let old = TopologyReport.modesJSON(try t.outputs(named: names), in: t).serialized()
        let new = TopologyReport.modesJSON(try heads.heads(named: names)).serialized()
        if old != new { differ.append(seed) }
      }
      modes += t.modes.count
    }
    #expect(differ.isEmpty, "\(differ.count) of \(Self.desks) differ, seeds \(differ.prefix(5))")
    #expect(modes > Self.desks * 3)
  }

  @Test func modesOfWaylandHeadsGiveTheirBridgedTopologysDocumentOnRandomDesks() throws {
    var differ: [UInt64] = []
    for seed in UInt64(1)...UInt64(Self.desks) {
      let (snapshot, t) = try WireDesk.wayland(seed: seed)
      for names in [[], t.outputs.map(\.name)] {
        let old = TopologyReport.modesJSON(try t.outputs(named: names), in: t).serialized()
        let new = TopologyReport.modesJSON(try snapshot.bounded().snapshot.heads(named: names)).serialized()
        if old != new { differ.append(seed) }
      }
    }
    #expect(differ.isEmpty, "\(differ.count) of \(Self.desks) differ, seeds \(differ.prefix(5))")
  }

  /// The text reports alike: `outputs` and `modes` (of every head) print the topology's
  /// lines from the RandR backend's heads, and the Wayland lines (scale, flip, make) from
  /// wlroots heads.
  @Test func theTextReportsOfTheRandRBackendsHeadsAreTheTopologysOnRandomDesks() throws {
    var (differ, interlaced) = ([String](), 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      let t = WireDesk.topology(&r)
      let heads = try RandROutputManager(server: FakeRandRServer(t)).heads(probe: false)
      if TopologyReport.outputsText(t) != TopologyReport.outputsText(heads) { differ.append("outputs \(seed)") }
      let old = TopologyReport.modesText(t.outputs, in: t)
      if old != TopologyReport.modesText(heads.heads, in: heads) { differ.append("modes \(seed)") }
      interlaced += old.contains(" interlace") ? 1 : 0
    }
    #expect(differ.isEmpty, "\(differ.count) of \(Self.desks) differ: \(differ.prefix(5))")
    #expect(interlaced > 10, "interlaced modes were drawn")
  }

  @Test func theTextReportsOfWaylandHeadsAreTheirBridgedTopologysOnRandomDesks() throws {
    var differ: [String] = []
    for seed in UInt64(1)...UInt64(Self.desks) {
      let (snapshot, t) = try WireDesk.wayland(seed: seed)
      let bounded = snapshot.bounded().snapshot
      let oldLines = t.outputs.map { TopologyReport.outputLine($0, in: t) }
      let newLines = bounded.heads.map { TopologyReport.outputLine($0, in: bounded) }
      if oldLines != newLines { differ.append("outputs \(seed)") }
      let old = TopologyReport.modesText(t.outputs, in: t)
      if old != TopologyReport.modesText(bounded.heads, in: bounded) { differ.append("modes \(seed)") }
    }
    #expect(differ.isEmpty, "\(differ.count) of \(Self.desks) differ: \(differ.prefix(5))")
  }

  @Test func anUnknownHeadNameIsRefusedNamingTheHeadsThereAre() {
    let snapshot = HeadSnapshot(heads: [Head(name: "A"), Head(name: "B", connected: false)])
    #expect(throws: DisplayError.unknownOutput(name: "C", available: ["A", "B"])) {
      try snapshot.heads(named: ["C"])
    }
    #expect((try? snapshot.heads(named: []))?.map(\.name) == ["A"])
  }

  /// A compositor states no screen: the lit heads' bounds stand in, from the origin, and a
  /// head placed left of it or dark adds nothing.
  @Test func aSnapshotWithoutAScreenReportsTheLitHeadsBounds() {
    var left = Head(name: "A", connected: true, enabled: true)
    left.modes = [HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000)]
    (left.currentMode, left.x, left.y) = (0, -1920, 0)
    var right = left
    (right.name, right.x, right.y) = ("B", 1000, 200)
    var dark = right
    (dark.name, dark.enabled, dark.x) = ("C", false, 9000)
    let bounds = HeadSnapshot(heads: [left, right, dark]).litBounds
    #expect((bounds.width, bounds.height, bounds.maxWidth) == (2920, 1280, 0))
    #expect(HeadSnapshot(heads: [dark]).litBounds.width == 0)
  }
}
