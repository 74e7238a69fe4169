import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplayService
import DisplaySupport
import DisplayX11
import Foundation
import Testing
import XRig

/// Two profiles for the same desk (the main monitor alone): the first, matched at start,
/// with `dpi: 144`; the second, by `profile switch`, without. Their hooks append
/// `DISPLAYD_DPI` to the file `HOOKS`.
let dpiProfiles = """
  { profiles: [
    { name: 'hidpi', dpi: 144, outputs: [{ match: { output: 'OUTPUT' } }],
      hooks: { applied: [['sh', '-c', 'echo hidpi dpi=$DISPLAYD_DPI >> HOOKS']] } },
    { name: 'plain', outputs: [{ match: { output: 'OUTPUT' } }],
      hooks: { applied: [['sh', '-c', 'echo plain dpi=$DISPLAYD_DPI >> HOOKS']] } } ] }
  """

/// `Xft.dpi` follows a profile's `dpi` in RESOURCE_MANAGER: the daemon's side, against the
/// fake server's resource database.
@Suite struct XftDPIAgainstAFakeServer {
  let quiet = Logger(level: .error) { _ in }

  func started(_ resources: String) throws -> (FakeDisplayServer, Daemon) {
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    server.resources = Array(resources.utf8)
    let config = try Config.parse(
      Array(dpiProfiles.replacingOccurrences(of: "OUTPUT", with: "eDP-1").utf8), file: "config.json5")
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    return (server, daemon)
  }

  func text(_ server: FakeDisplayServer) -> String { String(decoding: server.resources, as: UTF8.self) }

  @Test func aProfileWithDPISetsXftDPIAndOneWithoutPutsBackWhatWasThere() throws {
    let (server, daemon) = try started("a:\t1\nXft.dpi:\t96\nb:\t2\n")
    #expect(text(server) == "a:\t1\nXft.dpi:\t144\nb:\t2\n")
    #expect(daemon.xftDPI == 144)
    #expect(try daemon.switchProfile("plain") == nil)
    #expect(text(server) == "a:\t1\nXft.dpi:\t96\nb:\t2\n")
    #expect(daemon.xftDPI == nil)
    // Remembered for the daemon's life: back and forth again gives the same bytes.
    #expect(try daemon.switchProfile("hidpi") == nil)
    #expect(text(server) == "a:\t1\nXft.dpi:\t144\nb:\t2\n")
    #expect(try daemon.switchProfile("plain") == nil)
    #expect(text(server) == "a:\t1\nXft.dpi:\t96\nb:\t2\n")
  }

  @Test func withNoXftDPIBeforeTheEntryIsRemovedAgain() throws {
    let (server, daemon) = try started("a:\t1\n")
    #expect(text(server) == "a:\t1\nXft.dpi:\t144\n")
    #expect(try daemon.switchProfile("plain") == nil)
    #expect(text(server) == "a:\t1\n")
  }

  @Test func aValueAnotherClientWroteSinceIsLeftAlone() throws {
    let (server, daemon) = try started("")
    server.resources = Array("Xft.dpi:\t120\n".utf8)  // xrdb -merge by the user
    #expect(try daemon.switchProfile("plain") == nil)
    #expect(text(server) == "Xft.dpi:\t120\n", "the user's value stays")
    // And it is what displayd goes back to after its next profile with dpi.
    #expect(try daemon.switchProfile("hidpi") == nil)
    #expect(text(server) == "Xft.dpi:\t144\n")
    #expect(try daemon.switchProfile("plain") == nil)
    #expect(text(server) == "Xft.dpi:\t120\n")
  }

  /// The value to go back to is what was there just before displayd wrote, not what was
  /// there the first time: a value the user removed in between must not come back.
  @Test func aValueTheUserRemovedAfterARestoreIsNotPutBackLater() throws {
    let (server, daemon) = try started("a:\t1\nXft.dpi:\t96\n")
    #expect(try daemon.switchProfile("plain") == nil)
    #expect(text(server) == "a:\t1\nXft.dpi:\t96\n")
    server.resources = Array("a:\t1\n".utf8)  // the user's xrdb -remove
    #expect(try daemon.switchProfile("hidpi") == nil)
    #expect(text(server) == "a:\t1\nXft.dpi:\t144\n")
    #expect(try daemon.switchProfile("plain") == nil)
    #expect(text(server) == "a:\t1\n", "removed again, not the 96 of before")
  }

