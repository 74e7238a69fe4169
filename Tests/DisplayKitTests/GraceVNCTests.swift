import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

/// `disconnect_grace` on Xvnc, whose outputs the VNC client unplugs and plugs for real (Xvnc
/// itself drops the CRTC and shrinks the screen on an unplug): what the daemon does, or does
/// not do, while a monitor flaps.
extension XServerTests {
  @Suite struct DisconnectGraceOnVNC {
    /// Xvnc with VNC-0, a daemon with `grace` whose hooks append `EVENT OUTPUT` to a file, and
    /// `displayd watch --json` subscribed to the daemon's events.
    final class Rig {
      let server: TestXServer
      let vnc: VNCClient
      let main: UInt32
      let runtime: String
      let hookFile: String
      let daemon: DaemonProcess
      let x: XInspector
      let watch: ChildProcess

      init(grace: Double) throws {
        server = try TestXServer.vnc()
        vnc = try VNCClient(socketPath: server.vncSocket)
        main = try #require(vnc.screens.first?.id)
        runtime = try runtimeDirectory()
        hookFile = runtime + "/hooks.log"
        let hook = #"["sh", "-c", "echo $DISPLAYD_EVENT $DISPLAYD_OUTPUT $DISPLAYD_PRODUCT_NAME >> \#(hookFile)"]"#
        daemon = try DaemonProcess(
          display: server.display,
          config: """
            { disconnect_grace: \(grace),
              hooks: { connected: [\(hook)], disconnected: [\(hook)], timeout_seconds: 3600 } }
            """,
          environment: ["XDG_RUNTIME_DIR": runtime], logLevel: "info", disconnectGrace: nil)
        x = try XInspector(server.display)
        watch = try ChildProcess(
          [displaydPath, "watch", "--json", "--display", server.display],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        guard watch.readErrorLine(timeout: 5)?.contains("through the running daemon") == true else {
          throw RigError("watch did not subscribe to the daemon")
        }
      }

      var plugged: [VNCClient.Screen] { VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]) }
      var unplugged: [VNCClient.Screen] { VNCClient.row([(main, 1920, 1080)]) }

      /// Plugs VNC-1 and waits for its window and its `connected` hook; returns the window.
      func plug() throws -> XInspector.TopWindow {
        try vnc.setLayout(plugged)
        #expect(eventually(within: 2) { self.hooks().contains { $0.hasPrefix("connected VNC-1") } })
        var window: XInspector.TopWindow?
        #expect(
          eventually(within: 2) {
            window = self.x.displaydWindows().first
            return window?.rect == .init(x: 1920, y: 0, width: 1280, height: 1024)
          })
        return try #require(window)
      }

