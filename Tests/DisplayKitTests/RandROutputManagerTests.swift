import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing
import XRig

extension XServerTests {
  /// The output-management port over RandR against real servers: heads read back as xrandr
  /// sees them, configurations applied as the server then holds them, stale and impossible
  /// ones changing nothing.
  @Suite struct RandROutputManagerServer {
    typealias B = PlanBuilder

    func verbose(_ server: TestXServer) throws -> [XrandrOutput] {
      parseXrandrVerbose(try server.must(["xrandr", "--verbose"]))
    }

    func geometry(_ head: Head?) -> String? { head?.rect.map { "\($0.width)x\($0.height)+\($0.x)+\($0.y)" } }

    func lit(_ name: String, _ mode: HeadModeRequest?, x: Int = 0, y: Int = 0, _ transform: Transform = .normal)
      -> HeadConfiguration
    {
      HeadConfiguration(name: name, enabled: true, mode: mode, x: x, y: y, transform: transform)
    }

    func listed(_ width: Int, _ height: Int) -> HeadModeRequest {
      .listed(width: width, height: height, refreshMilliHz: 0)
    }

    /// Every output of `xrandr --verbose` is a head with its connection, geometry, modes (size,
    /// refresh, preferred, current) and the EDID a client set; the generation moves when
    /// another client changes the layout.
    @Test func headsReadBackWhatXrandrSees() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 2)
      let connection = try XConnection(name: server.display)
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/asus_aus27d1_0d64f5ca0b43.bin")))
      try connection.setEDID(bytes, on: try #require(try connection.readTopology().output(named: "DUMMY1")).id)
      let manager = RandROutputManager(connection)
      let snapshot = try manager.heads(probe: true)
      let xrandr = try verbose(server)
      #expect(snapshot.heads.map(\.name) == xrandr.map(\.name))
      for output in xrandr {
        let head = try #require(snapshot.head(named: output.name))
        #expect(head.connected == output.connected, "\(output.name)")
        #expect(geometry(head) == output.geometry, "\(output.name)")
        #expect(head.modes.count == output.modes.count, "\(output.name)")
        for (mode, seen) in zip(head.modes, output.modes) {
          #expect((mode.width, mode.height, mode.preferred) == (seen.width, seen.height, seen.preferred))
          #expect(abs(Double(mode.refreshMilliHz) / 1000 - seen.refresh) < 0.006, "\(seen.name) \(seen.refresh)")
        }
        #expect(head.currentMode == output.modes.firstIndex(where: \.current), "\(output.name)")
      }
      let dummy1 = try #require(snapshot.head(named: "DUMMY1"))
      #expect(dummy1.edid == bytes && dummy1.make == "AUS" && !dummy1.model.isEmpty)
      #expect(dummy1.description.hasPrefix("AUS "))
      #expect(snapshot.head(named: "DUMMY0")?.edid == nil)
      let caps = try #require(snapshot.head(named: "DUMMY0")?.capabilities)
      #expect(caps.transforms == [.normal], "the dummy's CRTCs neither turn nor reflect")
      #expect(caps.customModes)
      try server.must(["xrandr", "--output", "DUMMY2", "--pos", "0x768"])
      #expect(try manager.heads(probe: false).generation != snapshot.generation)
    }

