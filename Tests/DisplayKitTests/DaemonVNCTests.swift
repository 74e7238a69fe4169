import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// A distinct background and text colour, so pixels read back say which is which.
let colourConfig = "{ placeholder: { background: '#204080', foreground: '#ffcc00', text: 'HELLO 你好' } }"
let background: UInt32 = 0x204080
let foreground: UInt32 = 0xffcc00

extension XServerTests {
  @Suite struct DaemonOnVNC {
    /// Waits until the displayd windows on the server satisfy `condition`.
    func windows(_ x: XInspector, within seconds: Double = 1, _ condition: ([XInspector.TopWindow]) -> Bool)
      -> [XInspector.TopWindow]?
    {
      var last: [XInspector.TopWindow] = []
      let ok = eventually(within: seconds) {
        last = x.displaydWindows()
        return condition(last)
      }
      return ok ? last : nil
    }

    @Test func plugGetsAPaintedWindowAndUnplugReleasesEverything() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(display: server.display, config: colourConfig)
      let x = try XInspector(server.display)
      let baseline = try x.resources(ofPid: daemon.child.pid)
      #expect(baseline["WINDOW", default: 0] == 0)

      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let shown = try #require(windows(x) { $0.count == 1 && $0[0].mapped }, "a mapped window within 1 s")
      let w = shown[0]
      #expect(w.output == "VNC-1")
      #expect(w.rect == .init(x: 1920, y: 0, width: 1280, height: 1024))
      #expect(x.wmClass(w.id) == ["displayd", "Displayd"])
      #expect(x.stringProperty(w.id, "WM_NAME") == "displayd: VNC-1")
      #expect(x.acceptsInput(w.id) == false, "never takes keyboard focus")

      let painted = eventually(within: 1) { x.pixel(x: 1921, y: 1) == background }
      #expect(painted, "corners are the background colour")
      for (px, py) in [(1920, 0), (3199, 0), (1920, 1023), (3199, 1023)] {
        #expect(x.pixel(x: px, y: py) == background)
      }
      // The window shows its background colour at once; the picture follows.
      let text = eventually(within: 1) { x.row(y: 512, from: 1920, to: 3200).contains(foreground) }
      #expect(text, "the centre line crosses text of the foreground colour")

      let held = try x.resources(ofPid: daemon.child.pid)
      #expect(held["WINDOW", default: 0] == 1 && held["PIXMAP", default: 0] >= 1)

