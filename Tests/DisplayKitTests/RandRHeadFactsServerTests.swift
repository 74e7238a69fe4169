import DisplayModel
import DisplayPorts
import Foundation
import Testing
import XRig

@testable import DisplayX11

extension XServerTests {
  /// What a RandR head says beyond its transform, against real servers: the spelling of the
  /// CRTC's bits, the CRTC's transform as the snapshot reads it, and that an output shows only
  /// the modes it lists. (None of the servers here takes a CRTC transform: the scale and the
  /// area it covers are pinned by values in `RandRHeadAreaTests`.)
  @Suite struct RandRHeadFactsServer {
    typealias B = PlanBuilder

    /// Xephyr's CRTC turned half by another client, as `rotate: inverted` or as `reflect: xy`:
    /// the head is `rotated180` either way, spelled as the bits are; the heads' topology keeps
    /// the bits, and a configuration that keeps the head's transform in its spelling leaves
    /// the bits as they were.
    @Test(arguments: [
      (["--rotate", "inverted"], Rotation.inverted, TransformSpelling.turned),
      (["--reflect", "xy"], Rotation([.normal, .reflectX, .reflectY]), TransformSpelling.reflectedY),
    ])
    func aHeadSpellsItsTransformAsTheCrtcsBits(_ args: [String], _ bits: Rotation, _ spelling: TransformSpelling)
      throws
    {
      let server = try TestXServer.xephyr()
      try server.must(["xrandr", "--output", "default", "--mode", "1024x768"] + args)
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: false)
      let head = try #require(snapshot.head(named: "default"))
      #expect((head.transform, head.spelling) == (.rotated180, spelling))
      #expect(Rotation(head.transform, head.spelling) == bits)
      let kept = HeadConfiguration(
        name: "default", enabled: true, mode: .listed(width: 800, height: 600, refreshMilliHz: 0),
        transform: head.transform, spelling: head.spelling)
      let applied = try manager.apply(OutputConfiguration(generation: snapshot.generation, heads: [kept]))
      #expect(applied == .applied, "\(applied)")
      let crtc = try #require(try B.snapshot(server).crtcs.first(where: \.isActive))
      #expect((crtc.width, crtc.height, crtc.rotation) == (800, 600, bits))
    }

    /// The snapshot reads each lit CRTC's transform in its one pipelined round trip: what
    /// `RRGetCrtcTransform` answers alone (the identity here, none of these servers scales).
    @Test func theSnapshotReadsEachLitCrtcsTransformAsTheServerHasIt() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 2)
      let connection = try XConnection(name: server.display)
      let t = try connection.readTopology()
      let lit = t.crtcs.filter(\.isActive)
      #expect(lit.count == 3)
      for crtc in lit {
        let alone = try #require(connection.crtcTransform(crtc.id))
        #expect(crtc.transform == CrtcTransform(alone), "\(crtc.id)")
        #expect(crtc.transform.isIdentity)
      }
    }

    /// The dummy's outputs take modes the backend creates (`customModes`) but show only the
    /// modes they list (`anySize` false): the head planner over the real heads lights a dark
    /// output at its largest listed mode for a size it lacks, with a warning, and the server
    /// then holds no mode of that size.
    @Test func aSizeAnOutputDoesNotListIsNotMadeForItUnasked() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      try server.must(["xrandr", "--output", "DUMMY1", "--off"])
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      let caps = try #require(snapshot.head(named: "DUMMY1")?.capabilities)
      #expect(caps.customModes && !caps.anySize)
      let config = try Config.parse(
        Array("{monitors: [{match: {output: 'DUMMY1'}, mode: '1600x700@60'}]}".utf8), file: "test.json5")
      let plan = RulePlanner(snapshot: snapshot, config: config).plan()
      #expect(plan.warnings.contains { $0.description.contains("has no mode 1600x700") }, "\(plan.warnings)")
      let applied = try manager.apply(plan.configuration)
      #expect(applied == .applied, "\(applied)")
      let dummy1 = try #require(
        parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == "DUMMY1" })
      let shown = try #require(dummy1.modes.first { $0.current }, "DUMMY1 is lit")
      #expect((shown.width, shown.height) == (2048, 1536), "the largest the dummy lists")
      #expect(!dummy1.modes.contains { $0.width == 1600 && $0.height == 700 }, "\(dummy1.modes.map(\.name))")
    }

    /// A snapshot reuses what it made of the last read's modes while the server lists the
    /// same ones: a mode another client adds, gives an output, takes back and makes again
    /// under the same name with other timings shows in the very next snapshot of the same
    /// manager, with the server's timings, and is gone from it once deleted.
    @Test func modesAnotherClientChangesShowInTheNextSnapshot() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      let manager = RandROutputManager(try XConnection(name: server.display))
      func listed() throws -> [HeadMode] {
        try #require(try manager.heads(probe: false).head(named: "DUMMY0")).modes.filter { $0.name == "by-hand" }
      }
      #expect(try listed().isEmpty)
      let first = ["40", "800", "840", "968", "1056", "600", "601", "605", "628", "+hsync", "+vsync"]
      try server.must(["xrandr", "--newmode", "by-hand"] + first)
      try server.must(["xrandr", "--addmode", "DUMMY0", "by-hand"])
      let added = try listed()
      #expect(added.count == 1 && added.first?.dotClockHz == 40_000_000 && added.first?.timings?.hTotal == 1056)
      try server.must(["xrandr", "--delmode", "DUMMY0", "by-hand"])
      #expect(try listed().isEmpty)
      try server.must(["xrandr", "--rmmode", "by-hand"])
      let second = ["50", "800", "856", "976", "1040", "600", "637", "643", "666", "+hsync", "+vsync"]
      try server.must(["xrandr", "--newmode", "by-hand"] + second)
      try server.must(["xrandr", "--addmode", "DUMMY0", "by-hand"])
      let again = try listed()
      #expect(again.count == 1 && again.first?.dotClockHz == 50_000_000 && again.first?.timings?.hTotal == 1040)
      #expect(again.first?.refreshMilliHz == 72_188, "\(again)")
    }
  }
}
