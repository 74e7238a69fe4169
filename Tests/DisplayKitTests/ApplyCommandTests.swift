import DisplayKit
import DisplayModel
import DisplayX11
import Foundation
import Testing
import XRig

/// `displayd apply`: the daemon's start-up arrangement done once by a short-lived process,
/// for login screens and scripts.
extension XServerTests {
  @Suite struct ApplyCommand {
    /// A dummy Xorg with DUMMY1 and DUMMY2 lit right of DUMMY0, a config file and the
    /// environment of a login screen's script (no daemon, no logind).
    struct Rig {
      let server: TestXServer
      let dir: String
      let config: String
      let env: [String: String]

      init(_ text: String) throws {
        server = try TestXServer.dummy()
        try PlanBuilder.lightDummies(server, 2)
        dir = try makeTempDirectory("displayd-apply")
        config = dir + "/config.json5"
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/run", withIntermediateDirectories: false)
        env = [
          "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": dir + "/run", "XDG_CONFIG_HOME": "/nonexistent",
          "HOME": "/nonexistent", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent",
        ]
      }

      func apply(_ extra: [String] = [], environment: [String: String] = [:]) throws -> (
        status: Int32, out: String, err: String
      ) {
        try runCommand(
          [displaydPath, "apply", "--config", config, "--display", server.display] + extra,
          environment: env.merging(environment) { $1 })
      }

      func layout() throws -> Topology { try PlanBuilder.snapshot(server) }

      func geometry(_ t: Topology, _ name: String) -> String? {
        t.output(named: name).flatMap { t.geometry(of: $0) }.map { "\($0.width)x\($0.height)+\($0.x)+\($0.y)" }
      }
    }

    static let row = """
      { profiles: [ { name: 'row', outputs: [
          { match: { output: 'DUMMY0' }, mode: '1024x768' },
          { match: { output: 'DUMMY2' }, mode: '800x600', primary: true },
          { match: { output: 'DUMMY1' }, enabled: false },
      ] } ] }
      """

    @Test func applyMakesTheProfileLayoutAndASecondApplyChangesNothing() throws {
      let rig = try Rig(Self.row)
      let first = try rig.apply()
      #expect(first.status == 0 && first.out == "applied profile 'row'\n", "\(first.out) \(first.err)")
      let t = try rig.layout()
      #expect(rig.geometry(t, "DUMMY0") == "1024x768+0+0")
      #expect(rig.geometry(t, "DUMMY2") == "800x600+1024+0")
      #expect(rig.geometry(t, "DUMMY1") == nil, "turned off")
      #expect(t.primary == t.output(named: "DUMMY2")?.id)
      #expect((t.screen.width, t.screen.height) == (1824, 768))

      let second = try rig.apply()
      #expect(second.status == 0, "\(second.err)")
      #expect(second.out == "profile 'row': already in force, nothing to change\n", "\(second.out)")
      let after = try rig.layout()
      #expect(after.timestamp == t.timestamp && after.configTimestamp == t.configTimestamp, "no request was sent")
      #expect(Layout(after) == Layout(t))
    }

    @Test func aLayoutChangedByHandIsPutBack() throws {
      let rig = try Rig(Self.row)
      #expect(try rig.apply().status == 0)
      try rig.server.must(["xrandr", "--output", "DUMMY2", "--mode", "1024x768", "--pos", "0x768"])
      let again = try rig.apply()
      #expect(again.status == 0 && again.out == "applied profile 'row'\n", "\(again.out) \(again.err)")
      #expect(rig.geometry(try rig.layout(), "DUMMY2") == "800x600+1024+0")
    }

    @Test func withoutProfilesTheMonitorsRulesApply() throws {
      let rig = try Rig(
        "{ monitors: [ { match: { output: 'DUMMY2' }, mode: '800x600', position: 'left-of DUMMY0' } ] }")
      let r = try rig.apply()
      #expect(r.status == 0 && r.out == "applied the monitors rules\n", "\(r.out) \(r.err)")
      let t = try rig.layout()
      let main = try #require(t.output(named: "DUMMY0").flatMap { t.geometry(of: $0) })
      #expect(rig.geometry(t, "DUMMY2") == "800x600+\(main.x - 800)+\(main.y)", "\(Layout(t))")
      let second = try rig.apply()
      #expect(second.out == "the monitors rules: already in force, nothing to change\n", "\(second.out) \(second.err)")
      #expect(try rig.layout().timestamp == t.timestamp)
    }

