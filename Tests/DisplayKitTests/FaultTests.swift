import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

extension XServerTests {
  /// Storms, soaks and faults, watched from outside the daemon: an independent X connection
  /// and `/proc`.
  @Suite struct Faults {
    static let sizes = [(1280, 1024), (1024, 768), (800, 600), (1600, 900), (1280, 720)]

    /// Every external output xrandr reports connected, with its CRTC rectangle.
    func connectedExternals(_ server: TestXServer) throws -> [String: XInspector.Rect] {
      var result: [String: XInspector.Rect] = [:]
      for o in parseXrandrVerbose(try server.must(["xrandr", "--verbose"])) where o.connected && o.name != "VNC-0" {
        guard let g = o.geometry else { continue }
        let parts = g.split(whereSeparator: { $0 == "x" || $0 == "+" }).compactMap { Int($0) }
        guard parts.count == 4 else { continue }
        result[o.name] = .init(x: parts[2], y: parts[3], width: parts[0], height: parts[1])
      }
      return result
    }

    /// Exactly one window per connected external output, at its CRTC rectangle.
    func windowsMatchOutputs(_ server: TestXServer, _ x: XInspector) -> Bool {
      guard let outputs = try? connectedExternals(server) else { return false }
      let windows = x.displaydWindows()
      guard windows.count == outputs.count, windows.allSatisfy(\.mapped) else { return false }
      return windows.allSatisfy { w in w.output.flatMap { outputs[$0] } == w.rect }
    }

