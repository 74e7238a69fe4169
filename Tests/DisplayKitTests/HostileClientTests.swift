import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

extension XServerTests {
  /// Any client on the desktop may send events to displayd's windows, destroy them or change
  /// their properties: none of it may crash, stall or leak the daemon.
  @Suite struct HostileClients {
    struct Rig {
      var server: TestXServer
      var vnc: VNCClient
      var daemon: DaemonProcess
      var x: XInspector
      var main: UInt32
    }

    /// Xvnc, the daemon with `config`, and one 1280x1024 monitor plugged right of main.
    func plugged(_ config: String = "{}") throws -> Rig {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(display: server.display, config: config)
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      guard eventually(within: 2, { x.displaydWindows().count == 1 && x.displaydWindows()[0].mapped }) else {
        daemon.settle(quiet: 0.1)
        throw RigError("no window: \(daemon.log.suffix(20).joined(separator: "\n"))")
      }
      // The window is mapped before its picture is drawn: let the drawing finish.
      daemon.settle(quiet: 0.1)
      return Rig(server: server, vnc: vnc, daemon: daemon, x: x, main: main)
    }

    /// Plugs a second monitor and waits for its window: proves the daemon got through
    /// everything it was sent before.
    func expectResponsive(_ rig: Rig, _ label: String) throws {
      try rig.vnc.setLayout(
        VNCClient.row([(rig.main, 1920, 1080), (rig.main + 1, 1280, 1024), (rig.main + 2, 800, 600)]))
      let two = eventually(within: 2) { rig.x.displaydWindows().count == 2 }
      rig.daemon.drain()
      #expect(two, "\(label): the daemon still manages monitors; log: \(rig.daemon.log.suffix(5))")
      #expect(rig.daemon.isRunning, "\(label): the daemon is alive")
    }

    @Test func clientMessagesOfEveryFormatLeaveTheDaemonUpAndUnchanged() throws {
      let rig = try plugged()
      let before = try #require(rig.x.displaydWindows().first)
      let resources = try rig.x.resources(ofPid: rig.daemon.child.pid)
      let protocols = rig.x.atom("WM_PROTOCOLS")
      // Xlib sign-extends format-32 data: 0xFFFFFFFF arrives as -1.
      rig.x.sendClientMessage(to: before.id, type: protocols, format: 32, longs: [0xFFFF_FFFF, -1, -1, -1, -1])
      rig.x.sendClientMessage(to: before.id, type: protocols, format: 8, longs: [-1, -1, -1, -1, -1])
      rig.x.sendClientMessage(to: before.id, type: protocols, format: 16, longs: [-1, -1, -1, -1, -1])
      rig.x.sendClientMessage(to: before.id, type: protocols, format: 32, longs: [Int(rig.x.atom("WM_DELETE_WINDOW"))])
      var generator = SystemRandomNumberGenerator()
      for i in 0..<1000 {
        let type = i % 3 == 0 ? protocols : UInt(UInt.random(in: 0...400, using: &generator))
        let format = [8, 16, 32][i % 3]
        let data = (0..<5).map { _ in Int.random(in: Int.min...Int.max, using: &generator) }
        rig.x.sendClientMessage(to: before.id, type: type, format: Int32(format), longs: data)
        if i % 100 == 0 { rig.x.flush() }
      }
      rig.x.sync()
      try expectResponsive(rig, "after 1,004 ClientMessages")
      let after = rig.x.displaydWindows().first { $0.output == "VNC-1" }
      #expect(after == before, "the window is the same one, where it was")
      #expect(!rig.daemon.log.contains { $0.contains("released") && $0.contains("VNC-1") })
      try rig.vnc.setLayout(VNCClient.row([(rig.main, 1920, 1080), (rig.main + 1, 1280, 1024)]))
      #expect(
        eventually(within: 2) { (try? rig.x.resources(ofPid: rig.daemon.child.pid)) == resources },
        "\((try? rig.x.resources(ofPid: rig.daemon.child.pid))) vs \(resources)")
    }

    @Test func propertyChangesOnItsWindowsChangeNothing() throws {
      let rig = try plugged()
      let before = try #require(rig.x.displaydWindows().first)
      rig.x.setProperty(before.id, "_DISPLAYD_OUTPUT", type: "UTF8_STRING", bytes: Array("VNC-7\n".utf8))
      rig.x.setProperty(before.id, "WM_NAME", bytes: [UInt8](repeating: 0xFF, count: 4096))
      rig.x.setProperty(before.id, "WM_PROTOCOLS", type: "ATOM", bytes: [1, 2, 3])
      rig.x.sync()
      try expectResponsive(rig, "after property changes")
    }

    @Test func aPlaceholderWindowDestroyedByAnotherClientComesBackAndUnplugLeavesNone() throws {
      try destroyedWindowComesBack("{}")
    }

    @Test func aMirrorWindowDestroyedByAnotherClientComesBackAndUnplugLeavesNone() throws {
      try destroyedWindowComesBack("{ defaults: { content: 'mirror' } }")
    }

