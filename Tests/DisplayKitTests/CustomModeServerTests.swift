import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

extension XServerTests {
  /// Modes the monitor does not list, made by the daemon on real servers: created with cvt's
  /// timings and shown, then deleted when the monitor goes or the config stops asking.
  @Suite struct CustomModesOnServers {
    static let name = "displayd-1600x700_60.00"
    static let rule = "{ monitors: [ { match: { output: '%@' }, mode: '1600x700@60', custom: true } ] }"

    /// `cvt 1600 700 60` run now when installed, else as captured from it (xcvt 0.1.2).
    func cvtTimings() throws -> (clock: UInt, h: [Int], v: [Int]) {
      var text = "90.50  1600 1680 1840 2080  700 703 713 727 -hsync +vsync"
      if FileManager.default.isExecutableFile(atPath: "/usr/bin/cvt") {
        let out = try runCommand(["/usr/bin/cvt", "1600", "700", "60"]).out
        let line = try #require(out.split(separator: "\n").first { $0.hasPrefix("Modeline") })
        text = String(line.split(separator: " ", maxSplits: 2)[2])
      }
      let words = text.split(separator: " ")
      let mhz = try #require(Double(words[0]))
      let numbers = words[1...8].compactMap { Int($0) }
      return (UInt((mhz * 1e6).rounded()), Array(numbers[0..<4]), Array(numbers[4..<8]))
    }

    func made(_ x: XInspector) -> [XInspector.ServerMode] { x.serverModes().filter { $0.name.hasPrefix("displayd-") } }

    @Test func aCustomModeIsMadeWithCvtsTimingsAndShownOnADummyOutput() throws {
      let server = try TestXServer.dummy()
      try server.must(["xrandr", "--addmode", "DUMMY1", "800x600"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "800x600", "--right-of", "DUMMY0"])
      let x = try XInspector(server.display)
      #expect(made(x).isEmpty)
      let daemon = try DaemonProcess(display: server.display, config: String(format: Self.rule, "DUMMY1"))
      let mode = try #require(made(x).first, "\(daemon.log)")
      let cvt = try cvtTimings()
      #expect(mode.name == Self.name && mode.dotClock == cvt.clock && mode.h == cvt.h && mode.v == cvt.v, "\(mode)")
      let verbose = try server.must(["xrandr", "--verbose"])
      let current = verbose.split(separator: "\n").first { $0.contains(Self.name) }.map(String.init) ?? ""
      #expect(current.contains("*current") && current.contains("90.500MHz"), "\(verbose)")
      #expect(try server.must(["xrandr"]).contains("DUMMY1 connected 1600x700+2048+0"))
      daemon.settle()
      #expect(daemon.changingReconciles.count == 1, "its own mode is in force afterwards: \(daemon.log)")
      let saved = try displayd(["profile", "save", "desk", "--display", server.display])
      #expect(saved.out.contains(#"mode: "1600x700@60", custom: true"#), "\(saved.out) \(saved.err)")

      // The config no longer asks for it: the output gets a mode it lists, the made one goes.
      let path = try #require(daemon.configPath)
      try "{ monitors: [ { match: { output: 'DUMMY1' }, mode: '800x600' } ] }".write(
        toFile: path, atomically: true, encoding: .utf8)
      daemon.child.signal(SIGHUP)
      #expect(eventually(within: 3) { made(x).isEmpty }, "\(daemon.log)")
      #expect(try server.must(["xrandr"]).contains("DUMMY1 connected 800x600+2048+0"))
      daemon.settle()
      #expect(!daemon.log.contains { $0.contains("could not configure") || $0.contains("not restored") })
    }

    /// A modeline in xrandr's syntax, as users paste from cvt, is made as given.
    @Test func aModelineIsMadeAsGiven() throws {
      let server = try TestXServer.dummy()
      try server.must(["xrandr", "--addmode", "DUMMY1", "800x600"])
      try server.must(["xrandr", "--output", "DUMMY1", "--mode", "800x600", "--right-of", "DUMMY0"])
      let x = try XInspector(server.display)
      let line = "\\\"proj\\\" 63.50 1024 1072 1176 1328 768 771 775 798 -hsync +vsync"
      let daemon = try DaemonProcess(
        display: server.display, config: "{ monitors: [ { match: { output: 'DUMMY1' }, modeline: \"\(line)\" } ] }")
      let mode = try #require(made(x).first, "\(daemon.log)")
      #expect(mode.name == "displayd-proj" && mode.dotClock == 63_500_000 && mode.h == [1024, 1072, 1176, 1328])
      #expect(try server.must(["xrandr"]).contains("DUMMY1 connected 1024x768+2048+0"))
    }