    /// A mode, a position, the primary and a head turned off are what the server then holds.
    @Test func anAppliedConfigurationIsWhatTheServerHolds() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 2)
      let manager = RandROutputManager(try XConnection(name: server.display))
      let before = try manager.heads(probe: true)
      let configuration = OutputConfiguration(
        generation: before.generation,
        heads: [lit("DUMMY0", listed(800, 600)), lit("DUMMY1", listed(1024, 768), x: 800), .off("DUMMY2")],
        primary: "DUMMY1")
      let tested = try manager.test(configuration)
      #expect(tested == .applied, "\(tested)")
      let applied = try manager.apply(configuration)
      #expect(applied == .applied, "\(applied)")
      let xrandr = try verbose(server)
      #expect(xrandr.first { $0.name == "DUMMY0" }?.geometry == "800x600+0+0")
      #expect(xrandr.first { $0.name == "DUMMY1" }?.geometry == "1024x768+800+0")
      #expect(xrandr.first { $0.name == "DUMMY2" }?.geometry == nil)
      let t = try B.snapshot(server)
      #expect((t.screen.width, t.screen.height) == (1824, 768))
      #expect(t.primary == t.output(named: "DUMMY1")?.id)
      let after = try manager.heads(probe: false)
      #expect(after.head(named: "DUMMY1")?.transform == .normal && after.primary == "DUMMY1")
      #expect(after.head(named: "DUMMY2").map { $0.connected && !$0.enabled } == true)
      #expect(
        try manager.apply(OutputConfiguration(generation: after.generation, heads: configuration.heads)) == .applied)
      #expect(try manager.heads(probe: false).generation == after.generation, "a configuration in force sends nothing")
    }

    /// Xephyr's CRTC turns and reflects: each of the eight transforms is applied, read back
    /// as itself, and covers the mode turned; RandR's `left` is `rotated90`. (A fresh Xephyr
    /// each: Xephyr 21.1.7 died going from `flipped` straight to `flipped90`.)
    @Test(arguments: Transform.allCases)
    func everyTransformIsAppliedAndReadBackOnXephyr(_ transform: Transform) throws {
      let server = try TestXServer.xephyr()
      let manager = RandROutputManager(try XConnection(name: server.display))
      let now = try manager.heads(probe: false)
      #expect(now.head(named: "default")?.capabilities.transforms.count == 8)
      let configuration = OutputConfiguration(
        generation: now.generation, heads: [lit("default", listed(800, 600), transform)])
      let applied = try manager.apply(configuration)
      #expect(applied == .applied, "\(applied)")
      let head = try #require(try manager.heads(probe: false).head(named: "default"))
      #expect(head.transform == transform)
      #expect(geometry(head) == (transform.swapsAxes ? "600x800+0+0" : "800x600+0+0"))
      let t = try B.snapshot(server)
      let rotation = try #require(t.crtcs.first(where: \.isActive)?.rotation)
      #expect(rotation == RandRHeadValues.rotations(transform).first, "the plainer spelling is sent")
      if transform == .rotated90 {
        let line = try server.must(["xrandr"]).split(separator: "\n").first { $0.hasPrefix("default ") }
        #expect(line?.contains("600x800+0+0 left (") == true, "\(line ?? "")")
      }
    }

    /// None of the servers here scales (RRSetCrtcTransform BadValue): a scale is refused by
    /// the server, the head named, the desk put back; the backend learns it, so the next
    /// `test` refuses without asking and the head no longer offers scaling.
    @Test func aScaleTheServerRefusesIsLearnedAndChangesNothing() throws {
      let server = try TestXServer.dummy()
      let manager = RandROutputManager(try XConnection(name: server.display))
      let before = try manager.heads(probe: true)
      #expect(before.head(named: "DUMMY0")?.capabilities.scaling == true, "RandR 1.3 or later")
      let layout = Layout(try B.snapshot(server))
      var half = lit("DUMMY0", nil)
      half.scale = 0.5
      let configuration = OutputConfiguration(generation: before.generation, heads: [half])
      #expect(try manager.test(configuration) == .applied, "nothing says the CRTC refuses before it does")
      guard case .refused(let refusal) = try manager.apply(configuration) else {
        Issue.record("applied")
        return
      }
      #expect(refusal.transformRefused == ["DUMMY0"] && refusal.notRestored.isEmpty, "\(refusal)")
      #expect(Layout(try B.snapshot(server)) == layout)
      let after = try manager.heads(probe: false)
      #expect(after.head(named: "DUMMY0")?.capabilities.scaling == false)
      guard
        case .refused(let again) = try manager.test(OutputConfiguration(generation: after.generation, heads: [half]))
      else {
        Issue.record("accepted")
        return
      }
      #expect(again.transformRefused == ["DUMMY0"])
    }

    /// A head the server will not light with any mode asked (here a custom mode whose name
    /// another client holds with other timings: BadName, and no fallback) fails the apply:
    /// the report names the head and the server's reason, and what was set before it, all of
    /// it put back.
    @Test func aFailedApplysReportNamesTheHeadAndTheReason() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      let name = "displayd-1600x700_60.00"
      try server.must(["xrandr", "--newmode", name, "10", "1600", "1601", "1602", "1603", "700", "701", "702", "703"])
      let manager = RandROutputManager(try XConnection(name: server.display))
      let heads = try manager.heads(probe: true)
      let layout = Layout(try B.snapshot(server))
      var line = ModeLine(
        try #require(CustomModes.wanted(.sizeRate(width: 1600, height: 700, refresh: 60), .cvt(reduced: false))))
      line.name = String(name.dropFirst(CustomModes.prefix.count))
      let configuration = OutputConfiguration(
        generation: heads.generation, heads: [lit("DUMMY0", listed(800, 600)), lit("DUMMY1", .custom(line), x: 800)])
      let (result, report) = try manager.applyReporting(configuration)
      guard case .refused(let refusal) = result else {
        Issue.record("\(result)")
        return
      }
      #expect(report.failed.map(\.heads) == [["DUMMY1"]] && report.failed.map(\.enabled) == [true], "\(report)")
      let reason = try #require(report.failed.first?.reason)
      #expect(reason.hasPrefix("custom mode \(name): ") && reason.contains("BadName"), "\(reason)")
      #expect(report.rolledBack && report.entries.map(\.heads) == [["DUMMY0"]], "set before DUMMY1 failed")
      #expect(report.entries.first?.modeName == "800x600" && report.entries.first?.madeMode == nil)
      #expect(refusal.reason.contains("could not configure DUMMY1: custom mode \(name)"), "\(refusal)")
      #expect(report.warnings.contains { $0.hasPrefix("DUMMY1: the server refused custom mode \(name)") })
      #expect(Layout(try B.snapshot(server)) == layout, "everything put back")
    }

    /// A configuration planned before another client moved a head is stale, sends nothing,
    /// and leaves the other client's layout.
    @Test func aConfigurationPlannedBeforeAnotherClientsChangeIsStale() throws {
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      let manager = RandROutputManager(try XConnection(name: server.display))
      let old = try manager.heads(probe: true)
      try server.must(["xrandr", "--output", "DUMMY1", "--pos", "0x768"])
      let layout = Layout(try B.snapshot(server))
      let configuration = OutputConfiguration(
        generation: old.generation, heads: [lit("DUMMY1", listed(800, 600), x: 1024)])
      #expect(try manager.test(configuration) == .stale)
      #expect(try manager.apply(configuration) == .stale)
      #expect(Layout(try B.snapshot(server)) == layout)
      #expect(try verbose(server).first { $0.name == "DUMMY1" }?.geometry == "1024x768+0+768")
    }

    /// A monitor plugged on Xvnc after the snapshot makes the configuration stale; nothing of
    /// it is applied.
    @Test func aPlugAfterTheSnapshotMakesItStaleOnXvnc() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let manager = RandROutputManager(try XConnection(name: server.display))
      let old = try manager.heads(probe: false)
      #expect(old.head(named: "VNC-0").map(geometry) == "1920x1080+0+0")
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let configuration = OutputConfiguration(generation: old.generation, heads: [lit("VNC-0", nil, x: 0, y: 0)])
      #expect(try manager.apply(configuration) == .stale)
      let now = try manager.heads(probe: false)
      #expect(geometry(now.head(named: "VNC-1")) == "1280x1024+1920+0")
      #expect(now.generation != old.generation)
    }
  }
}