      func hooks() -> [String] {
        ((try? String(contentsOfFile: hookFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
      }

      /// The event lines `watch` printed until `quiet` seconds pass with nothing new.
      func events(quiet: Double = 0.3) throws -> [(event: String, output: String)] {
        var result: [(String, String)] = []
        while let line = watch.readLine(timeout: quiet) {
          let obj = try jsonObject(line)
          result.append((obj["event"] as? String ?? "?", obj["output"] as? String ?? "?"))
        }
        return result
      }

      /// `xrandr`'s geometry of VNC-1, nil when it is off.
      func geometry() throws -> String? {
        parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == "VNC-1" }?.geometry
      }
    }

    @Test func aFlapWithinTheGraceKeepsTheWindowAndMakesNoRequestNoHookNoEventPair() throws {
      let rig = try Rig(grace: 2)
      let window = try rig.plug()
      _ = try rig.events()
      rig.daemon.settle(quiet: 0.2)
      let reconciles = rig.daemon.changingReconciles.count
      try rig.vnc.setLayout(rig.unplugged)
      #expect(rig.daemon.waitFor("VNC-1: disconnected; waiting", timeout: 2) != nil)
      try rig.vnc.setLayout(rig.plugged)
      #expect(rig.daemon.waitFor("VNC-1: back within the grace", timeout: 2) != nil)
      // Past the grace: nothing happens late either.
      #expect(rig.daemon.waitFor("not back within the grace", timeout: 2.5) == nil)
      rig.daemon.settle(quiet: 0.2)
      #expect(rig.daemon.changingReconciles.count == reconciles, "no RandR request: \(rig.daemon.changingReconciles)")
      #expect(rig.x.displaydWindows().map(\.id) == [window.id], "the same window")
      #expect(try rig.geometry() == "1280x1024+1920+0", "the layout Xvnc sets")
      #expect(rig.x.displaydWindows().first?.rect == .init(x: 1920, y: 0, width: 1280, height: 1024))
      #expect(rig.hooks().count == 1, "no hook: \(rig.hooks())")
      let events = try rig.events()
      #expect(events.contains { $0 == ("disconnect-pending", "VNC-1") }, "\(events)")
      #expect(!events.contains { $0.event == "disconnected" || $0.event == "connected" }, "\(events)")
      #expect(graceTimers(rig.daemon.child.pid).isEmpty, "no timer once nothing is pending")
      #expect(eventually(within: 1) { allThreadsIdle(rig.daemon.child.pid) })
      let before = try wakeups(rig.daemon.child.pid)
      _ = pollFDs([], timeoutMs: 1_000)  // the observation window, not a wait for anything
      #expect(try wakeups(rig.daemon.child.pid) == before, "no wake-ups in 1 s of idling after a flap")
    }

    /// The churn the grace removes, as a grace of 0 (the behaviour before it) still shows: a
    /// flap releases the window and makes a new one, runs both hooks and sends both events.
    @Test func withoutAGraceAFlapChurnsTheWindowHooksAndEvents() throws {
      let rig = try Rig(grace: 0)
      let window = try rig.plug()
      _ = try rig.events()
      try rig.vnc.setLayout(rig.unplugged)
      #expect(eventually(within: 2) { rig.x.displaydWindows().isEmpty })
      let again = try rig.plug()
      #expect(again.id != window.id, "another window")
      #expect(eventually(within: 2) { rig.hooks().count == 3 }, "connected, disconnected, connected: \(rig.hooks())")
      let events = try rig.events().map(\.event)
      #expect(events.contains("disconnected") && events.contains("connected") && !events.contains("disconnect-pending"))
    }

    @Test func aMonitorGoneForLongerIsHandledAfterTheGraceAsToday() throws {
      let rig = try Rig(grace: 0.5)
      _ = try rig.plug()
      _ = try rig.events()
      try rig.vnc.setLayout(rig.unplugged)
      #expect(rig.daemon.waitFor("VNC-1: disconnected; waiting", timeout: 2) != nil)
      #expect(rig.x.displaydWindows().count == 1, "kept during the grace")
      #expect(rig.daemon.waitFor("not back within the grace", timeout: 3) != nil)
      #expect(eventually(within: 2) { rig.x.displaydWindows().isEmpty }, "released after it")
      #expect(eventually(within: 2) { rig.hooks().last?.hasPrefix("disconnected VNC-1") == true }, "\(rig.hooks())")
      let events = try rig.events()
      #expect(events.map(\.event) == ["disconnect-pending", "disconnected"], "\(events)")
      // Xvnc has no DPMS extension: nothing held, nothing logged about it.
      rig.daemon.settle(quiet: 0.1)
      #expect(!rig.daemon.log.contains { $0.contains("DPMS") || $0.contains("error") }, "\(rig.daemon.log)")
      #expect(graceTimers(rig.daemon.child.pid).isEmpty)
    }

    @Test func anotherMonitorOnTheConnectorWithinTheGraceIsHandledAsANewMonitor() throws {
      let rig = try Rig(grace: 5)
      _ = try rig.plug()
      // The monitor's identity, as the rig gives one (Xvnc's outputs have no EDID).
      let connection = try XConnection(name: rig.server.display)
      let output = try #require(try connection.readTopology().output(named: "VNC-1"))
      try connection.setEDID(try hostileEDID(name: "ALPHA", serial: "1"), on: output.id)
      try connection.sync()
      #expect(rig.daemon.waitFor("edid-changed VNC-1", timeout: 2) != nil)
      rig.daemon.settle(quiet: 0.2)
      let first = try #require(rig.x.displaydWindows().first)
      _ = try rig.events()
      try rig.vnc.setLayout(rig.unplugged)
      #expect(rig.daemon.waitFor("VNC-1: disconnected; waiting", timeout: 2) != nil)
      // Another monitor on the same connector, as the rig gives monitors an identity.
      try connection.setEDID(try hostileEDID(name: "BETA", serial: "2"), on: output.id)
      try connection.sync()
      try rig.vnc.setLayout(rig.plugged)
      #expect(rig.daemon.waitFor("another monitor came back", timeout: 2) != nil, "\(rig.daemon.log.suffix(5))")
      // Both hooks start together: either may write first.
      #expect(
        eventually(within: 2) { Set(rig.hooks().suffix(2)) == ["disconnected VNC-1 ALPHA", "connected VNC-1 BETA"] },
        "\(rig.hooks())")
      #expect(
        eventually(within: 2) {
          let now = rig.x.displaydWindows()
          return now.count == 1 && now[0].id != first.id
        }, "a new window for the new monitor")
      // The subscriber's events arrive on their own socket, after the hooks may have run.
      var events: [String] = []
      #expect(
        eventually(within: 2) {
          events += (try? rig.events().map(\.event)) ?? []
          return events.count >= 3
        }, "\(events)")
      #expect(events.starts(with: ["disconnect-pending", "disconnected", "connected"]), "\(events)")
    }

    @Test func aStormOfFlapsKeepsTheWindowAndEndsExactlyAsXvncSetsIt() throws {
      let rig = try Rig(grace: 2)
      let window = try rig.plug()
      rig.daemon.settle(quiet: 0.2)
      let reconciles = rig.daemon.changingReconciles.count
      _ = try rig.events()
      for _ in 0..<20 {
        try rig.vnc.setLayout(rig.unplugged)
        try rig.vnc.setLayout(rig.plugged)
        rig.daemon.drain()
      }
      #expect(rig.daemon.waitFor("not back within the grace", timeout: 3) == nil)
      rig.daemon.settle(quiet: 0.2)
      #expect(rig.x.displaydWindows().map(\.id) == [window.id], "no window churn")
      #expect(rig.daemon.changingReconciles.count == reconciles, "\(rig.daemon.changingReconciles.suffix(3))")
      #expect(try rig.geometry() == "1280x1024+1920+0")
      #expect(rig.x.displaydWindows().first?.rect == .init(x: 1920, y: 0, width: 1280, height: 1024))
      #expect(rig.hooks().count == 1, "\(rig.hooks())")
      let events = try rig.events()
      #expect(!events.contains { $0.event == "disconnected" || $0.event == "connected" }, "\(events)")
      #expect(graceTimers(rig.daemon.child.pid).isEmpty)
    }

    @Test func aServerWithoutDPMSIsNeverBlanked() throws {
      for server in [try TestXServer.vnc(), try TestXServer.dummy()] {
        let connection = try XConnection(name: server.display)
        #expect(!connection.screenBlanked())
        #expect(connection.takeErrors().isEmpty, "no X error from asking")
      }
    }
  }
}

/// The daemon's armed timers due within a minute: the grace timer's (a hook's, set to an
/// hour here, may stay armed unpolled after the hook ends, and cannot wake the daemon).
func graceTimers(_ pid: pid_t) -> [String] {
  armedTimers(pid).filter { timer in
    let seconds = timer.split(separator: "(").last?.split(separator: ",").first.flatMap { Int($0) }
    return (seconds ?? 0) < 60
  }
}
