import DisplayKit
import DisplayX11
import Foundation
import Testing
import XRig

@testable import DisplayModel

extension XServerTests {
  /// RandR's two spellings of a half turn on a real CRTC (Xephyr's turns and reflects): the
  /// daemon sets the one the profile wrote, and `profile save` writes it back.
  @Suite struct TransformSpellingOnXephyr {
    @Test(
      arguments: [
        ("reflect: 'xy'", Rotation([.normal, .reflectX, .reflectY]), #"reflect: "xy""#, "rotate:"),
        ("rotate: 'inverted'", Rotation.inverted, #"rotate: "inverted""#, "reflect:"),
      ] as [(String, Rotation, String, String)])
    func theDaemonSetsTheSpellingTheProfileWroteAndSaveWritesItBack(
      _ keys: String, _ bits: Rotation, _ saved: String, _ absent: String
    ) throws {
      let server = try TestXServer.xephyr()
      let daemon = try DaemonProcess(
        display: server.display,
        config: "{ profiles: [ { name: 'upside', outputs: [ { match: { output: 'default' }, \(keys) } ] } ] }")
      var t = try PlanBuilder.snapshot(server)
      let set = eventually(within: 5) {
        t = (try? PlanBuilder.snapshot(server)) ?? t
        return t.crtcs.contains { $0.isActive && $0.rotation == bits }
      }
      #expect(set, "\(t.crtcs.map(\.rotation.rawValue)) \(daemon.log.suffix(5))")
      let save = try displayd(["profile", "save", "here", "--display", server.display])
      #expect(save.status == 0 && save.out.contains(saved) && !save.out.contains(absent), "\(save.out) \(save.err)")
      daemon.settle()
      #expect(!daemon.log.contains { $0.contains("refused") }, "\(daemon.log.suffix(5))")
    }
  }
}
