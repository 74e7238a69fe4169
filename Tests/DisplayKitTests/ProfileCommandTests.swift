import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayService
import DisplaySupport
import DisplayX11
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// `displayd profile`'s command line, pure.
@Suite struct ProfileCommandLineTests {
  func action(_ words: [String]) throws -> ProfileAction {
    try ProfileCommandLine.action(try Arguments(words, spec: ProfileCommandLine.spec))
  }

  @Test func theThreeActionsAndTheirOptions() throws {
    #expect(try action(["list"]) == .list(json: false))
    #expect(try action(["list", "--json", "--display", ":3"]) == .list(json: true))
    #expect(try action(["switch", "desk"]) == .switchTo("desk"))
    #expect(try action(["save", "my desk"]) == .save(name: "my desk", write: false))
    #expect(try action(["save", "--write", "desk"]) == .save(name: "desk", write: true))
  }

  @Test(arguments: [
    ([], "missing profile command"), (["frob"], "unknown profile command 'frob'"),
    (["switch"], "profile switch needs a profile NAME"), (["save"], "profile save needs a profile NAME"),
    (["save", ""], "the profile NAME is empty"), (["list", "x"], "unexpected argument 'x'"),
    (["switch", "a", "b"], "unexpected argument 'b'"), (["save", "a", "--json"], "--json goes with profile list"),
    (["list", "--write"], "--write goes with profile save"), (["list", "--seconds", "3"], "unknown option"),
  ])
  func aWrongLineIsAUsageErrorWithTheUsage(_ words: [String], _ message: String) throws {
    let error = #expect(throws: UsageError.self) { _ = try action(words) }
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
    #expect(error?.usage == ProfileCommandLine.usage)
  }