    @Test func aDryRunPrintsThePlanAndChangesNothing() throws {
      let rig = try Rig(Self.row)
      let before = try rig.layout()
      let r = try rig.apply(["--dry-run"])
      #expect(r.status == 0, "\(r.err)")
      #expect(r.out.hasPrefix("dry run: nothing is changed\nlid: open\nprofile 'row': would be chosen\n"), "\(r.out)")
      #expect(r.out.contains("  DUMMY2: 800x600@") && r.out.contains(" at 1024,0, primary"), "\(r.out)")
      #expect(r.out.contains("  DUMMY1: off"), "\(r.out)")
      let after = try rig.layout()
      #expect(after.timestamp == before.timestamp && Layout(after) == Layout(before))
    }

    @Test func aBadConfigExits78NamingTheFileAndTheLineAndChangesNothing() throws {
      let rig = try Rig("{\n  profiles: [\n    { name: 'x' outputs: [] },\n  ],\n}\n")
      let before = try rig.layout()
      let r = try rig.apply()
      #expect(r.status == 78 && r.err.contains("\(rig.config):3: syntax error"), "\(r.err)")
      try "{ profiles: [ { name: 'x', outputs: [ { match: {}, mode: 'banana' } ] } ] }".write(
        toFile: rig.config, atomically: true, encoding: .utf8)
      let key = try rig.apply()
      #expect(key.status == 78 && key.err.contains("\(rig.config):1: profiles[0].outputs[0].mode:"), "\(key.err)")
      #expect(try rig.layout().timestamp == before.timestamp)
    }

    @Test func aNamedProfileThatDoesNotMatchIsRefusedWithTheReason() throws {
      let rig = try Rig(
        Self.row.replacingOccurrences(
          of: "] } ] }", with: "] }, { name: 'big', outputs: [ { match: { output: 'DUMMY9' } } ] } ] }"))
      let before = try rig.layout()
      for extra in [[], ["--dry-run"]] {
        let r = try rig.apply(["--profile", "big"] + extra)
        #expect(r.status == 1 && r.out.isEmpty, "\(r.out)")
        #expect(
          r.err.hasPrefix("displayd: apply refused: profile 'big' does not match the monitors present: "), "\(r.err)")
        let unknown = try rig.apply(["--profile", "nope"] + extra)
        #expect(unknown.status == 1 && unknown.err.contains("no profile named 'nope' (profiles: row, big)"))
      }
      #expect(try rig.layout().timestamp == before.timestamp)
      let chosen = try rig.apply(["--profile", "row"])
      #expect(chosen.status == 0 && chosen.out == "applied profile 'row'\n", "\(chosen.err)")
    }

