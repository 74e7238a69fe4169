import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing
import XRig

extension XServerTests {
  /// What the RandR output manager cannot do is refused by `test` and by `apply` alike, and
  /// the desk stays as it was; a mode the head lacks is made through the custom-mode path.
  @Suite struct RandROutputManagerRefusal {
    typealias B = PlanBuilder

    static let impossible: [(String, [HeadConfiguration], String)] = [
      (
        "a mode no head has",
        [HeadConfiguration(name: "DUMMY0", enabled: true, mode: .listed(width: 1234, height: 567, refreshMilliHz: 0))],
        "DUMMY0 has no mode 1234x567"
      ),
      (
        "a transform the CRTC cannot do", [HeadConfiguration(name: "DUMMY0", enabled: true, transform: .rotated90)],
        "DUMMY0: its CRTC cannot do left, only normal"
      ),
      (
        "a screen too big", [HeadConfiguration(name: "DUMMY1", enabled: true, x: 32000)],
        "it needs a 33024x1536 screen, more than the server's maximum"
      ),
      ("a head the server lacks", [HeadConfiguration(name: "HDMI-9", enabled: true)], "no head HDMI-9"),
      ("a dark desk", [.off("DUMMY0"), .off("DUMMY1")], "it would leave no connected output lit"),
    ]

    @Test(arguments: 0..<impossible.count)
    func anImpossibleConfigurationIsRefusedByTestAndApplyAndChangesNothing(_ index: Int) throws {
      let (what, heads, reason) = Self.impossible[index]
      let server = try TestXServer.dummy()
      try B.lightDummies(server, 1)
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      let layout = Layout(try B.snapshot(server))
      let configuration = OutputConfiguration(generation: snapshot.generation, heads: heads)
      for (step, result) in [("test", try manager.test(configuration)), ("apply", try manager.apply(configuration))] {
        guard case .refused(let refusal) = result else {
          Issue.record("\(what): \(step) answered \(result)")
          continue
        }
        #expect(refusal.reason.contains(reason), "\(what): \(step): \(refusal.reason)")
        #expect(refusal.rotationRefused == (what.contains("transform") ? ["DUMMY0"] : []), "\(what): \(step)")
        #expect(refusal.transformRefused.isEmpty, "\(what): \(step): nothing was asked to scale")
      }
      #expect(Layout(try B.snapshot(server)) == layout, "\(what)")
      #expect(try manager.heads(probe: false).generation == snapshot.generation, "\(what): nothing was sent")
    }

    /// A modeline the head does not list is made (`displayd-` named, so marked custom), shown,
    /// and read back as the current mode.
    @Test func aCustomModeIsMadeAndShown() throws {
      let server = try TestXServer.dummy()
      let manager = RandROutputManager(try XConnection(name: server.display))
      let snapshot = try manager.heads(probe: true)
      let line = try #require(CVT.modeLine(width: 1600, height: 700, refresh: 60, reduced: false))
      let configuration = OutputConfiguration(
        generation: snapshot.generation,
        heads: [HeadConfiguration(name: "DUMMY0", enabled: true, mode: .custom(line))])
      #expect(try manager.test(configuration) == .applied)
      #expect(try manager.apply(configuration) == .applied)
      let head = try #require(try manager.heads(probe: false).head(named: "DUMMY0"))
      let mode = try #require(head.mode)
      #expect((mode.width, mode.height, mode.custom) == (1600, 700, true))
      #expect(abs(mode.refreshMilliHz - 60000) < 500, "\(mode.refreshMilliHz)")
      let xrandr = parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == "DUMMY0" }
      #expect(xrandr?.geometry == "1600x700+0+0")
      #expect(xrandr?.modes.first(where: \.current)?.name.hasPrefix(CustomModes.prefix) == true)
    }
  }
}