  @Test func anAlreadySetValueIsNotWrittenAgain() throws {
    let (server, daemon) = try started("Xft.dpi:\t144\n")
    #expect(server.resourceWrites == 0)
    try daemon.reload(daemon.config)
    #expect(server.resourceWrites == 0, "a reload applies the profile again: nothing to write")
    #expect(try daemon.switchProfile("plain") == nil)
    #expect(text(server) == "Xft.dpi:\t144\n", "it was there before displayd: it stays")
  }

  @Test func aScreenAlreadyAtThatPhysicalSizeStillGetsXftDPI() throws {
    // After a restart the millimetres are right already: the plan changes none, Xft.dpi still follows.
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    (server.topology.screen.mmWidth, server.topology.screen.mmHeight) = (339, 191)
    let config = try Config.parse(
      Array(dpiProfiles.replacingOccurrences(of: "OUTPUT", with: "eDP-1").utf8), file: "config.json5")
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    #expect(server.applies == 0, "nothing to change on the server's layout")
    #expect(daemon.counters.reconcilesChanged == 0, "in force: nothing was sent")
    #expect(text(server) == "Xft.dpi:\t144\n")
  }

  @Test func theXSettingsManagerIsNamedInTheStatus() throws {
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    server.xsettings = XSettingsOwner(window: 0x20_0001, wmClass: "Xfsettingsd", pid: 77)
    let config = try Config.parse(
      Array(dpiProfiles.replacingOccurrences(of: "OUTPUT", with: "eDP-1").utf8), file: "config.json5")
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: quiet)
    try daemon.start()
    #expect(daemon.xsettingsManager == "Xfsettingsd (pid 77)")
    let answer = try StatusAnswer.decode(Array(daemon.statusJSON(configPath: nil, configError: nil).serialized().utf8))
    #expect((answer.xftDPI, answer.xsettings) == (144, "Xfsettingsd (pid 77)"))
    #expect(StatusReport.text(answer).contains("\nXft.dpi: 144 (XSETTINGS manager: Xfsettingsd (pid 77))\n"))
    #expect(XSettingsOwner(window: 0x1a, wmClass: nil, pid: nil).description == "window 0x1a")
    #expect(XSettingsOwner(window: 0x1a, wmClass: "a\nb", pid: nil).description == "a\nb (window 0x1a)")
  }
}

/// On Xvnc with the real `xrdb` and `xsettingsd`: the daemon applies `dpi: 144` at start.
extension XServerTests {
  @Suite struct XftDPI {
    /// Resources set with `xrdb -merge` before the daemon: a multi-line value, tabs, spaces.
    static let resources = """
      Xft.antialias:\t1
      *background:\t#202020
      URxvt.font:\txft:DejaVu Sans Mono:size=10,xft:Noto Sans CJK JP
      XTerm*translations:\t#override \\n\\
      \tShift <Key>Up: scroll-back(1) \\n\\
      \tShift <Key>Down: scroll-forw(1)
      Emacs.geometry:   80x40

      """

    struct Rig {
      let server: TestXServer
      let runtime: String
      let daemon: DaemonProcess
      /// `xrdb -query` before the daemon started.
      let merged: String

      /// Merges `resources` with xrdb, runs `before` (an XSETTINGS manager), then starts the daemon.
      init(resources: String, before: (TestXServer) throws -> Void = { _ in }) throws {
        server = try TestXServer.vnc()
        runtime = try runtimeDirectory()
        let file = runtime + "/resources"
        try resources.write(toFile: file, atomically: true, encoding: .utf8)
        try server.must(["xrdb", "-nocpp", "-merge", file])
        merged = try server.must(["xrdb", "-query"])
        try before(server)
        daemon = try DaemonProcess(
          display: server.display,
          config: dpiProfiles.replacingOccurrences(of: "OUTPUT", with: "VNC-0")
            .replacingOccurrences(of: "HOOKS", with: runtime + "/hooks.log"),
          environment: ["XDG_RUNTIME_DIR": runtime])
      }

