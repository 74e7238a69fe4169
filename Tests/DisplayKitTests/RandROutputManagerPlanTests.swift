import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing
import XRig

extension XServerTests {
  /// What a `Plan` carries beyond one mode a head, applied through the RandR output manager
  /// on the dummy Xorg and read back from the server: a fallback taken when the server
  /// refuses the first mode, a clone, a scale each way, the physical size of a dpi. (The
  /// dummy's outputs each have one CRTC of their own, and none of the servers here scales:
  /// a clone sharing one CRTC and a scale in force are tested with the fake server.)
  @Suite struct RandROutputManagerPlan {
    typealias B = PlanBuilder

    func geometry(_ server: TestXServer, _ name: String) throws -> String? {
      parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == name }?.geometry
    }

    /// Another client holds the custom mode's name with other timings, so the server refuses
    /// to make it (BadName): the next mode is taken, reported, and is what the server shows.
    @Test func theNextModeIsTakenWhenTheServerRefusesTheFirst() throws {
      let server = try TestXServer.dummy()
      try server.must([
        "xrandr", "--newmode", CustomModes.prefix + "proj", "10", "1600", "1601", "1602", "1603", "700", "701", "702",
        "703",
      ])
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      var line = try #require(CVT.modeLine(width: 1600, height: 700, refresh: 60, reduced: false))
      line.name = "proj"
      let head = HeadConfiguration(
        name: "DUMMY0", enabled: true, mode: .custom(line),
        fallbackModes: [
          .listed(width: 1024, height: 768, refreshMilliHz: 0), .listed(width: 800, height: 600, refreshMilliHz: 0),
        ])
      let (result, report) = try manager.applyReporting(
        OutputConfiguration(generation: snapshot.generation, heads: [head]))
      #expect(result == .applied, "\(result)")
      // 1024x768 is taller than the screen sized for 1600x700: not tried.
      #expect(report.entries.first?.mode.map { [$0.width, $0.height] } == [800, 600], "\(report)")
      #expect(report.description.hasPrefix("DUMMY0 800x600@"), "\(report)")
      #expect(report.warnings.contains { $0.contains("the server refused custom mode") }, "\(report.warnings)")
      #expect(try geometry(server, "DUMMY0") == "800x600+0+0")
    }

    /// A head the same as another whose CRTC cannot drive it (the dummy's outputs each have
    /// their own) is lit on its own CRTC at the other's place and mode.
    @Test func aCloneTheCrtcCannotShareIsLitOnItsOwnAtTheSamePlace() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      let mode = HeadModeRequest.listed(width: 800, height: 600, refreshMilliHz: 0)
      let heads = [
        HeadConfiguration(name: "DUMMY0", enabled: true, mode: mode),
        HeadConfiguration(name: "DUMMY1", enabled: true, mode: mode, sameAs: "DUMMY0"),
      ]
      let result = try manager.apply(OutputConfiguration(generation: snapshot.generation, heads: heads))
      #expect(result == .applied, "\(result)")
      #expect(try geometry(server, "DUMMY0") == "800x600+0+0")
      #expect(try geometry(server, "DUMMY1") == "800x600+0+0")
      let t = try B.snapshot(server)
      #expect((t.screen.width, t.screen.height) == (800, 600))
    }

    /// A scale each way is refused by a server without transforms: the head named, the desk
    /// as it was.
    @Test func aScaleEachWayTheServerRefusesNamesTheHeadAndChangesNothing() throws {
      let server = try TestXServer.dummy()
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      let layout = Layout(try B.snapshot(server))
      let head = HeadConfiguration(name: "DUMMY0", enabled: true, scale: 1.5, scaleY: 0.75)
      guard
        case .refused(let refusal) = try manager.apply(
          OutputConfiguration(generation: snapshot.generation, heads: [head]))
      else {
        Issue.record("applied")
        return
      }
      #expect(refusal.problems.contains(.crtcRefusedTransform("DUMMY0")), "\(refusal)")
      #expect(refusal.notRestored.isEmpty)
      #expect(Layout(try B.snapshot(server)) == layout)
    }

    /// The physical size is the screen's millimetres, as a new client reads them.
    @Test func thePhysicalSizeIsWhatClientsReadTheScreensMillimetresAs() throws {
      let server = try TestXServer.dummy()
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      let configuration = OutputConfiguration(
        generation: snapshot.generation,
        heads: [
          HeadConfiguration(name: "DUMMY0", enabled: true, mode: .listed(width: 1024, height: 768, refreshMilliHz: 0))
        ],
        physicalSize: PhysicalSize(width: 271, height: 203))
      #expect(try manager.apply(configuration) == .applied)
      let t = try B.snapshot(server)
      #expect((t.screen.width, t.screen.height, t.screen.mmWidth, t.screen.mmHeight) == (1024, 768, 271, 203))
      let xdpyinfo = try server.must(["xdpyinfo"])
      #expect(xdpyinfo.contains("1024x768 pixels (271x203 millimeters)"), "\(xdpyinfo.prefix(600))")
    }
  }
}