    func destroyedWindowComesBack(_ config: String) throws {
      let rig = try plugged(config)
      let pid = rig.daemon.child.pid
      let held = try rig.x.resources(ofPid: pid)
      for round in 0..<3 {
        let old = try #require(rig.x.displaydWindows().first)
        let start = now()
        rig.x.destroy(old.id)
        rig.x.sync()
        let back = eventually(within: 1) {
          let w = rig.x.displaydWindows()
          return w.count == 1 && w[0].id != old.id && w[0].mapped && w[0].rect == old.rect
        }
        rig.daemon.drain()
        #expect(back, "round \(round): one new window on VNC-1; log: \(rig.daemon.log.suffix(6))")
        if back { print("window back after \(Int((now() - start) * 1000)) ms") }
        #expect(
          eventually(within: 1) { (try? rig.x.resources(ofPid: pid)) == held },
          "round \(round): \((try? rig.x.resources(ofPid: pid))) vs \(held)")
      }
      #expect(!rig.daemon.log.contains { $0.contains("could not create") }, "\(rig.daemon.log.suffix(10))")
      let baseline = ["WINDOW": 0]
      try rig.vnc.setLayout(VNCClient.row([(rig.main, 1920, 1080)]))
      #expect(eventually(within: 1) { rig.x.displaydWindows().isEmpty }, "no window after unplug")
      #expect(eventually(within: 1) { (try? rig.x.resources(ofPid: pid))?["WINDOW", default: 0] == baseline["WINDOW"] })
      #expect(rig.daemon.isRunning)
    }

    @Test func aWindowDestroyedInTheSameBatchAsAnUnchangedRandREventComesBack() throws {
      let rig = try plugged()
      let old = try #require(rig.x.displaydWindows().first)
      let output = try #require(rig.x.outputID(named: "VNC-0"))
      // An EDID property change that changes nothing but makes a RandR event, sent together
      // with the destroy.
      rig.x.setOutputProperty(output, "EDID", [1, 2, 3])
      rig.x.sync()
      rig.daemon.settle(quiet: 0.2)
      rig.x.destroy(old.id)
      rig.x.setOutputProperty(output, "EDID", [1, 2, 3])
      rig.x.sync()
      let back = eventually(within: 1) { rig.x.displaydWindows().count == 1 && rig.x.displaydWindows()[0].id != old.id }
      rig.daemon.drain()
      #expect(back, "\(rig.daemon.log.suffix(6))")
    }

    @Test func anOutputPropertyStormNeitherReadsTheTopologyNorStarvesSignals() throws {
      let rig = try plugged()
      let output = try #require(rig.x.outputID(named: "VNC-1"))
      rig.daemon.settle(quiet: 0.1)
      let readsBefore = rig.daemon.log.filter { $0.contains("heads unchanged") }.count
      let ticks = try #require(cpuTicks(rig.daemon.child.pid))
      // A backlight slider: one property, many values, as fast as a client can send them;
      // a SIGHUP in the middle must still be served.
      var reloaded = false
      let deadline = Deadline(seconds: 1.5)
      var i = 0
      while !deadline.passed {
        rig.x.setOutputProperty(output, "Backlight", [UInt8(i & 0xFF), 0, 0, 0])
        i += 1
        if i % 64 == 0 { rig.x.sync() }
        if i == 2000 { rig.daemon.child.signal(SIGHUP) }
        if i > 2000, i % 256 == 0, !reloaded {
          rig.daemon.drain()
          reloaded = rig.daemon.log.contains { $0.contains("config reloaded") }
        }
      }
      rig.x.sync()
      rig.daemon.settle(quiet: 0.2)
      reloaded = reloaded || rig.daemon.log.contains { $0.contains("config reloaded") }
      #expect(i > 2000, "the storm sent \(i) changes")
      #expect(reloaded, "SIGHUP served during the storm")
      let reads = rig.daemon.log.filter { $0.contains("heads unchanged") }.count - readsBefore
      #expect(reads == 0, "\(reads) topology reads for \(i) changes of a property that is not EDID")
      let used = (cpuTicks(rig.daemon.child.pid) ?? 0) - ticks
      print("property storm: \(i) changes, daemon \(used) CPU ticks")
      try expectResponsive(rig, "after the property storm")
    }
  }
}

