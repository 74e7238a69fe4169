import Foundation
import Testing
import XRig

extension XServerTests {
  /// Touch devices follow their monitor: the matrix displayd sets equals the one
  /// `xinput map-to-output` computes for the same layout on the same server. The device is
  /// made by the test (`xinput create-master NAME` gives the slave `NAME XTEST pointer`, which
  /// has a Coordinate Transformation Matrix).
  @Suite struct TouchOnServers {
    static let identity = ["1", "0", "0", "0", "1", "0", "0", "0", "1"]

    func matrix(_ server: TestXServer, _ device: String) throws -> [Double] {
      try #require(xinputMatrix(try server.must(["xinput", "list-props", device])))
    }

    /// What `xinput map-to-output` sets for the layout now, from the identity.
    func oracle(_ server: TestXServer, _ device: String, _ output: String) throws -> [Double] {
      try server.must(["xinput", "set-prop", device, "Coordinate Transformation Matrix"] + Self.identity)
      try server.must(["xinput", "map-to-output", device, output])
      return try matrix(server, device)
    }

    func close(_ a: [Double], _ b: [Double]) -> Bool {
      a.count == 9 && b.count == 9 && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-6 }
    }

    /// The matrix displayd set after the layout changed to `rotate` (and `reflect`), on Xephyr,
    /// whose one output's CRTC turns and mirrors.
    @Test(arguments: [
      ("normal", "normal"), ("left", "normal"), ("inverted", "normal"), ("right", "normal"), ("left", "x"),
      ("normal", "y"),
    ])
    func theMatrixFollowsARotationAsXinputMapsIt(_ rotate: String, _ reflect: String) throws {
      let server = try TestXServer.xephyr()
      try server.must(["xinput", "create-master", "TOUCHY"])
      let device = "TOUCHY XTEST pointer"
      // A matrix that no layout gives, so a device displayd did not map shows.
      try server.must(
        ["xinput", "set-prop", device, "Coordinate Transformation Matrix"] + Self.identity.map { _ in "2" })
      let daemon = try DaemonProcess(
        display: server.display, config: "{ monitors: [ { match: { output: 'default' }, touch: ['TOUCHY*'] } ] }")
      #expect(daemon.log.contains { $0.contains("touch: '\(device)'") && $0.contains("mapped to default") })
      if rotate != "normal" || reflect != "normal" {
        try server.must(["xrandr", "--output", "default", "--rotate", rotate, "--reflect", reflect])
        #expect(daemon.waitFor("touch: '\(device)'", timeout: 5) != nil, "mapped again after the layout changed")
      }
      let set = try matrix(server, device)
      let expected = try oracle(server, device, "default")
      #expect(close(set, expected), "displayd \(set), xinput \(expected)")
    }

    /// Two monitors side by side on the dummy Xorg: the device covers only its own, and a
    /// device created after the daemon started is mapped when it appears.
    @Test func aDeviceCoversItsMonitorOfTwoAndALaterDeviceIsMappedWhenItAppears() throws {
      let server = try TestXServer.dummy()
      try server.must(["xrandr", "--addmode", "DUMMY1", "1024x768"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "1024x768", "--right-of", "DUMMY0"])
      try server.must(["xinput", "create-master", "PEN"])
      let daemon = try DaemonProcess(
        display: server.display,
        config:
          "{ monitors: [ { match: { output: 'DUMMY1' }, mode: '1024x768', touch: ['PEN*', 'LATE*', 'NOWHERE*'] } ] }"
      )
      let pen = "PEN XTEST pointer"
      #expect(daemon.log.contains { $0.contains("touch: '\(pen)'") && $0.contains("mapped to DUMMY1") })
      let set = try matrix(server, pen)
      #expect(!close(set, [1, 0, 0, 0, 1, 0, 0, 0, 1]), "not the whole screen: \(set)")
      #expect(close(set, try oracle(server, pen, "DUMMY1")), "\(set)")

      try server.must(["xinput", "create-master", "LATE"])
      let late = "LATE XTEST pointer"
      #expect(daemon.waitFor("touch: '\(late)'", timeout: 5) != nil, "the hierarchy event maps it")
      let lateSet = try matrix(server, late)
      #expect(close(lateSet, try oracle(server, late, "DUMMY1")), "\(lateSet)")

      // A layout change maps again: DUMMY1 moves below DUMMY0.
      try server.must(["xrandr", "--output", "DUMMY1", "--pos", "0x1536"])
      #expect(daemon.waitFor("touch: '\(pen)'", timeout: 5) != nil, "mapped again after the layout changed")
      let moved = try matrix(server, pen)
      #expect(!close(moved, set), "\(moved)")
      #expect(close(moved, try oracle(server, pen, "DUMMY1")), "\(moved)")

      daemon.drain()
      let nowhere = daemon.log.filter { $0.contains("touch 'NOWHERE*': no XInput pointer device") }
      #expect(nowhere.count == 1, "a glob matching nothing warns once, not per reconcile: \(nowhere)")
    }
  }
}