  @Test func theListTextMarksTheActiveProfileAndGivesTheReasons() throws {
    let line = #"""
      {"ok":true,"profiles":[{"name":"desk","matches":true,"reason":null,"active":true},{"name":"sofa","matches":false,"reason":"lid is open","active":false}],"active":{"name":"desk","reason":"matched"}}
      """#
    let answer = try ProfileListAnswer.decode(Array(line.utf8))
    #expect(
      ProfileReport.listText(answer, fromDaemon: true) == """
        * desk  matches
          sofa  does not match: lid is open
        active: desk (matched)

        """)
    var standalone = answer
    standalone.profiles[0].active = false
    #expect(ProfileReport.listText(standalone, fromDaemon: false).hasSuffix("no daemon runs: 'desk' would be chosen\n"))
  }

  @Test func theExecutableExits64WithTheUsageLine() throws {
    for words in [["profile"], ["profile", "save"], ["profile", "list", "--write"]] {
      let r = try displayd(words)
      #expect(r.status == 64 && r.err.contains(ProfileCommandLine.usage), "\(words): \(r.err)")
    }
    let help = try displayd(["profile", "--help"])
    #expect(help.status == 0 && help.out.hasPrefix(ProfileCommandLine.usage))
  }
}

extension XServerTests {
  /// `profile save/list/switch` and `check-config` against a daemon on Xvnc, with monitors
  /// known by their EDIDs.
  @Suite struct ProfileCommands {
    /// An Xvnc with two monitors, each with a real EDID: VNC-0 1920x1080, VNC-1 1280x1024.
    static func desk() throws -> (TestXServer, VNCClient, XConnection) {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let connection = try XConnection(name: server.display)
      let topology = try connection.readTopology()
      for (name, file) in [("VNC-0", "asus_aus27d1_0d64f5ca0b43.bin"), ("VNC-1", "acer_acr001a_34cdf6327a45.bin")] {
        let output = try #require(topology.output(named: name))
        try connection.setEDID(Array(try readFile(fixtureFolder + "/" + file).get()), on: output.id)
      }
      return (server, vnc, connection)
    }

    /// The environment of a command: the daemon's runtime directory, a config home, no logind.
    static func environment(runtime: String, configHome: String = "/nonexistent") -> [String: String] {
      [
        "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": configHome, "HOME": "/nonexistent",
        "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent",
      ]
    }

    @Test func aSavedProfileWrittenIntoTheConfigIsChosenOnReloadAndChangesNothing() throws {
      let (server, _, connection) = try Self.desk()
      let runtime = try runtimeDirectory()
      let original = "// my desk\n{\n  defaults: { level: 'normal' },  // keep\n}\n"
      let daemon = try DaemonProcess(
        display: server.display, config: original,
        environment: ["XDG_RUNTIME_DIR": runtime, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"],
        disconnectGrace: nil)  // the file's bytes are checked: as written, nothing added
      let path = try #require(daemon.configPath)
      let env = Self.environment(runtime: runtime)
      daemon.settle()

      let saved = try runCommand(
        [displaydPath, "profile", "save", "desk", "--display", server.display], environment: env)
      #expect(saved.status == 0 && saved.err.isEmpty, "\(saved.err)")
      // Exactly one JSON5 object: pasted into `profiles: [ ... ]` it is a valid config.
      let pasted = try Config.parse(Array("{ profiles: [\(saved.out)] }".utf8), file: "pasted")
      #expect(pasted.profiles.map(\.name) == ["desk"] && pasted.profiles.first?.outputs.count == 2)
      #expect(saved.out.hasPrefix("{") && saved.out.hasSuffix("}\n"))
      #expect(saved.out.contains(#"manufacturer: "AUS""#) && saved.out.contains(#"manufacturer: "ACR""#))

      let before = try connection.readTopology()
      let write = try runCommand(
        [displaydPath, "profile", "save", "desk", "--write", "--display", server.display], environment: env)
      #expect(write.status == 0, "\(write.err)")
      #expect(write.out == "appended profile 'desk' to \(path)\nthe daemon reloaded its config\n", "\(write.out)")
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.hasPrefix("// my desk\n{\n  defaults: { level: 'normal' },  // keep\n  profiles: [\n"), "\(text)")
      #expect(daemon.waitFor("config reloaded") != nil)
      daemon.settle()
      #expect(daemon.log.contains { $0.contains("profile 'desk' matched") }, "\(daemon.log)")
      #expect(daemon.log.contains { $0.contains("profile 'desk' in force; nothing to change") }, "\(daemon.log)")

      let after = try connection.readTopology()
      #expect(after.timestamp == before.timestamp, "no request changed the configuration")
      #expect(after.crtcs == before.crtcs && after.screen == before.screen && after.primary == before.primary)
      let status = try jsonObject(
        try runCommand([displaydPath, "status", "--json", "--display", server.display], environment: env).out)
      #expect(status["profile"] as? [String: String] == ["name": "desk", "reason": "matched"])
      let statusText = try runCommand([displaydPath, "status", "--display", server.display], environment: env).out
      #expect(statusText.contains("\nprofile: desk (matched)\n"), "\(statusText)")

      // The same name again: refused as a config error, and the file is left as it was.
      let again = try runCommand(
        [displaydPath, "profile", "save", "desk", "--write", "--display", server.display], environment: env)
      #expect(again.status == 78, "\(again.err)")
      #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    /// Three profiles: `desk` (the two monitors), `solo` (VNC-0 only), `closed` (lid closed),
    /// `any` (any two outputs).
    static func profiles(_ deskText: String) -> String {
      """
      {
        profiles: [
          \(deskText),
          { name: "solo", outputs: [{ match: { output: "VNC-0" } }] },
          { name: "closed", lid: "closed", outputs: [{ match: { output: "VNC-*" } }, { match: { output: "VNC-*" } }] },
          { name: "any", outputs: [{ match: { output: "VNC-*" } }, { match: { output: "VNC-*" } }] },
        ],
      }
      """
    }

    @Test func listShowsTheMatchAndTheReasonsSwitchRefusesWithTheReasonAndCheckConfigNamesTheChoice() throws {
      let (server, _, _) = try Self.desk()
      let save = try displayd(["profile", "save", "desk", "--display", server.display])
      let config = Self.profiles(save.out.trimmingCharacters(in: .newlines))
      // Without a daemon: from the default config path and a fresh snapshot.
      let home = try makeTempDirectory("displayd-home")
      try FileManager.default.createDirectory(atPath: home + "/displayd", withIntermediateDirectories: true)
      try config.write(toFile: home + "/displayd/config.json5", atomically: true, encoding: .utf8)
      let alone = try runCommand(
        [displaydPath, "profile", "list", "--display", server.display],
        environment: Self.environment(runtime: try runtimeDirectory(), configHome: home))
      #expect(
        alone.out == """
            desk    matches
            solo    does not match: VNC-1 is left over
            closed  does not match: lid is open
            any     matches
          no daemon runs: 'desk' would be chosen

          """, "\(alone.out)\(alone.err)")

      let check = try runCommand(
        [displaydPath, "check-config", home + "/displayd/config.json5", "--display", server.display],
        environment: Self.environment(runtime: "/nonexistent"))
      #expect(check.status == 0)
      #expect(check.out.contains("profile 'desk': would be chosen"), "\(check.out)")
      #expect(check.out.contains("profile 'solo': does not match: VNC-1 is left over"))
      #expect(check.out.contains("profile 'any': matches, but 'desk' comes first"))
      #expect(check.out.contains("  VNC-1: 1280x1024@60.00 at 1920,0"), "\(check.out)")

      let runtime = try runtimeDirectory()
      let daemon = try DaemonProcess(
        display: server.display, config: config,
        environment: ["XDG_RUNTIME_DIR": runtime, "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"])
      let env = Self.environment(runtime: runtime)
      let list = try runCommand([displaydPath, "profile", "list", "--display", server.display], environment: env)
      #expect(
        list.out.hasPrefix("* desk    matches\n") && list.out.hasSuffix("active: desk (matched)\n"), "\(list.out)")
      let json = try jsonObject(
        try runCommand([displaydPath, "profile", "list", "--json", "--display", server.display], environment: env).out)
      let entries = try #require(json["profiles"] as? [[String: Any]])
      #expect(entries.map { $0["name"] as? String } == ["desk", "solo", "closed", "any"])
      #expect(entries.map { $0["matches"] as? Bool } == [true, false, false, true])
      #expect(entries[1]["reason"] as? String == "VNC-1 is left over")
      #expect(json["active"] as? [String: String] == ["name": "desk", "reason": "matched"])

      let refused = try runCommand(
        [displaydPath, "profile", "switch", "solo", "--display", server.display], environment: env)
      #expect(refused.status == 1 && refused.err.contains("refused") && refused.err.contains("VNC-1 is left over"))
      #expect(refused.out.isEmpty)
      let unknown = try runCommand(
        [displaydPath, "profile", "switch", "nope", "--display", server.display], environment: env)
      #expect(unknown.status == 1 && unknown.err.contains("nope"), "\(unknown.err)")
      let switched = try runCommand(
        [displaydPath, "profile", "switch", "any", "--display", server.display], environment: env)
      #expect(switched.status == 0 && switched.out == "switched to profile 'any'\n", "\(switched.err)")
      let status = try jsonObject(
        try runCommand([displaydPath, "status", "--json", "--display", server.display], environment: env).out)
      #expect(status["profile"] as? [String: String] == ["name": "any", "reason": "switched"])
      _ = daemon
    }
  }
}