extension XServerTests {
  /// Which monitors the daemon leaves alone: those it configured, as long as the same
  /// monitor (by EDID) stays on the connector.
  @Suite struct Settling {
    @Test func aMonitorSwappedOnTheSameConnectorGetsItsOwnRule() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(
        display: server.display,
        config: """
          { monitors: [ { match: { product_name: 'ALPHA' }, mode: '1024x768' },
                        { match: { product_name: 'BETA' }, mode: '800x600' } ] }
          """, logLevel: "info")
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(eventually(within: 1) { x.displaydWindows().first?.rect.width == 1280 })
      let output = try #require(x.outputID(named: "VNC-1"))
      for (name, width) in [("ALPHA", 1024), ("BETA", 800)] {
        x.setOutputProperty(output, "EDID", try hostileEDID(name: name, serial: "1"))
        x.sync()
        let applied = eventually(within: 1) { x.displaydWindows().first?.rect.width == width }
        daemon.drain()
        #expect(applied, "\(name)'s rule applies to the new monitor: \(daemon.log.suffix(4))")
        #expect(try server.must(["xrandr"]).contains("VNC-1 connected \(width)x"))
      }
    }
  }
}

extension XServerTests {
  /// Another client's `xrandr` while the daemon runs: it stays up and converges.
  @Suite struct ForeignRandR {
    @Test func turningAManagedOutputOffRemovesItsWindowAndIsLeftAlone() throws {
      let server = try TestXServer.dummy()
      try server.must(["xrandr", "--addmode", "DUMMY1", "800x600"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "800x600", "--right-of", "DUMMY0"])
      try server.must(["xrandr", "--output", "DUMMY1", "--off"])
      let daemon = try DaemonProcess(
        display: server.display, config: "{ defaults: { mode: '800x600' } }", logLevel: "info")
      let x = try XInspector(server.display)
      #expect(eventually(within: 1) { x.displaydWindows().count == 1 })
      try server.must(["xrandr", "--output", "DUMMY1", "--off"])
      #expect(eventually(within: 1) { x.displaydWindows().isEmpty }, "no window on a monitor that is off")
      daemon.settle(quiet: 0.3)
      #expect(!(try server.must(["xrandr"]).contains("DUMMY1 connected 800x600")), "DUMMY1 stays off")
      #expect(daemon.isRunning)
      #expect(daemon.changingReconciles.count == 1, "the user's choice is left alone: \(daemon.changingReconciles)")
    }

    @Test func aModeRemovedWhileTheDaemonSetsItEndsWithTheMonitorLitAndCovered() throws {
      for round in 0..<5 {
        let server = try TestXServer.dummy()
        try server.must(["xrandr", "--addmode", "DUMMY1", "800x600"])
        try server.must(["xrandr", "--output", "DUMMY1", "--mode", "800x600", "--right-of", "DUMMY0"])
        try server.must(["xrandr", "--output", "DUMMY1", "--off"])
        try server.must([
          "xrandr", "--newmode", "odd", "60", "1000", "1010", "1020", "1030", "700", "702", "704", "706",
        ])
        try server.must(["xrandr", "--addmode", "DUMMY1", "odd"])
        // Another client removes the mode while the daemon starts and sets it: whoever wins,
        // the monitor ends lit (with the mode, or the next of its chain) and covered.
        let remover = try ChildProcess(
          ["sh", "-c", "xrandr --delmode DUMMY1 odd; xrandr --rmmode odd"],
          environment: ["DISPLAY": server.display, "PATH": "/usr/bin:/bin"])
        let daemon = try DaemonProcess(
          display: server.display, config: "{ defaults: { content: 'placeholder', mode: '1000x700' } }",
          logLevel: "info")
        let x = try XInspector(server.display)
        remover.wait(timeout: 5)
        let covered = eventually(within: 2) {
          let outputs = parseXrandrVerbose((try? server.must(["xrandr", "--verbose"])) ?? "")
          let w = x.displaydWindows()
          return w.count == 1 && outputs.first { $0.name == "DUMMY1" }?.geometry == w[0].rect.description
        }
        daemon.settle(quiet: 0.2)
        #expect(covered, "round \(round): DUMMY1 lit and covered: \(x.displaydWindows()) \(daemon.log.suffix(6))")
        #expect(daemon.isRunning)
      }
    }
  }
}

extension XServerTests.HostileClients {
  @Test func aFakedDestroyNotifyIsNotBelieved() throws {
    let rig = try plugged("{ defaults: { content: 'mirror' } }")
    let before = try #require(rig.x.displaydWindows().first)
    let held = try rig.x.resources(ofPid: rig.daemon.child.pid)
    // Any client may send a DestroyNotify naming a live window; believing it would stack a
    // new window on the old one and leak the old, once per event.
    for _ in 0..<20 { rig.x.sendDestroyNotify(about: before.id) }
    rig.x.sync()
    try expectResponsive(rig, "after 20 faked DestroyNotify events")
    let after = rig.x.displaydWindows().filter { $0.output == "VNC-1" }
    #expect(after == [before], "the same one window on VNC-1: \(after)")
    try rig.vnc.setLayout(VNCClient.row([(rig.main, 1920, 1080), (rig.main + 1, 1280, 1024)]))
    #expect(
      eventually(within: 2) { (try? rig.x.resources(ofPid: rig.daemon.child.pid)) == held },
      "\((try? rig.x.resources(ofPid: rig.daemon.child.pid)) ?? [:]) vs \(held)")
  }
}
