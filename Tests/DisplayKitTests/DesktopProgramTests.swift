import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// displayd beside the real desktop programs that manage displays, each on a private
/// session bus inside the rig's Xvnc: xfsettingsd (XFCE) with a saved display profile that
/// disagrees with displayd's rule, mutter (GNOME) as the window manager, and a stand-in that
/// owns KDE's `org.kde.KScreen`.
extension XServerTests {
  @Suite struct DesktopPrograms {
    /// displayd's rule for the plugged monitor: a mode neither Xvnc nor xfsettingsd gives it,
    /// so any layout change displayd makes shows.
    static func config(_ policy: String?) -> String {
      "{ \(policy.map { "desktop: '\($0)', " } ?? "")monitors: [{ match: { output: 'VNC-1' }, mode: '1024x768' }] }"
    }

    /// An Xvnc with VNC-0 (carrying an ASUS EDID) and a private session bus.
    struct Desk {
      let server: TestXServer
      let vnc: VNCClient
      let main: UInt32
      let bus: SessionBus
      let runtime: String
      /// SHA-1 of VNC-0's EDID's first block: what xfsettingsd matches a profile by.
      let edidHash: String

      init() throws {
        server = try TestXServer.vnc()
        vnc = try VNCClient(socketPath: server.vncSocket)
        main = try #require(vnc.screens.first?.id)
        let file = fixtureFolder + "/asus_aus27d1_0d64f5ca0b43.bin"
        let connection = try XConnection(name: server.display)
        let output = try #require(try connection.readTopology().output(named: "VNC-0"))
        try connection.setEDID(try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))), on: output.id)
        let sum = try runCommand(["/bin/sh", "-c", "head -c 128 \"$0\" | sha1sum", file])
        edidHash = String(sum.out.prefix(40))
        bus = try SessionBus(display: server.display)
        runtime = try runtimeDirectory()
      }

      func daemon(_ config: String) throws -> DaemonProcess {
        try DaemonProcess(
          display: server.display, config: config,
          environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtime])
      }

      func plug() throws { try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)])) }

      /// `status --json`'s `desktop` object.
      func status() throws -> [String: Any] {
        let r = try runCommand(
          [displaydPath, "status", "--json", "--display", server.display],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        guard r.status == 0 else { throw RigError("status: \(r.err)") }
        return try #require(try jsonObject(r.out)["desktop"] as? [String: Any])
      }

      /// The `xrandr` line of an output: `VNC-1 connected 1280x1024+0+1080 ...`.
      func xrandrLine(_ output: String) throws -> String {
        try server.must(["xrandr"]).split(separator: "\n").first { $0.hasPrefix(output + " ") }.map(String.init) ?? ""
      }

      /// Saves an xfconf display profile "Fight" for VNC-0 (by its EDID) with a monitor
      /// without one (Xvnc's VNC-1): VNC-1 at 1280x1024 below VNC-0. Profiles are matched
      /// when the number of outputs changes, if `/AutoEnableProfiles` is true and `/Notify`
      /// above 0 (xfsettingsd/displays.c, 4.18).
      func saveXfceProfile() throws {
        var props: [(String, String, String)] = [
          ("/Notify", "int", "3"), ("/AutoEnableProfiles", "bool", "true"), ("/Fight", "string", "Fight"),
        ]
        for (output, edid, mode, y) in [("VNC-0", edidHash, "1920x1080", "0"), ("VNC-1", "", "1280x1024", "1080")] {
          let p = "/Fight/" + output
          props += [
            (p, "string", output), (p + "/Active", "bool", "true"), (p + "/EDID", "string", edid),
            (p + "/Resolution", "string", mode), (p + "/RefreshRate", "double", "60.000000"),
            (p + "/Position/X", "int", "0"), (p + "/Position/Y", "int", y), (p + "/Rotation", "int", "0"),
            (p + "/Reflection", "string", "0"), (p + "/Primary", "bool", output == "VNC-0" ? "true" : "false"),
          ]
        }
        for (path, type, value) in props {
          try bus.xfconf(["-c", "displays", "-p", path, "-n", "-t", type, "-s", value])
        }
      }

      /// Starts xfsettingsd with its display debugging on; its log's path.
      func startXfsettingsd() throws -> String {
        let log = bus.home + "/xfsettingsd.log"
        try bus.start(
          ["xfsettingsd", "--no-daemon", "--replace"], log: log, environment: ["XFSETTINGSD_DEBUG": "displays"])
        guard bus.waitFor("org.xfce.SettingsDaemon"),
          eventually(within: 10, { fileLines(log).contains { $0.contains("Detected output") } })
        else { throw RigError("xfsettingsd did not start: \(fileLines(log).suffix(20))") }
        return log
      }
    }

    static let xfceApplied = "Applied the only matching display profile: Fight"

    /// xfsettingsd and displayd both answer a plug: each applies its own layout to the new
    /// monitor (in turns, whichever comes last wins). `desktop: "manage"` is the behaviour
    /// from before displayd looked at the desktop, with a warning added.
    @Test func underManageXfsettingsdAndDisplaydBothChangeTheLayoutOnAPlug() throws {
      let desk = try Desk()
      try desk.saveXfceProfile()
      let log = try desk.startXfsettingsd()
      let daemon = try desk.daemon(Self.config("manage"))
      try desk.plug()
      #expect(eventually(within: 5) { fileLines(log).contains { $0.contains(Self.xfceApplied) } }, "\(fileLines(log))")
      #expect(daemon.waitFor("VNC-1 1024x768@60.00 at", timeout: 5) != nil, "displayd sets its rule's mode")
      daemon.settle(quiet: 2)
      let xfce = fileLines(log).filter { $0.contains(Self.xfceApplied) }.count
      let own = daemon.changingReconciles.filter { $0.contains("VNC-1") }.count
      #expect(xfce >= 1 && own >= 1, "both changed the layout: xfsettingsd \(xfce), displayd \(own)")
      let warning = daemon.log.first {
        $0.contains(#"desktop: xfsettingsd (XFCE) manages displays, but desktop: "manage""#)
      }
      #expect(warning?.contains("warning") == true, "a warning: \(daemon.log)")
      #expect(warning?.contains("may change it back") == true)
      #expect(try desk.status()["layout"] as? String == "displayd")
    }

    /// Under `auto` the only layout change is xfsettingsd's: its profile's place and mode for
    /// the new monitor, with displayd's window exactly on that CRTC.
    @Test func underAutoOnlyXfsettingsdChangesTheLayoutAndTheWindowFollowsIt() throws {
      let desk = try Desk()
      try desk.saveXfceProfile()
      let log = try desk.startXfsettingsd()
      let daemon = try desk.daemon(Self.config(nil))
      let line = try #require(daemon.log.first { $0.contains("desktop: xfsettingsd (XFCE) manages displays:") })
      #expect(line.contains("/Notify") && line.contains("/AutoEnableProfiles") && line.contains(#"desktop: "manage""#))
      #expect(line.contains("displayd[info]"))
      try desk.plug()
      #expect(eventually(within: 5) { fileLines(log).contains { $0.contains(Self.xfceApplied) } }, "\(fileLines(log))")
      let x = try XInspector(desk.server.display)
      let on = eventually(within: 3) {
        x.displaydWindows().map(\.rect) == [.init(x: 0, y: 1080, width: 1280, height: 1024)]
      }
      #expect(on, "the window on xfsettingsd's CRTC: \(x.displaydWindows())")
      #expect(try desk.xrandrLine("VNC-1").contains("1280x1024+0+1080"))
      daemon.settle(quiet: 2)
      #expect(daemon.changingReconciles.isEmpty, "\(daemon.changingReconciles)")
      #expect(!daemon.log.contains { $0.contains("1024x768") }, "displayd never set its rule's mode")
      #expect(fileLines(log).filter { $0.contains(Self.xfceApplied) }.count == 1)
      let status = try desk.status()
      #expect(status["manager"] as? String == "xfsettingsd" && status["desktop"] as? String == "XFCE")
      #expect(status["policy"] as? String == "auto" && status["layout"] as? String == "desktop")
    }

    /// `profile switch` changes the layout: refused with exit 1 naming the manager.
    @Test func aLayoutCommandIsRefusedNamingTheManager() throws {
      let desk = try Desk()
      _ = try desk.startXfsettingsd()
      let daemon = try desk.daemon("{ profiles: [{ name: 'p', outputs: [{ match: { output: 'VNC-0' } }] }] }")
      let r = try runCommand(
        [displaydPath, "profile", "switch", "p", "--display", desk.server.display],
        environment: ["XDG_RUNTIME_DIR": desk.runtime, "PATH": "/usr/bin:/bin"])
      #expect(r.status == 1)
      #expect(r.err.contains("xfsettingsd (XFCE) manages the layout"), "\(r.err)")
      #expect(daemon.waitFor("profile switch refused") != nil)

      // `status` and `check-config` say who lays the monitors out.
      let env = [
        "XDG_RUNTIME_DIR": desk.runtime, "PATH": "/usr/bin:/bin", "DBUS_SESSION_BUS_ADDRESS": desk.bus.address,
      ]
      let status = try runCommand([displaydPath, "status", "--display", desk.server.display], environment: env)
      #expect(
        status.out.contains("desktop: xfsettingsd (XFCE), policy auto: desktop lays the monitors out"), "\(status.out)")
      let path = try #require(daemon.configPath)
      let check = try runCommand(
        [displaydPath, "check-config", path, "--display", desk.server.display], environment: env)
      #expect(check.status == 0)
      #expect(check.out.contains("desktop: xfsettingsd (XFCE) manages displays: displayd leaves"), "\(check.out)")
      try "{ desktop: 'manage' }".write(toFile: path, atomically: true, encoding: .utf8)
      let manage = try runCommand(
        [displaydPath, "check-config", path, "--display", desk.server.display], environment: env)
      #expect(manage.out.contains(#"but desktop: "manage" is set"#), "\(manage.out)")
    }

    @Test func mutterIsDetectedAndItsLayoutIsLeftAloneWhileTheWindowIsNeverFocused() throws {
      let desk = try Desk()
      let log = desk.bus.home + "/mutter.log"
      try desk.bus.start(["mutter", "--x11", "--replace"], log: log)
      #expect(desk.bus.waitFor("org.gnome.Mutter.DisplayConfig", within: 15), "\(fileLines(log).suffix(20))")
      let daemon = try desk.daemon(Self.config(nil))
      #expect(
        daemon.log.contains { $0.contains("desktop: mutter (GNOME) manages displays:") && $0.contains("no switch") })
      try desk.plug()
      let x = try XInspector(desk.server.display)
      let shown = eventually(within: 3) {
        x.displaydWindows().map(\.rect) == [.init(x: 1920, y: 0, width: 1280, height: 1024)]
      }
      #expect(shown, "a window on the monitor as Xvnc and mutter have it: \(x.displaydWindows())")
      let window = try #require(x.displaydWindows().first)
      #expect(x.acceptsInput(window.id) == false, "never takes keyboard focus")
      daemon.settle(quiet: 1)
      #expect(x.activeWindow() != window.id && x.inputFocus() != window.id, "mutter did not focus it")
      #expect(daemon.changingReconciles.isEmpty, "\(daemon.changingReconciles)")
      #expect(try desk.xrandrLine("VNC-1").contains("1280x1024+1920+0"))
      #expect(try desk.status()["manager"] as? String == "mutter")
    }

    /// Under a Wayland compositor (mutter, headless, with two virtual monitors) Xwayland's
    /// RandR is the compositor's: displayd makes no request and still shows its window. With
    /// `desktop: "manage"` (the behaviour before), it plans a rule's mode and the server
    /// refuses the screen size it needs (BadMatch).
    @Test func underXwaylandNoRandRRequestIsMadeAndTheWindowIsShown() throws {
      let mutter = try MutterWayland(monitors: ["1280x720", "1024x768"])
      let before = try mutter.run(["xrandr"]).out
      #expect(before.contains("XWAYLAND1 connected 1024x768+1280+0"), "\(before)")
      let runtime = try runtimeDirectory()
      let env = ["XAUTHORITY": mutter.xauthority, "XDG_RUNTIME_DIR": runtime]
      let daemon = try DaemonProcess(
        display: mutter.display, config: "{ defaults: { mode: '800x600' } }", environment: env)
      #expect(daemon.log.contains { $0.contains("desktop: xwayland (a Wayland session) manages displays") })
      #expect(daemon.log.contains { $0.contains("window") && $0.contains("on XWAYLAND1 at 1024x768+1280+0") })
      let tree = try mutter.run(["xwininfo", "-root", "-tree"]).out
      #expect(tree.contains("\"displayd: XWAYLAND1\""), "\(tree)")
      daemon.settle(quiet: 0.5)
      #expect(daemon.changingReconciles.isEmpty, "\(daemon.changingReconciles)")
      #expect(!daemon.log.contains { $0.contains("BadMatch") || $0.contains("800x600") })
      let after = try mutter.run(["xrandr"]).out
      #expect(after == before, "the compositor's layout as it was; before:\n\(before)\nafter:\n\(after)")
      daemon.child.signal(SIGTERM)
      #expect(daemon.child.wait(timeout: 2) == 0)

      let manage = try DaemonProcess(
        display: mutter.display, config: "{ desktop: 'manage', defaults: { mode: '800x600' } }", environment: env)
      manage.settle(quiet: 0.5)
      #expect(manage.log.contains { $0.contains("XWAYLAND1 800x600") }, "\(manage.log)")
      #expect(manage.log.contains { $0.contains("BadMatch") }, "\(manage.log)")
    }

    /// The X side of the detection asks the server itself: Xvnc has RANDR and no XWAYLAND
    /// (Xwayland 22.1 has none either; newer ones have it).
    @Test func theServersExtensionsAreAskedOfTheServerAndXwaylandReachesTheDaemonAsAFacility() throws {
      let server = try TestXServer.vnc()
      let connection = try XConnection(name: server.display)
      #expect(connection.hasExtension("RANDR"))
      #expect(!connection.hasExtension("XWAYLAND"))
      #expect(!connection.facilities.xwayland)
    }

    /// KDE's kscreen is told by its bus name: a stand-in owns `org.kde.KScreen` (kded5 with
    /// kscreen is heavy). When it goes, displayd lays the monitors out again.
    @Test func aKScreenNameThatComesAndGoesHandsTheLayoutOverAndBack() throws {
      let desk = try Desk()
      let daemon = try desk.daemon(Self.config(nil))
      #expect(daemon.log.contains { $0.contains("no desktop display manager seen") })
      let script = "import dbus, signal; dbus.SessionBus().request_name('org.kde.KScreen'); signal.pause()"
      let kscreen = try desk.bus.start(["/usr/bin/python3", "-c", script], log: desk.bus.home + "/kscreen.log")
      #expect(desk.bus.waitFor("org.kde.KScreen"))
      let line = daemon.waitFor("desktop: kscreen (KDE Plasma) manages displays", timeout: 3)
      #expect(line?.contains("kded module kscreen") == true, "\(daemon.log)")
      try desk.plug()
      let x = try XInspector(desk.server.display)
      #expect(
        eventually(within: 3) { x.displaydWindows().map(\.rect) == [.init(x: 1920, y: 0, width: 1280, height: 1024)] })
      daemon.settle(quiet: 0.5)
      #expect(daemon.changingReconciles.isEmpty)

      desk.bus.stop(kscreen)
      #expect(daemon.waitFor("desktop: kscreen (KDE Plasma) is gone", timeout: 3) != nil, "\(daemon.log)")
      #expect(daemon.waitFor("VNC-1 1024x768@60.00 at 1920,0", timeout: 3) != nil, "displayd lays it out again")
      #expect(
        eventually(within: 3) { x.displaydWindows().map(\.rect) == [.init(x: 1920, y: 0, width: 1024, height: 768)] })
      #expect(try desk.status()["layout"] as? String == "displayd")

      // Idle on the bus: other clients coming and going (busctl here) wake the daemon not
      // once, as it matches only the watched names' owner changes.
      daemon.settle()
      #expect(eventually(within: 1) { allThreadsIdle(daemon.child.pid) })
      let before = try wakeups(daemon.child.pid)
      for _ in 0..<3 { _ = try desk.bus.hasOwner("org.kde.KScreen") }
      _ = pollFDs([], timeoutMs: 500)  // the observation window, not a wait for anything
      #expect(try wakeups(daemon.child.pid) == before, "no wake-ups while other bus clients come and go")
    }
  }
}
