import DisplayKit
import DisplayModel
import DisplayX11
import Foundation
import Testing
import XRig

/// Profiles applied by the running daemon on Xorg's dummy driver: outputs off (main too),
/// row and column, primary, DPI, a screen that grows and shrinks in one apply, and a `scale`
/// the CRTC cannot do.
extension XServerTests {
  @Suite struct ProfileDummy {
    /// A dummy server with DUMMY1 and DUMMY2 lit at 1024x768 right of DUMMY0, and a daemon.
    struct Rig {
      let server: TestXServer
      let daemon: DaemonProcess

      init(_ config: String) throws {
        server = try TestXServer.dummy()
        try PlanBuilder.lightDummies(server, 2)
        daemon = try DaemonProcess(display: server.display, config: config)
      }

      /// The layout as a fresh connection reads it (Xlib's millimetres are per connection).
      func layout() throws -> Topology { try PlanBuilder.snapshot(server) }

      func geometry(_ t: Topology, _ name: String) -> String? {
        t.output(named: name).flatMap { t.geometry(of: $0) }.map { "\($0.width)x\($0.height)+\($0.x)+\($0.y)" }
      }
    }

    @Test func aRowTurnsMainOffSetsThePrimaryAndTheDPI() throws {
      let rig = try Rig(
        """
        { profiles: [ { name: 'row', dpi: 96, outputs: [
            { match: { output: 'DUMMY0' }, enabled: false },
            { match: { output: 'DUMMY2' }, mode: '800x600' },
            { match: { output: 'DUMMY1' }, mode: '1024x768', primary: true },
        ] } ] }
        """)
      let t = try rig.layout()
      #expect(rig.geometry(t, "DUMMY0") == nil, "main turned off")
      #expect(rig.geometry(t, "DUMMY2") == "800x600+0+0")
      #expect(rig.geometry(t, "DUMMY1") == "1024x768+800+0")
      #expect(t.primary == t.output(named: "DUMMY1")?.id)
      #expect((t.screen.width, t.screen.height) == (1824, 768))
      // 96 dpi: 1824 px = 482.6 mm, 768 px = 203.2 mm.
      #expect((t.screen.mmWidth, t.screen.mmHeight) == (483, 203), "\(t.screen)")
      let dpi = try rig.server.must(["xdpyinfo"]).split(separator: "\n").first { $0.contains("resolution:") } ?? ""
      #expect(dpi.contains("96x96 dots per inch"), "\(dpi)")
      #expect(rig.daemon.log.contains { $0.contains("profile 'row':") && $0.contains("primary DUMMY1") })
      // The lit outputs are the profile's; no window covers them (no content asked).
      #expect(try XInspector(rig.server.display).displaydWindows().isEmpty)
    }

    @Test func aColumnGrowsAndShrinksTheScreenInOneApply() throws {
      let rig = try Rig(
        """
        { profiles: [ { name: 'tower', arrange: 'column', outputs: [
            { match: { output: 'DUMMY0' }, mode: 'keep' },
            { match: { output: 'DUMMY1' }, mode: '1024x768' },
            { match: { output: 'DUMMY2' }, mode: '800x600' },
        ] } ] }
        """)
      let t = try rig.layout()
      let main = try #require(rig.geometry(t, "DUMMY0"))
      let (w, h) = try #require(t.output(named: "DUMMY0").flatMap { t.geometry(of: $0) }.map { ($0.width, $0.height) })
      #expect(main == "\(w)x\(h)+0+0")
      #expect(rig.geometry(t, "DUMMY1") == "1024x768+0+\(h)")
      #expect(rig.geometry(t, "DUMMY2") == "800x600+0+\(h + 768)")
      // Before: a row 2048 + 1024 + 1024 wide; after: narrower and taller.
      #expect((t.screen.width, t.screen.height) == (w, h + 768 + 600), "\(t.screen)")
      #expect(w < 2048 + 2048 && h + 1368 > h)
      #expect(rig.daemon.changingReconciles.filter { $0.contains("profile 'tower'") }.count == 1)
    }

    @Test func aScaleTheCrtcCannotDoIsDroppedWithAWarningAndTheRestApplies() throws {
      let rig = try Rig(
        """
        { profiles: [ { name: 'scaled', outputs: [
            { match: { output: 'DUMMY2' }, mode: '800x600' },
            { match: { output: 'DUMMY0' }, mode: 'keep' },
            { match: { output: 'DUMMY1' }, mode: '1024x768', scale: 2 },
        ] } ] }
        """)
      rig.daemon.settle()
      let log = rig.daemon.log
      #expect(log.contains { $0.contains("DUMMY1: its CRTC refused a transform") }, "\(log.suffix(12))")
      #expect(log.contains { $0.contains("DUMMY1 cannot scale; scale 1 instead of 2") }, "planned again unscaled")
      let t = try rig.layout()
      let w = try #require(t.output(named: "DUMMY0").flatMap { t.geometry(of: $0) }?.width)
      #expect(rig.geometry(t, "DUMMY2") == "800x600+0+0")
      #expect(rig.geometry(t, "DUMMY0")?.hasSuffix("+800+0") == true)
      #expect(rig.geometry(t, "DUMMY1") == "1024x768+\(800 + w)+0", "unscaled, in its place")
      #expect(log.contains { $0.contains("profile 'scaled':") }, "applied after the replan")
    }
  }
}