      func query() throws -> String { try server.must(["xrdb", "-query"]) }

      func status() throws -> [String: Any] {
        let r = try runCommand(
          [displaydPath, "status", "--json", "--display", server.display],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        guard r.status == 0 else { throw RigError("status: \(r.err)") }
        return try jsonObject(r.out)
      }

      func switchProfile(_ name: String) throws {
        let r = try runCommand(
          [displaydPath, "profile", "switch", name, "--display", server.display],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        guard r.status == 0 else { throw RigError("profile switch \(name): \(r.err)") }
      }
    }

    @Test func dpi144ReplacesXftDPIAndTheSwitchPutsTheOldValueBack() throws {
      let rig = try Rig(resources: Self.resources + "Xft.dpi: 96\n")
      let before = rig.merged
      #expect(before.contains("Xft.dpi:\t96\n"), "xrdb normalises the entry: \(before)")
      #expect(
        eventually(within: 2) { (try? rig.query()) == before.replacing("Xft.dpi:\t96\n", with: "Xft.dpi:\t144\n") })
      #expect((try rig.status())["xft_dpi"] as? Int == 144)
      try rig.switchProfile("plain")
      #expect(eventually(within: 2) { (try? rig.query()) == before }, "every byte as xrdb left it")
      #expect(rig.daemon.waitFor("Xft.dpi restored in RESOURCE_MANAGER: 'Xft.dpi: 96'") != nil)
      #expect((try rig.status())["xft_dpi"] is NSNull)
      let hooks = { (try? String(contentsOfFile: rig.runtime + "/hooks.log", encoding: .utf8)) ?? "" }
      #expect(eventually(within: 2) { hooks() == "hidpi dpi=144\nplain dpi=\n" }, "\(hooks())")
    }

    @Test func withNoXftDPIBeforeItIsAppendedAndRemovedAgain() throws {
      let rig = try Rig(resources: Self.resources)
      let before = rig.merged
      #expect(!before.contains("Xft.dpi"))
      #expect(eventually(within: 2) { (try? rig.query()) == before + "Xft.dpi:\t144\n" })
      try rig.switchProfile("plain")
      #expect(eventually(within: 2) { (try? rig.query()) == before })
      #expect(rig.daemon.waitFor("Xft.dpi removed from RESOURCE_MANAGER") != nil)
    }

    @Test func anXSettingsManagerIsNamedAndItsSettingsLeftAlone() throws {
      var xsettingsd: ChildProcess?
      var owner: UInt = 0
      var settings = ""
      let rig = try Rig(resources: Self.resources) { server in
        let config = try makeTempDirectory("displayd-xsettingsd") + "/xsettingsd.conf"
        try "Xft/DPI 98304\nNet/ThemeName \"Adwaita\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = server.display
        xsettingsd = try ChildProcess(["xsettingsd", "-c", config], environment: env)
        let x = try XConnection(name: server.display)
        #expect(eventually(within: 3) { x.xsettingsOwner() != nil }, "xsettingsd took _XSETTINGS_S0")
        owner = try #require(x.xsettingsOwner()?.window)
        settings = try server.must(["xprop", "-id", "\(owner)", "_XSETTINGS_SETTINGS"])
      }
      let pid = try #require(xsettingsd?.pid)
      #expect(rig.daemon.log.contains { $0.contains("XSETTINGS manager owns _XSETTINGS_S0: xsettingsd (pid \(pid))") })
      #expect((try rig.status())["xsettings"] as? String == "xsettingsd (pid \(pid))")
      #expect(eventually(within: 2) { (try? rig.query())?.contains("Xft.dpi:\t144\n") == true }, "still set for Xft")
      #expect(try rig.server.must(["xprop", "-id", "\(owner)", "_XSETTINGS_SETTINGS"]) == settings, "untouched")
      #expect(settings.contains("0x80, 0x1, 0x0"), "Xft/DPI 98304 as xsettingsd wrote it: \(settings)")
    }
  }
}