    /// Plugged on Xvnc, a monitor gets the made mode; unplugged, the mode is deleted. Over many
    /// cycles (`DISPLAYD_SOAK_CYCLES`, 200 by default) the server's mode list does not grow.
    @Test func customModesDoNotLeakOverPlugCycles() throws {
      let cycles = Int(ProcessInfo.processInfo.environment["DISPLAYD_SOAK_CYCLES"] ?? "") ?? 200
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(display: server.display, config: String(format: Self.rule, "VNC-1"))
      let x = try XInspector(server.display)
      let plugged = VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)])
      let alone = VNCClient.row([(main, 1920, 1080)])

      try vnc.setLayout(plugged)
      #expect(eventually(within: 3) { made(x).map(\.name) == [Self.name] }, "\(daemon.log)")
      #expect(
        eventually(within: 3) { (try? server.must(["xrandr"]))?.contains("VNC-1 connected 1600x700+1920+0") == true })
      try vnc.setLayout(alone)
      #expect(eventually(within: 3) { made(x).isEmpty }, "deleted on unplug: \(daemon.log)")
      let baseline = x.serverModes().count

      for i in 0..<cycles {
        try vnc.setLayout(plugged)
        let shown = eventually(within: 3) {
          (try? server.must(["xrandr"]))?.contains("VNC-1 connected 1600x700+1920+0") == true
        }
        try vnc.setLayout(alone)
        let gone = eventually(within: 3) { made(x).isEmpty }
        daemon.drain()
        guard shown && gone else {
          Issue.record("cycle \(i): shown \(shown), deleted \(gone): \(daemon.log.suffix(20))")
          return
        }
      }
      let modes = x.serverModes()
      #expect(modes.count <= baseline, "\(cycles) cycles: \(baseline) modes before, \(modes.map(\.name))")
      #expect(daemon.isRunning)
    }
  }
}

extension XServerTests.CustomModesOnServers {
  /// A mode the server refuses (here BadName: another client holds the name with other
  /// timings) is a warning naming the output and the mode, and the output falls back along
  /// its chain.
  @Test func aModeTheServerRefusesIsAWarningAndTheOutputFallsBack() throws {
    let server = try TestXServer.dummy()
    try server.must(["xrandr", "--addmode", "DUMMY1", "800x600"])
    try server.must(["xrandr", "--output", "DUMMY1", "--mode", "800x600", "--right-of", "DUMMY0"])
    try server.must([
      "xrandr", "--newmode", Self.name, "10", "1600", "1601", "1602", "1603", "700", "701", "702", "703",
    ])
    let daemon = try DaemonProcess(display: server.display, config: String(format: Self.rule, "DUMMY1"))
    daemon.settle()
    let warning = daemon.log.first { $0.contains("the server refused custom mode") }
    #expect(warning?.contains("DUMMY1") == true && warning?.contains(Self.name) == true, "\(daemon.log)")
    // The fallbacks are the modes it lists no larger than the area planned for the custom
    // one, largest first: the dummy's 1024x576.
    let xrandr = try server.must(["xrandr"])
    #expect(xrandr.contains("DUMMY1 connected 1024x576+2048+0"), "\(xrandr)\n\(daemon.log)")
    #expect(!daemon.log.contains { $0.contains("could not configure") || $0.contains("not restored") }, "\(daemon.log)")
  }
}

extension XServerTests.CustomModesOnServers {
  /// A profile entry makes the mode too; a profile that no longer asks for it releases it.
  @Test func aProfileMakesTheModeAndAnotherReleasesIt() throws {
    let server = try TestXServer.dummy()
    try server.must(["xrandr", "--addmode", "DUMMY1", "800x600"])
    try server.must(["xrandr", "--output", "DUMMY1", "--mode", "800x600", "--right-of", "DUMMY0"])
    let x = try XInspector(server.display)
    let profile = { (entry: String) in
      "{ profiles: [{ name: 'desk', outputs: [{ match: { output: 'DUMMY0' } }, { match: { output: 'DUMMY1' }, \(entry) }] }] }"
    }
    let daemon = try DaemonProcess(
      display: server.display, config: profile("mode: '1600x700', custom: true, reduced: true"))
    #expect(eventually(within: 3) { made(x).map(\.name) == ["displayd-1600x700R_60.00"] }, "\(daemon.log)")
    #expect(made(x).first.map { $0.h == [1600, 1648, 1680, 1760] && $0.v == [700, 703, 713, 720] } == true)
    let shown = try server.must(["xrandr"])
    #expect(shown.contains("DUMMY1 connected 1600x700+"), "\(shown)\n\(daemon.log)")
    let path = try #require(daemon.configPath)
    try profile("mode: '800x600'").write(toFile: path, atomically: true, encoding: .utf8)
    daemon.child.signal(SIGHUP)
    #expect(eventually(within: 3) { made(x).isEmpty }, "\(daemon.log)")
    #expect(try server.must(["xrandr"]).contains("DUMMY1 connected 800x600+"))
  }
}