    /// `LD_DEBUG=files` logs every shared object the loader maps, dlopen's too: the
    /// screenshot (which draws with cairo) shows that the log would catch the renderer.
    @Test func applyLoadsNoRendererLeavesNoSocketAndNoLock() throws {
      let rig = try Rig(Self.row)
      func loaded(_ argv: [String]) throws -> [String] {
        let log = rig.dir + "/ld-\(argv[0])"
        let r = try runCommand(
          [displaydPath] + argv + ["--display", rig.server.display],
          environment: rig.env.merging(["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": log]) { $1 })
        #expect(r.status == 0, "\(argv): \(r.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: rig.dir).filter {
          $0.hasPrefix("ld-\(argv[0])")
        }
        return try files.flatMap {
          try String(contentsOfFile: rig.dir + "/" + $0, encoding: .utf8).split(separator: "\n")
        }
        .compactMap { line in
          line.range(of: "file=").map { String(line[$0.upperBound...].prefix { $0 != " " }) }
        }
      }
      let shot = try loaded(["screenshot", rig.dir + "/shot.png"])
      #expect(shot.contains { $0.contains("libcairo") }, "the loader's log shows dlopen")
      let apply = try loaded(["apply", "--config", rig.config])
      #expect(apply.contains { $0.contains("libc.so") }, "\(apply)")
      #expect(!apply.contains { $0.contains("cairo") || $0.contains("pango") || $0.contains("systemd") }, "\(apply)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: rig.dir + "/run").isEmpty, "no socket, no lock file")
      // A daemon starting right after finds the display free and the profile in force.
      let daemon = try DaemonProcess(
        display: rig.server.display, config: Self.row, environment: ["XDG_RUNTIME_DIR": rig.dir + "/run"])
      daemon.settle()
      #expect(daemon.log.contains { $0.contains("profile 'row' in force; nothing to change") }, "\(daemon.log)")
    }

    @Test func theExecutableExits64WithTheUsageLine() throws {
      for words in [["apply", "extra"], ["apply", "--profile"], ["apply", "--profile", ""], ["apply", "--json"]] {
        let r = try displayd(words)
        #expect(r.status == 64 && r.err.contains("usage: displayd apply [--profile NAME]"), "\(words): \(r.err)")
      }
      let help = try displayd(["apply", "--help"])
      #expect(help.status == 0 && help.out.contains("display-setup-script"))
    }

    /// On Xvnc, monitors plugged through the VNC client: the rules place them, a second
    /// apply sends nothing.
    @Test func onXvncTheRulesPlaceThePluggedMonitorsOnce() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let dir = try makeTempDirectory("displayd-apply")
      let config = dir + "/config.json5"
      try "{ monitors: [ { match: { output: 'VNC-1' }, position: 'below VNC-0' } ] }".write(
        toFile: config, atomically: true, encoding: .utf8)
      let env = ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": dir, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"]
      let apply = {
        try runCommand([displaydPath, "apply", "--config", config, "--display", server.display], environment: env)
      }
      let first = try apply()
      #expect(first.status == 0 && first.out == "applied the monitors rules\n", "\(first.out) \(first.err)")
      let t = try PlanBuilder.snapshot(server)
      #expect(
        t.output(named: "VNC-1").flatMap { t.geometry(of: $0) }.map { "\($0.x),\($0.y)" } == "0,1080", "\(Layout(t))")
      let second = try apply()
      #expect(second.out == "the monitors rules: already in force, nothing to change\n", "\(second.out) \(second.err)")
      #expect(try PlanBuilder.snapshot(server).timestamp == t.timestamp)
    }

    /// On Xvnc with a daemon: `apply` goes through the control socket, the daemon puts its
    /// profile back after a change by hand, and a refusal comes back with the daemon's reason.
    @Test func applyGoesThroughARunningDaemon() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let runtime = try runtimeDirectory()
      let config = """
        { profiles: [ { name: 'pair', outputs: [
            { match: { output: 'VNC-1' }, position: '0,0' },
            { match: { output: 'VNC-0' }, position: '1280,0', primary: true },
        ] }, { name: 'three', outputs: [ { match: { output: 'VNC-2' } } ] } ] }
        """
      let daemon = try DaemonProcess(
        display: server.display, config: config,
        environment: ["XDG_RUNTIME_DIR": runtime, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"])
      daemon.settle()
      let geometry = { (name: String) in
        parseXrandrVerbose(try server.must(["xrandr", "--verbose"])).first { $0.name == name }?.geometry
      }
      #expect(try geometry("VNC-0") == "1920x1080+1280+0")
      try server.must(["xrandr", "--output", "VNC-0", "--pos", "0x1024"])
      daemon.settle()
      #expect(try geometry("VNC-0") == "1920x1080+0+1024", "the daemon leaves a change by hand alone")
      let env = ProfileCommands.environment(runtime: runtime)
      let apply = { (extra: [String]) in
        try runCommand([displaydPath, "apply", "--display", server.display] + extra, environment: env)
      }
      let r = try apply([])
      #expect(r.status == 0 && r.out == "applied profile 'pair' (through the running daemon)\n", "\(r.out) \(r.err)")
      #expect(try geometry("VNC-0") == "1920x1080+1280+0")
      #expect(daemon.waitFor("(apply): profile 'pair'") != nil, "\(daemon.log)")
      let again = try apply([])
      #expect(again.status == 0 && again.out == "profile 'pair': already in force, nothing to change\n")
      let refused = try apply(["--profile", "three"])
      #expect(refused.status == 1, "\(refused.out)")
      #expect(
        refused.err.contains("apply refused: profile 'three' does not match the monitors present"), "\(refused.err)")
      let other = try apply(["--config", runtime + "/other.json5"])
      #expect(other.status == 78, "an unreadable --config is a config error before the daemon is asked: \(other.err)")
    }
  }
}
