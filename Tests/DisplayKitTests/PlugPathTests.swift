import Foundation
import Testing
import XRig

extension XServerTests {
  /// The order of a plug: the mode and place first, then the `connected` hook, then the window.
  @Suite struct PlugPath {
    @Test func theConnectedHookSeesTheModeAndPlaceAlreadySetAndStartsBeforeTheWindow() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let dir = try makeTempDirectory("displayd-hook-order")
      // What the hook reads as it starts, from the server itself.
      let script = "xrandr --display \"$1\" --current > \"$2.tmp\" && mv \"$2.tmp\" \"$2\""
      let config = """
        { defaults: { mode: '1024x768' },
          hooks: { connected: ["/bin/sh", "-c", \(jsonString(script)), "hook", "\(server.display)", "\(dir)/layout"] } }
        """
      let daemon = try DaemonProcess(display: server.display, config: config, logLevel: "info")
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(eventually(within: 2) { FileManager.default.fileExists(atPath: dir + "/layout") })
      let seen = try String(contentsOfFile: dir + "/layout", encoding: .utf8)
      #expect(seen.contains("VNC-1 connected 1024x768+1920+0"), "the hook saw the daemon's mode and place: \(seen)")
      #expect(daemon.waitFor("exited with status 0", timeout: 2) != nil)
      let hook = daemon.log.firstIndex { $0.contains("hook /bin/sh started") && $0.contains("VNC-1") }
      let window = daemon.log.firstIndex { $0.contains("window ") && $0.contains(" on VNC-1 at ") }
      #expect(hook != nil && window != nil, "\(daemon.log)")
      if let hook, let window { #expect(hook < window, "the hook starts before the window is made") }
    }
  }
}