    func storm(content: String) throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(
        display: server.display, config: "{ defaults: { content: '\(content)' } }", logLevel: "info")
      let x = try XInspector(server.display)
      let pid = daemon.child.pid
      let final = VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024), (main + 2, 1024, 768)])
      try vnc.setLayout(final)
      #expect(eventually(within: 1) { windowsMatchOutputs(server, x) })
      daemon.settle(quiet: 0.2)
      let before = try x.resources(ofPid: pid)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))

      var generator = SystemRandomNumberGenerator()
      let start = now()
      for _ in 0..<200 {
        let extra = Int.random(in: 0...3, using: &generator)
        var layout: [(id: UInt32, width: Int, height: Int)] = [(main, 1920, 1080)]
        for i in 0..<extra {
          let (w, h) = Self.sizes.randomElement(using: &generator) ?? (800, 600)
          layout.append((main + UInt32(i) + 1, w, h))
        }
        try vnc.setLayout(VNCClient.row(layout))
        daemon.drain()
        // About 5 s for the 200 changes, as a flaky dock would.
        _ = pollFDs([], timeoutMs: Int32.random(in: 0...30, using: &generator))
      }
      let stormSeconds = now() - start
      let reconcilesDuringStorm = daemon.changingReconciles.count
      try vnc.setLayout(final)
      let converged = eventually(within: 1) { windowsMatchOutputs(server, x) }
      daemon.settle(quiet: 0.3)
      let outputs = try connectedExternals(server)
      #expect(converged, "one window per output at its rectangle: \(x.displaydWindows()) vs \(outputs)")
      #expect(try connectedExternals(server).count == 2)
      let after = try x.resources(ofPid: pid)
      #expect(after == before, "X resources after the storm \(after), before \(before)")
      #expect(daemon.isRunning)
      #expect(!daemon.log.contains { $0.contains("[error]") }, "\(daemon.log.filter { $0.contains("[error]") })")
      expectEveryConnectAndDisconnectInOrder(daemon.log, final: Set(try connectedExternals(server).keys))
      #expect(
        reconcilesDuringStorm == 0, "the server already did the right thing: \(daemon.changingReconciles.suffix(3))")
      print(
        "storm (\(content)): 200 layouts in \(String(format: "%.1f", stormSeconds)) s, "
          + "\(reconcilesDuringStorm) reconciles that changed something, resources \(after)")
    }

    /// The daemon's event lines (what hooks and `watch` subscribers get) alternate between
    /// connected and disconnected for each output and end in the state the server is in.
    func expectEveryConnectAndDisconnectInOrder(_ log: [String], final: Set<String>) {
      var last: [String: String] = [:]
      for line in log {
        let words = line.split(separator: " ").map(String.init)
        guard words.count >= 3, words[0] == "displayd[info]:", ["connected", "disconnected"].contains(words[1]) else {
          continue
        }
        #expect(last[words[2]] != words[1], "\(words[2]) \(words[1]) twice in a row")
        last[words[2]] = words[1]
      }
      for (output, kind) in last where output != "VNC-0" {
        #expect((kind == "connected") == final.contains(output), "\(output) ends \(kind); connected now: \(final)")
      }
      #expect(!last.isEmpty)
    }

    @Test func aStormOf200LayoutsConvergesWithPlaceholders() throws { try storm(content: "placeholder") }

    @Test func aStormOf200LayoutsConvergesWithMirrors() throws { try storm(content: "mirror") }

    @Test func soakOfPlugUnplugCyclesLeaksNothing() throws {
      let cycles = Int(ProcessInfo.processInfo.environment["DISPLAYD_SOAK_CYCLES"] ?? "") ?? 100
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(
        display: server.display, config: "{ defaults: { content: 'mirror' } }", logLevel: "info")
      let x = try XInspector(server.display)
      let pid = daemon.child.pid
      let plugged = VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)])
      let unplugged = VNCClient.row([(main, 1920, 1080)])
      var first: (resources: [String: Int], fds: Int, rss: Int)?
      var last = first
      var (firstTargets, lastTargets) = ([String](), [String]())
      let start = now()
      for cycle in 0..<cycles {
        try vnc.setLayout(plugged)
        guard eventually(within: 2, { x.displaydWindows().count == 1 }) else {
          Issue.record("cycle \(cycle): no window")
          break
        }
        try vnc.setLayout(unplugged)
        guard eventually(within: 2, { x.displaydWindows().isEmpty }) else {
          Issue.record("cycle \(cycle): the window stayed")
          break
        }
        daemon.drain()
        if cycle == 1 || cycle == cycles - 1 {
          // The server may handle the window's destruction before the rest of that batch
          // (pictures, damage, cursor events): wait until all of it is gone.
          _ = eventually(within: 1) {
            let r = (try? x.resources(ofPid: pid)) ?? ["?": 1]
            return ["WINDOW", "PICTURE", "DamageExt", "XFixesRegion", "XFixesCursorClient"].allSatisfy { r[$0] == nil }
          }
          let m = (try x.resources(ofPid: pid), openDescriptors(pid) ?? -1, procStatusKB(pid, "VmRSS") ?? -1)
          if cycle == 1 { first = m } else { last = m }
          if cycle == 1 { firstTargets = descriptorTargets(pid) } else { lastTargets = descriptorTargets(pid) }
        }
      }
      let a = try #require(first)
      let b = try #require(last)
      #expect(a.resources == b.resources, "X resources \(a.resources) → \(b.resources)")
      #expect(a.fds == b.fds, "open descriptors \(firstTargets) → \(lastTargets)")
      #expect(b.rss - a.rss <= 1024, "RSS grew \(b.rss - a.rss) kB")
      #expect(daemon.isRunning)
      print(
        "soak: \(cycles) plug/unplug cycles (mirror) in \(String(format: "%.1f", now() - start)) s; "
          + "RSS \(a.rss) kB → \(b.rss) kB; fds \(a.fds) → \(b.fds); X resources \(b.resources)")
    }

    @Test func theXServerKilledInAStormEndsTheDaemonWithStatus1() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(display: server.display, logLevel: "info")
      for i in 0..<20 {
        let extra = i % 4
        try vnc.setLayout(VNCClient.row([(main, 1920, 1080)] + (0..<extra).map { (main + UInt32($0) + 1, 1024, 768) }))
      }
      try server.crash()
      let start = now()
      let status = daemon.child.wait(timeout: 1)
      #expect(status == 1, "exit status \(String(describing: status))")
      #expect(now() - start < 1)
      daemon.settle(quiet: 0.05)
      let rest = daemon.child.drainOutput().err
      #expect(
        (daemon.log.joined(separator: "\n") + rest).contains("lost the connection to X display '\(server.display)'"))
    }

    @Test func theXServerKilledDuringAnApplyEndsTheDaemonWithStatus1() throws {
      let server = try TestXServer.dummy()
      try addModes(server, 1...15, ["800x600"])
      let daemon = try DaemonProcess(display: server.display, config: "{ defaults: { content: 'none' } }")
      // Fifteen outputs lit in a column by hand: the daemon moves all fifteen into a row in
      // one grab, and the server dies as soon as xrandr is done.
      let column = (1...15).flatMap { i in
        ["--output", "DUMMY\(i)", "--mode", "800x600", "--pos", "0x\(1536 + (i - 1) * 600)"]
      }
      try server.must(["xrandr", "--fb", "2048x10536"] + column)
      try server.crash()
      let status = daemon.child.wait(timeout: 1)
      daemon.settle(quiet: 0.05)
      #expect(status == 1, "exit status \(String(describing: status)); \(daemon.log.suffix(3))")
    }

    /// `xrandr` arguments turning outputs on in a row right of DUMMY0.
    func turnOn(_ range: ClosedRange<Int>, mode: String) -> [String] {
      ["xrandr"]
        + range.flatMap { i in
          ["--output", "DUMMY\(i)", "--mode", mode, "--pos", "\(2048 + (i - 1) * 800)x0"]
        }
    }

    /// Adds modes to DUMMY1...DUMMYn (a disconnected dummy output lists none).
    func addModes(_ server: TestXServer, _ range: ClosedRange<Int>, _ modes: [String]) throws {
      for i in range {
        for mode in modes { try server.must(["xrandr", "--addmode", "DUMMY\(i)", mode]) }
      }
    }

    @Test func fifteenMonitorsAtOnceGetFifteenWindowsAtTheirRectangles() throws {
      let server = try TestXServer.dummy()
      try addModes(server, 1...15, ["800x600"])
      // `keep`: the modes the user's xrandr gave stay, so what is timed is the daemon noticing
      // fifteen monitors and covering each, not fifteen mode changes.
      let daemon = try DaemonProcess(
        display: server.display, config: "{ defaults: { mode: 'keep' } }", logLevel: "info")
      let x = try XInspector(server.display)
      try server.must(turnOn(1...15, mode: "800x600"))
      let all = eventually(within: 2) {
        let outputs = parseXrandrVerbose((try? server.must(["xrandr", "--verbose"])) ?? "")
        let windows = x.displaydWindows()
        return windows.count == 15
          && windows.allSatisfy { w in outputs.first { $0.name == w.output }?.geometry == w.rect.description }
      }
      daemon.settle(quiet: 0.1)
      #expect(all, "15 windows at their CRTC rectangles: \(x.displaydWindows().map(\.rect)) \(daemon.log.suffix(12))")
    }

    @Test func aRowWiderThanTheServersMaximumWalksTheModeChainDown() throws {
      let server = try TestXServer.dummy()
      // Fifteen outputs whose largest mode is 2048 wide: with main, a 32768-wide row, one
      // more than the maximum of 32767.
      try addModes(server, 1...15, ["2048x1536", "1024x768", "800x600"])
      try server.must(turnOn(1...15, mode: "800x600"))
      try server.must(["xrandr"] + (1...15).flatMap { ["--output", "DUMMY\($0)", "--off"] })
      let daemon = try DaemonProcess(display: server.display, logLevel: "info")
      let x = try XInspector(server.display)
      let all = eventually(within: 3) { x.displaydWindows().count == 15 }
      daemon.settle(quiet: 0.1)
      #expect(all, "15 windows: \(x.displaydWindows().count); \(daemon.log.suffix(12))")
      let layout = try server.must(["xrandr"])
      let current = layout.split(separator: "\n").first ?? ""
      let width = current.split(separator: ",").first { $0.contains("current") }.flatMap {
        Int($0.split(separator: " ").dropFirst().first ?? "")
      }
      #expect((width ?? Int.max) <= 32767, "\(current)")
      let rects = x.displaydWindows().map(\.rect)
      #expect(rects.allSatisfy { $0.width > 0 && $0.height > 0 && $0.x + $0.width <= 32767 })
      for (i, a) in rects.enumerated() {
        for b in rects[(i + 1)...] {
          #expect(!(a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height))
        }
      }
      #expect(!daemon.log.contains { $0.contains("BadValue") }, "\(daemon.log.filter { $0.contains("BadValue") })")
      #expect(layout.contains("DUMMY0 connected primary 2048x1536+0+0"), "main stays where it was")
    }
  }
}
