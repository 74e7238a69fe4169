import DisplayKit
import DisplayModel
import DisplayRender
import DisplaySupport
import Foundation
import Testing
import XRig

/// What the daemon puts back when a manual choice ends: the heads as automatic choice had
/// them, through the port, with what no head says (the screen's millimetres) beside them.
@Suite struct LayoutRestoreOverThePort {
  let quiet = Logger(level: .error) { _ in }

  /// A restore that dropped the saved scale would light HDMI-1 unscaled, and the rules'
  /// reconcile after it would scale it again: two applies, the desk twice resized.
  @Test func aScaleSavedBeforeAManualChoiceComesBackWithTheRestoreAndNothingIsAppliedAfterIt() throws {
    let manager = FakeOutputManager([
      FakeOutputManager.head("eDP-1", at: (0, 0), panel: true), FakeOutputManager.head("HDMI-1"),
    ])
    let rules = try Config.parse(
      Array(#"{ disconnect_grace: 0, monitors: [{ match: { output: "HDMI-1" }, scale: 2 }] }"#.utf8),
      file: "config.json5")
    let daemon = try Daemon(
      server: PortDisplayServer(manager), surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: rules,
      log: quiet)
    try daemon.start()
    let automatic = try #require(manager.head("HDMI-1")?.rect)
    #expect(manager.head("HDMI-1")?.scale == 2 && automatic.width == 3840, "the rules' scale, in force")
    #expect(try daemon.switchTo(.layout(.mainOnly)).get() == true)
    #expect(manager.head("HDMI-1")?.enabled == false)
    let applies = manager.applied.count
    #expect(try daemon.resumeAutomatic())
    #expect(manager.applied.count == applies + 1, "the restore alone: the rules find their scale in force")
    let restored = manager.applied.last?.heads.first { $0.name == "HDMI-1" }
    #expect(restored?.enabled == true && restored?.scale == 2)
    #expect(manager.head("HDMI-1")?.rect == automatic && manager.head("HDMI-1")?.scale == 2)
    #expect(daemon.layoutChoice == nil)
  }
}

extension XServerTests {
  /// On Xorg's dummy driver, through the running daemon: DUMMY0 at 1280x1024, DUMMY1 and
  /// DUMMY2 right of it, as the profile `plain` matched at start has them.
  @Suite struct LayoutRestoreDummy {
    static let profiles = """
      profiles: [
        { name: 'plain', outputs: [ { match: { output: 'DUMMY0' }, mode: '1280x1024' },
            { match: { output: 'DUMMY1' }, mode: '1024x768' }, { match: { output: 'DUMMY2' }, mode: '800x600' } ] },
        { name: 'hidpi', dpi: 192, outputs: [ { match: { output: 'DUMMY0' }, mode: '1280x1024' },
            { match: { output: 'DUMMY1' }, mode: '1024x768' }, { match: { output: 'DUMMY2' }, mode: '800x600' } ] } ],
      """

    func millimetres(_ rig: XServerTests.LayoutDummy.Rig) throws -> String {
      let t = try PlanBuilder.snapshot(rig.server)
      return "\(t.screen.width)x\(t.screen.height) \(t.screen.mmWidth)x\(t.screen.mmHeight) mm"
    }

    /// The same monitors at the same places before and after: only the physical size a
    /// profile's `dpi` set is to put back, which no head says.
    @Test func thePhysicalSizeTheScreenHadBeforeAManualChoiceComesBackWithItsSize() throws {
      let rig = try XServerTests.LayoutDummy.Rig(Self.profiles)
      let before = try millimetres(rig)
      #expect(try rig.must(["profile", "switch", "hidpi"]) == "switched to profile 'hidpi'\n")
      // 192 dpi: 3104 px = 410.6 mm, 1024 px = 135.5 mm.
      #expect(try millimetres(rig) == "3104x1024 411x135 mm" && before != "3104x1024 411x135 mm", "\(before)")
      #expect(try rig.must(["profile", "switch", "--auto"]).hasPrefix("automatic choice resumed"))
      #expect(try millimetres(rig) == before)
      #expect(rig.daemon.waitFor("(automatic choice): restored screen 3104x1024") != nil, "\(rig.daemon.log)")
    }
  }
}
