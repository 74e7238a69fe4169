import DisplayKit
import DisplayModel
import Foundation
import Testing
import XRig

/// A manual layout on Xvnc, where monitors come and go for real: a plug ends it and
/// automatic choice (the rules) takes over again, putting back what the layout had moved.
extension XServerTests {
  @Suite struct LayoutVNC {
    @Test func aPlugEndsAManualLayoutAndAutomaticChoiceResumes() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let runtime = try runtimeDirectory()
      let daemon = try DaemonProcess(
        display: server.display, config: "{ defaults: { content: 'none' } }",
        environment: ["XDG_RUNTIME_DIR": runtime, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"])
      let env = ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"]
      let displayd = { (words: [String]) in
        try runCommand([displaydPath] + words + ["--display", server.display], environment: env)
      }
      let geometry = { (name: String) in
        parseXrandrVerbose((try? server.must(["xrandr", "--verbose"])) ?? "").first { $0.name == name }?.geometry
      }
      let byHand = { () -> Bool? in
        let status = try? jsonObject(try displayd(["status", "--json"]).out)
        return (status?["layout"] as? [String: Any])?["by_hand"] as? Bool
      }
      #expect(eventually(within: 2) { geometry("VNC-1") == "1280x1024+1920+0" })

      let switched = try displayd(["profile", "switch", "--layout", "extend-left"])
      #expect(switched.status == 0 && switched.out == "switched to layout 'extend-left'\n", "\(switched.err)")
      #expect(geometry("VNC-1") == "1280x1024+0+0" && geometry("VNC-0") == "1920x1080+1280+0")
      #expect(byHand() == true)

      // A third monitor, the first two left where the manual layout put them.
      try vnc.setLayout([
        VNCClient.Screen(id: main, x: 1280, y: 0, width: 1920, height: 1080),
        VNCClient.Screen(id: main + 1, x: 0, y: 0, width: 1280, height: 1024),
        VNCClient.Screen(id: main + 2, x: 3200, y: 0, width: 1024, height: 768),
      ])
      #expect(eventually(within: 3) { byHand() == false }, "\(daemon.log.suffix(10))")
      #expect(eventually(within: 3) { geometry("VNC-0") == "1920x1080+0+0" }, "main back at the origin")
      #expect(geometry("VNC-1") == "1280x1024+1920+0", "back where automatic choice had it")
      #expect(geometry("VNC-2") == "1024x768+3200+0", "the new one right of them, by the rules")
      daemon.settle()
      #expect(daemon.log.contains { $0.contains("manual layout 'extend-left' ends (the server's events)") })
    }
  }
}