      try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))
      #expect(windows(x) { $0.isEmpty } != nil, "the window is gone within 1 s")
      // Every resource type, not a subset: anything the window needed is gone with it.
      let released = try eventually(within: 1) { try x.resources(ofPid: daemon.child.pid) == baseline }
      #expect(released, "X-Resource counts back to \(baseline): \((try? x.resources(ofPid: daemon.child.pid)) ?? [:])")
    }

    @Test func twoMonitorsGetTwoWindowsAndUnpluggingOneLeavesTheOther() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(display: server.display)
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024), (main + 2, 1024, 768)]))
      let two = try #require(windows(x) { $0.count == 2 && $0.allSatisfy(\.mapped) }, "two windows")
      let byOutput = Dictionary(uniqueKeysWithValues: two.map { ($0.output ?? "", $0) })
      let layout = try server.must(["xrandr"])
      for (name, window) in byOutput {
        #expect(layout.contains("\(name) connected \(window.rect)"), "\(name): \(window.rect)")
      }

      // Unplug the last screen: Xvnc keeps outputs in screen order, so VNC-1 stays as it is.
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let one = try #require(windows(x) { $0.count == 1 }, "one window left")
      #expect(try server.must(["xrandr"]).contains("VNC-2 disconnected"))
      #expect(one[0].id == byOutput["VNC-1"]?.id, "the remaining monitor keeps its window")
      #expect(one[0].rect == byOutput["VNC-1"]?.rect)
      daemon.settle()
      #expect(!daemon.log.contains { $0.contains("follows VNC-1") })
      daemon.child.signal(SIGTERM)
      #expect(daemon.child.wait(timeout: 1) == 0)
    }

    @Test func modeRuleDrivesTheMonitorAndAMissingModeFallsBack() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(
        display: server.display,
        config:
          "{ monitors: [ { match: { output: 'VNC-1' }, mode: '1024x768' }, { match: { output: 'VNC-*' }, mode: '1600x900' } ] }"
      )
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let w = try #require(windows(x) { $0.count == 1 && $0[0].rect.width == 1024 }, "window follows the rule's mode")
      #expect(w[0].rect == .init(x: 1920, y: 0, width: 1024, height: 768))
      #expect(try server.must(["xrandr"]).contains("VNC-1 connected 1024x768+1920+0"))

      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024), (main + 2, 1280, 720)]))
      let warning = daemon.waitFor("VNC-2 has no mode 1600x900", timeout: 1)
      #expect(warning?.contains("warning") == true, "a warning in the log")
      let both = try #require(windows(x) { $0.count == 2 }, "the fallback monitor is not left dark")
      #expect(both.contains { $0.output == "VNC-2" && $0.rect.width == 1280 && $0.rect.height == 720 })
    }

    @Test func ownChangesCauseNoFurtherChangeAndIdleCostsNoWakeups() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(display: server.display, config: "{ defaults: { mode: '1024x768' } }")
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(windows(x) { $0.count == 1 && $0[0].rect.width == 1024 } != nil)
      // The events of the daemon's own mode change reach it and change nothing.
      #expect(daemon.waitFor("nothing to change", timeout: 1) != nil)
      daemon.settle()
      #expect(daemon.changingReconciles.count == 1, "\(daemon.changingReconciles)")
      #expect(eventually(within: 1) { allThreadsIdle(daemon.child.pid) })
      #expect(armedTimers(daemon.child.pid).isEmpty, "no armed timer: \(armedTimers(daemon.child.pid))")
      let before = try wakeups(daemon.child.pid)
      _ = pollFDs([], timeoutMs: 1_000)  // the observation window, not a wait for anything
      #expect(try wakeups(daemon.child.pid) == before, "no wake-ups in 1 s of idling")
      daemon.settle(quiet: 0.05)
      #expect(daemon.changingReconciles.count == 1)
    }

    @Test func levelsAreOverrideRedirectAboveAndFullScreen() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let x = try XInspector(server.display)
      x.pretendWindowManager()
      let daemon = try DaemonProcess(
        display: server.display,
        config:
          "{ monitors: [ { match: { output: 'VNC-1' }, level: 'overlay' }, { match: { output: 'VNC-2' }, level: 'above' } ] }"
      )
      try vnc.setLayout(
        VNCClient.row([(main, 1920, 1080), (main + 1, 800, 600), (main + 2, 800, 600), (main + 3, 800, 600)]))
      let all = try #require(windows(x) { $0.count == 3 && $0.allSatisfy(\.mapped) }, "three mapped windows")
      let by = Dictionary(uniqueKeysWithValues: all.map { ($0.output ?? "", $0) })
      let overlay = try #require(by["VNC-1"])
      let above = try #require(by["VNC-2"])
      let normal = try #require(by["VNC-3"])
      #expect(overlay.overrideRedirect, "overlay: override-redirect")
      let overlayState = x.atomNames(overlay.id, "_NET_WM_STATE")
      #expect(overlayState.isEmpty)
      #expect(!above.overrideRedirect)
      let aboveState = x.atomNames(above.id, "_NET_WM_STATE")
      #expect(aboveState == ["_NET_WM_STATE_ABOVE"])
      let normalState = x.atomNames(normal.id, "_NET_WM_STATE")
      #expect(normalState == ["_NET_WM_STATE_FULLSCREEN"], "normal under a WM")
      _ = daemon
    }

    @Test func sigtermWithTwoMonitorsRemovesBothWindowsAndExitsZero() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(display: server.display)
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024), (main + 2, 800, 600)]))
      #expect(windows(x) { $0.count == 2 } != nil)
      let start = now()
      daemon.child.signal(SIGTERM)
      #expect(daemon.child.wait(timeout: 1) == 0, "exit 0 within 1 s")
      #expect(now() - start < 1)
      #expect(x.displaydWindows().isEmpty)
    }
  }
}

/// Voluntary context switches of every thread of `pid`: each is a wake-up from sleep.
func wakeups(_ pid: pid_t) throws -> Int {
  let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
  return try tasks.reduce(0) { sum, tid in
    let status = try String(contentsOfFile: "/proc/\(pid)/task/\(tid)/status", encoding: .utf8)
    let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
    return sum + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
  }
}
