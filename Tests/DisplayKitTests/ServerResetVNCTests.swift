import DisplayKit
import DisplayModel
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// A monitor that flaps on Xvnc comes back as Xvnc sets it (its CRTC dropped while away, its
/// own mode on return): the server's choice, not a user's, so the rule's mode wins again,
/// with the same window, no hook, and nothing sent when Xvnc changed nothing.
extension XServerTests {
  @Suite struct ServerResetsOnVNC {
    /// Xvnc with VNC-0, and a daemon at the default grace whose rule gives VNC-1 `mode`; its
    /// hooks append `EVENT OUTPUT` to a file.
    final class Rig {
      let server: TestXServer
      let vnc: VNCClient
      let main: UInt32
      let hookFile: String
      let daemon: DaemonProcess
      let x: XInspector

      init(mode: String) throws {
        server = try TestXServer.vnc()
        vnc = try VNCClient(socketPath: server.vncSocket)
        main = try #require(vnc.screens.first?.id)
        let runtime = try runtimeDirectory()
        hookFile = runtime + "/hooks.log"
        let hook = #"["sh", "-c", "echo $DISPLAYD_EVENT $DISPLAYD_OUTPUT >> \#(hookFile)"]"#
        daemon = try DaemonProcess(
          display: server.display,
          config: """
            { monitors: [{ match: { output: "VNC-1" }, mode: "\(mode)" }],
              hooks: { connected: [\(hook)], disconnected: [\(hook)], timeout_seconds: 3600 } }
            """,
          environment: ["XDG_RUNTIME_DIR": runtime], logLevel: "info", disconnectGrace: nil)
        x = try XInspector(server.display)
      }

      /// Xvnc lights a monitor plugged at 1280x1024 right of VNC-0.
      var plugged: [VNCClient.Screen] { VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]) }
      var unplugged: [VNCClient.Screen] { VNCClient.row([(main, 1920, 1080)]) }

      /// Plugs VNC-1 and waits until it shows `geometry` under one window; returns the window.
      func plug(showing geometry: String) throws -> XInspector.TopWindow {
        try vnc.setLayout(plugged)
        #expect(eventually(within: 3) { (try? self.geometry()) == geometry }, "\(daemon.log.suffix(5))")
        #expect(eventually(within: 2) { self.hooks() == ["connected VNC-1"] }, "\(hooks())")
        var window: XInspector.TopWindow?
        #expect(
          eventually(within: 2) {
            window = self.x.displaydWindows().first
            return window != nil
          })
        daemon.settle(quiet: 0.2)
        return try #require(window)
      }

      func hooks() -> [String] {
        ((try? String(contentsOfFile: hookFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
      }

      /// `xrandr`'s geometry of VNC-1, nil when it is off.
      func geometry() throws -> String? {
        parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == "VNC-1" }?.geometry
      }

      /// Unplugs and plugs VNC-1 again while the daemon is stopped: it hears of both in one
      /// read, which shows the monitor connected as Xvnc set it on its return.
      func flapInOneRead() throws {
        kill(daemon.child.pid, SIGSTOP)
        defer { kill(daemon.child.pid, SIGCONT) }
        try vnc.setLayout(unplugged)
        try vnc.setLayout(plugged)
      }
    }

    /// The rule's mode is back within the grace plus a second, on the same window, with no
    /// hook, whatever the gap: Xvnc set 1280x1024 on the monitor's return.
    @Test(arguments: [0, 50, 300])
    func aFlapWithinTheGraceGetsTheRulesModeBack(gapMs: Int) throws {
      let rig = try Rig(mode: "1024x768")
      let window = try rig.plug(showing: "1024x768+1920+0")
      try rig.vnc.setLayout(rig.unplugged)
      #expect(rig.daemon.waitFor("VNC-1: disconnected; waiting", timeout: 2) != nil)
      if gapMs > 0 { _ = pollFDs([], timeoutMs: Int32(gapMs)) }  // the gap under test, not a wait for anything
      try rig.vnc.setLayout(rig.plugged)
      // The default grace is 1.5 s: back within it plus a second.
      #expect(
        eventually(within: 2.5) { (try? rig.geometry()) == "1024x768+1920+0" },
        "\((try? rig.geometry()) ?? nil ?? "off"): \(rig.daemon.log.suffix(6))")
      #expect(
        eventually(within: 2) {
          rig.x.displaydWindows().map(\.rect) == [.init(x: 1920, y: 0, width: 1024, height: 768)]
        })
      #expect(rig.x.displaydWindows().map(\.id) == [window.id], "the same window")
      rig.daemon.settle(quiet: 0.3)
      #expect(rig.daemon.log.contains { $0.contains("VNC-1: back within the grace, as the server set it") })
      #expect(rig.hooks() == ["connected VNC-1"], "no hook for the flap")
      #expect(!rig.daemon.log.contains { $0.contains("not back within the grace") })
    }

    @Test func aFlapFoldedIntoOneReadGetsTheRulesModeBack() throws {
      let rig = try Rig(mode: "1024x768")
      let window = try rig.plug(showing: "1024x768+1920+0")
      try rig.flapInOneRead()
      #expect(
        eventually(within: 2.5) { (try? rig.geometry()) == "1024x768+1920+0" },
        "\((try? rig.geometry()) ?? nil ?? "off"): \(rig.daemon.log.suffix(6))")
      #expect(rig.x.displaydWindows().map(\.id) == [window.id], "the same window")
      rig.daemon.settle(quiet: 0.3)
      #expect(rig.daemon.log.contains { $0.contains("VNC-1: disconnected and back between two reads") })
      #expect(rig.hooks() == ["connected VNC-1"], "no hook for the flap")
    }

    /// Xvnc sets the monitor back exactly as the rule had it: nothing to put back, nothing
    /// sent, within the grace or folded into one read.
    @Test func aMonitorBackAsItWasIsLeftAloneAndNothingIsSent() throws {
      let rig = try Rig(mode: "1280x1024")
      _ = try rig.plug(showing: "1280x1024+1920+0")
      let reconciles = rig.daemon.changingReconciles.count
      try rig.flapInOneRead()
      try rig.vnc.setLayout(rig.unplugged)
      #expect(rig.daemon.waitFor("VNC-1: disconnected; waiting", timeout: 2) != nil)
      try rig.vnc.setLayout(rig.plugged)
      #expect(rig.daemon.waitFor("VNC-1: back within the grace; left as it was", timeout: 2) != nil)
      rig.daemon.settle(quiet: 0.3)
      #expect(rig.daemon.changingReconciles.count == reconciles, "\(rig.daemon.changingReconciles.suffix(3))")
      #expect(!rig.daemon.log.contains { $0.contains("as the server set it") }, "\(rig.daemon.log.suffix(6))")
      #expect(try rig.geometry() == "1280x1024+1920+0")
      #expect(rig.hooks() == ["connected VNC-1"])
    }

    /// A user's own `xrandr` after the daemon placed a monitor is still left alone: only the
    /// server's resets on a monitor's return are undone.
    @Test func aUsersLaterXrandrIsStillLeftAlone() throws {
      let rig = try Rig(mode: "1024x768")
      _ = try rig.plug(showing: "1024x768+1920+0")
      _ = try rig.server.must(["xrandr", "--output", "VNC-1", "--mode", "1280x1024"])
      #expect(eventually(within: 2) { (try? rig.geometry()) == "1280x1024+1920+0" })
      rig.daemon.settle(quiet: 0.5)
      #expect(try rig.geometry() == "1280x1024+1920+0", "\(rig.daemon.log.suffix(4))")
    }
  }
}
