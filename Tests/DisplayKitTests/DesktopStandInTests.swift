import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// The desktops whose display manager is a module of a bigger daemon (kded's kscreen, msd's
/// xrandr plugin) are told by asking the daemon: stand-ins (python3-dbus services) that own
/// the daemon's name and export what the real one would, with and without the module.
extension XServerTests {
  @Suite struct DesktopStandIns {
    /// Owns NAME and exports at PATH the method MEMBER of IFACE answering the strings given.
    static let service = """
      import sys, dbus, dbus.service, dbus.mainloop.glib
      from gi.repository import GLib
      dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
      name, path, iface, member, answer = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
      def method(self):
          return dbus.Array(answer, signature='s')
      method.__name__ = member
      Service = type('Service', (dbus.service.Object,), {member: dbus.service.method(iface, out_signature='as')(method)})
      bus = dbus.SessionBus()
      service = Service(bus, path)
      bus.request_name(name)
      GLib.MainLoop().run()
      """

    struct Rig {
      let server: TestXServer
      let bus: SessionBus
      let runtime: String
      let daemon: DaemonProcess

      init() throws {
        server = try TestXServer.vnc()
        bus = try SessionBus(display: server.display)
        runtime = try runtimeDirectory()
        daemon = try DaemonProcess(
          display: server.display, config: "{}",
          environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_RUNTIME_DIR": runtime])
      }

      /// Starts a stand-in and waits until it owns `name`.
      func standIn(_ name: String, _ path: String, _ interface: String, _ member: String, _ answer: [String]) throws
        -> ChildProcess
      {
        let child = try bus.start(
          ["/usr/bin/python3", "-c", DesktopStandIns.service, name, path, interface, member] + answer,
          log: bus.home + "/standin.log")
        guard bus.waitFor(name) else {
          throw RigError("no stand-in for \(name): \(fileLines(bus.home + "/standin.log"))")
        }
        return child
      }

      /// `status --json`'s desktop manager, `-` for none.
      func manager() throws -> String {
        let r = try runCommand(
          [displaydPath, "status", "--json", "--display", server.display],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        let desktop = try #require(try jsonObject(r.out)["desktop"] as? [String: Any])
        return desktop["manager"] as? String ?? "-"
      }
    }

    @Test func kdedIsAManagerOnlyWithKscreenLoaded() throws {
      let rig = try Rig()
      let without = try rig.standIn(
        "org.kde.kded5", "/kded", "org.kde.kded5", "loadedModules", ["keyboard", "ktimezoned"])
      // Seen, and asked: the answer names no kscreen (the daemon has read it when it next answers).
      rig.daemon.settle()
      #expect(try rig.manager() == "-")
      #expect(!rig.daemon.log.contains { $0.contains("manages displays") })
      rig.bus.stop(without)
      #expect(rig.bus.waitFor("org.kde.kded5", present: false))
      let with = try rig.standIn("org.kde.kded5", "/kded", "org.kde.kded5", "loadedModules", ["keyboard", "kscreen"])
      #expect(rig.daemon.waitFor("desktop: kscreen (KDE Plasma) manages displays", timeout: 3) != nil)
      #expect(try rig.manager() == "kscreen")
      rig.bus.stop(with)
      #expect(rig.daemon.waitFor("desktop: kscreen (KDE Plasma) is gone", timeout: 3) != nil)
    }

    /// The bus going away under the daemon loses nothing: it logs why, counts the manager
    /// gone and goes on (the X side still tells Xwayland).
    @Test func aSessionBusThatGoesAwayLeavesTheDaemonRunningAndInCharge() throws {
      let rig = try Rig()
      _ = try rig.standIn("org.kde.KScreen", "/", "org.kde.Stand.In", "Ping", [])
      #expect(rig.daemon.waitFor("desktop: kscreen (KDE Plasma) manages displays", timeout: 3) != nil)
      rig.bus.stopBus()
      let lost = rig.daemon.waitFor("the session bus connection failed", timeout: 3)
      #expect(lost?.contains("displayd[warning]") == true, "\(rig.daemon.log)")
      #expect(rig.daemon.waitFor("desktop: kscreen (KDE Plasma) is gone", timeout: 3) != nil)
      #expect(rig.daemon.isRunning)
      #expect(try rig.manager() == "-")
    }

    @Test func mateSettingsDaemonIsAManagerOnlyWithItsXrandrPlugin() throws {
      let rig = try Rig()
      let keyboard = try rig.standIn(
        "org.mate.SettingsDaemon", "/org/mate/SettingsDaemon/Keyboard", "org.mate.SettingsDaemon.Keyboard", "Ping", [])
      rig.daemon.settle()
      #expect(try rig.manager() == "-")
      rig.bus.stop(keyboard)
      #expect(rig.bus.waitFor("org.mate.SettingsDaemon", present: false))
      let xrandr = try rig.standIn(
        "org.mate.SettingsDaemon", "/org/mate/SettingsDaemon/XRANDR", "org.mate.SettingsDaemon.XRANDR_2",
        "ApplyConfiguration", [])
      #expect(rig.daemon.waitFor("desktop: msd-xrandr (MATE) manages displays", timeout: 3) != nil)
      #expect(try rig.manager() == "msd-xrandr")
      rig.bus.stop(xrandr)
      #expect(rig.daemon.waitFor("desktop: msd-xrandr (MATE) is gone", timeout: 3) != nil)
    }
  }
}
