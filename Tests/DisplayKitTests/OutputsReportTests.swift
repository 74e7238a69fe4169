import DisplayCLI
import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import Testing

@testable import DisplayX11

/// `outputs` and `modes`, as text and as `--json`, are made from the heads a backend reads:
/// on random X desks (the RandR backend's heads) and Wayland desks the documents and lines
/// are those a person reviewed once (`Fixtures/golden/outputs-x.txt`, `outputs-wayland.txt`;
/// each report's lines joined by `\n`, the reports by ` || `), so that scripts that parse
/// them see the same whichever backend the CLI reads.
@Suite struct OutputsReportTests {
  @Test func theReportsOfTheRandRBackendsHeadsOnRandomDesks() throws {
    try GoldenDesks.expectGolden("outputs-x", minimum: 30) { seed in
      var r = SimRandom(seed: seed)
      let heads = try RandROutputManager(server: FakeRandRServer(WireDesk.topology(&r))).heads(probe: false)
      return try Self.reports(heads, text: HeadReport.outputsText(heads))
    }
  }

  @Test func theReportsOfWaylandHeadsOnRandomDesks() throws {
    try GoldenDesks.expectGolden("outputs-wayland", minimum: 30) { seed in
      let heads = try WireDesk.wayland(seed: seed).bounded().snapshot
      let lines = heads.heads.map { HeadReport.outputLine($0, in: heads) }.joined(separator: "\n")
      return try Self.reports(heads, text: lines)
    }
  }

  /// The outputs' text, every head's modes as text, the outputs' document and the modes'
  /// documents of the connected heads and of every head by name.
  static func reports(_ heads: HeadSnapshot, text: String) throws -> String {
    let names = heads.heads.map(\.name)
    return [
      text, HeadReport.modesText(heads.heads, in: heads), HeadReport.outputsJSON(heads).serialized(),
      HeadReport.modesJSON(try heads.heads(named: [])).serialized(),
      HeadReport.modesJSON(try heads.heads(named: names)).serialized(),
    ].map(CheckReportGoldenTests.escaped).joined(separator: " || ")
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
