import Foundation
import Testing
import XRig

extension XServerTests {
  /// Touch devices follow their monitor: the matrix displayd sets equals the one
  /// `xinput map-to-output` computes for the same layout on the same server. The devices are
  /// made by the test (`xinput create-master NAME` gives the slave `NAME XTEST pointer`, which
  /// has a Coordinate Transformation Matrix); xinput maps one of its own that no glob matches,
  /// so displayd's are left as displayd set them.
  @Suite struct TouchOnServers {
    static let identity = ["1", "0", "0", "0", "1", "0", "0", "0", "1"]
    static let matrixProperty = "Coordinate Transformation Matrix"
    static let oracleDevice = "ORACLE XTEST pointer"

    func matrix(_ server: TestXServer, _ device: String) throws -> [Double] {
      try #require(xinputMatrix(try server.must(["xinput", "list-props", device])))
    }

    /// Makes the devices, the oracle's first.
    func devices(_ server: TestXServer, _ names: String...) throws {
      for name in ["ORACLE"] + names { try server.must(["xinput", "create-master", name]) }
    }

    /// What `xinput map-to-output` sets for the layout now, from the identity.
    func oracle(_ server: TestXServer, _ output: String) throws -> [Double] {
      try server.must(["xinput", "set-prop", Self.oracleDevice, Self.matrixProperty] + Self.identity)
      try server.must(["xinput", "map-to-output", Self.oracleDevice, output])
      return try matrix(server, Self.oracleDevice)
    }

    func close(_ a: [Double], _ b: [Double]) -> Bool {
      a.count == 9 && b.count == 9 && zip(a, b).allSatisfy { abs($0 - $1) <= 1e-6 }
    }

    /// Whether the device comes to hold xinput's matrix for `output` within a few seconds:
    /// a layout change reaches the daemon as several events, which it may follow in steps.
    func agrees(_ server: TestXServer, _ device: String, _ output: String) throws -> Bool {
      let expected = try oracle(server, output)
      let ok = try eventually(within: 5) { close(try matrix(server, device), expected) }
      if !ok { Issue.record("displayd \(try matrix(server, device)), xinput \(expected)") }
      return ok
    }

    /// The matrix displayd sets after the layout changed to `rotate` (and `reflect`), on
    /// Xephyr, whose one output's CRTC turns and mirrors.
    @Test(arguments: [
      ("normal", "normal"), ("left", "normal"), ("inverted", "normal"), ("right", "normal"), ("left", "x"),
      ("normal", "y"),
    ])
    func theMatrixFollowsARotationAsXinputMapsIt(_ rotate: String, _ reflect: String) throws {
      let server = try TestXServer.xephyr()
      try devices(server, "TOUCHY")
      let device = "TOUCHY XTEST pointer"
      // A matrix that no layout gives, so a device displayd did not map shows.
      try server.must(["xinput", "set-prop", device, Self.matrixProperty] + Self.identity.map { _ in "2" })
      let daemon = try DaemonProcess(
        display: server.display, config: "{ monitors: [ { match: { output: 'default' }, touch: ['TOUCHY*'] } ] }")
      #expect(daemon.log.contains { $0.contains("touch: '\(device)'") && $0.contains("mapped to default") })
      if rotate != "normal" || reflect != "normal" {
        try server.must(["xrandr", "--output", "default", "--rotate", rotate, "--reflect", reflect])
        #expect(daemon.waitFor("touch: '\(device)'", timeout: 5) != nil, "mapped again after the layout changed")
      }
      #expect(try agrees(server, device, "default"))
    }

    /// Two monitors side by side on the dummy Xorg: the device covers only its own, follows it
    /// when it moves, and a device created after the daemon started is mapped when it appears
    /// (also while a mirror tracks the pointer: both want XI2 events of every device, in one
    /// mask).
    @Test func aDeviceCoversItsMonitorOfTwoAndALaterDeviceIsMappedWhenItAppears() throws {
      let server = try TestXServer.dummy()
      try server.must(["xrandr", "--addmode", "DUMMY1", "1024x768"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "1024x768", "--right-of", "DUMMY0"])
      try devices(server, "PEN")
      let daemon = try DaemonProcess(
        display: server.display,
        config:
          "{ monitors: [ { match: { output: 'DUMMY1' }, mode: '1024x768', content: 'mirror', touch: ['PEN*', 'LATE*', 'NOWHERE*'] } ] }"
      )
      let pen = "PEN XTEST pointer"
      #expect(daemon.log.contains { $0.contains("touch: '\(pen)'") && $0.contains("mapped to DUMMY1") })
      #expect(try agrees(server, pen, "DUMMY1"))
      let beside = try matrix(server, pen)
      #expect(!close(beside, [1, 0, 0, 0, 1, 0, 0, 0, 1]), "not the whole screen: \(beside)")

      try server.must(["xinput", "create-master", "LATE"])
      let late = "LATE XTEST pointer"
      #expect(daemon.waitFor("touch: '\(late)'", timeout: 5) != nil, "the hierarchy event maps it")
      #expect(try agrees(server, late, "DUMMY1"))

      // A layout change maps again: DUMMY1 moves below DUMMY0.
      try server.must(["xrandr", "--output", "DUMMY1", "--pos", "0x1536"])
      #expect(daemon.waitFor("touch: '\(pen)'", timeout: 5) != nil, "mapped again after the layout changed")
      #expect(try agrees(server, pen, "DUMMY1"))
      #expect(!close(try matrix(server, pen), beside))

      daemon.drain()
      let nowhere = daemon.log.filter { $0.contains("touch 'NOWHERE*': no XInput pointer device") }
      #expect(nowhere.count == 1, "a glob matching nothing warns once, not per reconcile: \(nowhere)")
    }
  }
}
