import Foundation
import Testing
import XRig

extension XServerTests {
  /// The layout keys of `monitors` rules, applied by the daemon to a real server (Xorg with
  /// the dummy driver) and read back from it.
  @Suite struct RulesOnDummy {
    /// DUMMY1 lit at 800x600 right of DUMMY0 by someone else, DUMMY2 connected and dark.
    func desk(_ server: TestXServer) throws {
      for i in 1...2 {
        try server.must(["xrandr", "--addmode", "DUMMY\(i)", "1024x768"])
        try server.must(["xrandr", "--addmode", "DUMMY\(i)", "800x600"])
      }
      try server.must(["xrandr", "--output", "DUMMY2", "--mode", "800x600", "--right-of", "DUMMY0"])
      try server.must(["xrandr", "--output", "DUMMY2", "--off"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "800x600", "--right-of", "DUMMY0"])
    }

    func line(_ xrandr: String, _ output: String) -> String {
      xrandr.split(separator: "\n").first { $0.hasPrefix(output + " ") }.map(String.init) ?? ""
    }

    @Test func enabledFalseTurnsAnOutputOffAndPrimaryTrueMakesAnotherThePrimary() throws {
      let server = try TestXServer.dummy()
      try desk(server)
      let before = try server.must(["xrandr"])
      #expect(line(before, "DUMMY0").contains("connected primary"), "\(before)")
      #expect(line(before, "DUMMY1").contains("800x600+"), "\(before)")

      let daemon = try DaemonProcess(
        display: server.display,
        config: """
          { monitors: [ { match: { output: 'DUMMY1' }, enabled: false },
                        { match: { output: 'DUMMY2' }, mode: '1024x768', primary: true } ] }
          """)
      let after = try server.must(["xrandr"])
      let outputs = parseXrandrVerbose(try server.must(["xrandr", "--verbose"]))
      #expect(outputs.first { $0.name == "DUMMY1" }.map { $0.connected && $0.geometry == nil } == true, "\(after)")
      #expect(line(after, "DUMMY2").contains("connected primary 1024x768+2048+0"), "\(after)")
      #expect(!line(after, "DUMMY0").contains("primary") && line(after, "DUMMY0").contains("+0+0"), "\(after)")
      let x = try XInspector(server.display)
      #expect(eventually(within: 1) { x.displaydWindows().compactMap(\.output) == ["DUMMY2"] })
      daemon.settle()
      #expect(daemon.changingReconciles.count == 1, "its own primary change is not re-arranged: \(daemon.log)")
      #expect(line(try server.must(["xrandr"]), "DUMMY0").contains("connected 2048x1536+0+0"))
    }

    /// The dummy driver's CRTCs take no transforms: the daemon learns that from the server's
    /// refusal and shows the monitor unscaled rather than not at all.
    @Test func aScaleTheCrtcRefusesIsDroppedWithAWarningAndTheMonitorStillLit() throws {
      let server = try TestXServer.dummy()
      try desk(server)
      try server.must(["xrandr", "--output", "DUMMY1", "--off"])
      let daemon = try DaemonProcess(
        display: server.display,
        config: "{ monitors: [ { match: { output: 'DUMMY1' }, mode: '1024x768', scale: 2 } ] }")
      let after = try server.must(["xrandr"])
      #expect(line(after, "DUMMY1").contains("connected 1024x768+2048+0"), "\(after)")
      #expect(daemon.log.contains { $0.contains("DUMMY1: its CRTC refused a transform") }, "\(daemon.log)")
      #expect(!daemon.log.contains { $0.contains("rolled back") || $0.contains("could not configure") })
    }
  }
}
