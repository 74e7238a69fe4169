import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

extension XServerTests {
  @Suite struct UnderSystemd {
    let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().path

    /// Installs the unit (with a drop-in that sends its log to a file, since no journald runs
    /// here) and points the manager at `server`.
    func install(_ systemd: UserManager, _ server: TestXServer) throws -> String {
      let make = try runCommand([
        "make", "-C", repo, "--no-print-directory", "BIN=\(displaydPath)", "PREFIX=\(systemd.root)/prefix",
        "UNITDIR=\(systemd.config)/systemd/user", "install",
      ])
      #expect(make.status == 0, "\(make.err)")
      let log = systemd.root + "/service.log"
      let dropIn = systemd.config + "/systemd/user/displayd.service.d"
      try FileManager.default.createDirectory(atPath: dropIn, withIntermediateDirectories: true)
      try "[Service]\nStandardOutput=append:\(log)\nStandardError=append:\(log)\n".write(
        toFile: dropIn + "/log.conf", atomically: true, encoding: .utf8)
      try FileManager.default.createDirectory(atPath: systemd.config + "/displayd", withIntermediateDirectories: true)
      try systemd.systemctl(["daemon-reload"])
      try systemd.systemctl(["set-environment", "DISPLAY=\(server.display)", "XDG_CONFIG_HOME=\(systemd.config)"])
      return log
    }

    func writeConfig(_ systemd: UserManager, _ text: String) throws {
      try text.write(toFile: systemd.config + "/displayd/config.json5", atomically: true, encoding: .utf8)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to start systemd --user here"))
    func serviceLifecycleUnderARealUserManager() throws {
      let systemd = try #require(try UserManager.start(), "systemd --user could not start")
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let log = try install(systemd, server)
      try writeConfig(systemd, "{ placeholder: { background: '#204080' } }")

      #expect(try systemd.systemctl(["start", "displayd"]).status == 0)
      #expect(try systemd.property("displayd", "ActiveState") == "active", "active once READY=1 arrived")
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(eventually(within: 1) { x.displaydWindows().count == 1 && x.pixel(x: 1925, y: 5) == 0x204080 })
      let window = x.displaydWindows().first?.id

      try writeConfig(systemd, "{ placeholder: { background: 'not-a-colour' } }")
      #expect(try systemd.systemctl(["reload", "displayd"]).status == 0)
      #expect(try systemd.property("displayd", "ActiveState") == "active")
      #expect(try systemd.property("displayd", "StatusText").hasPrefix("config error (previous config in force)"))
      #expect(try String(contentsOfFile: log, encoding: .utf8).contains("reload failed, keeping the previous config"))
      #expect(x.pixel(x: 1925, y: 5) == 0x204080, "nothing visible changed")

      try writeConfig(systemd, "{ placeholder: { background: '#00ff00' } }")
      try systemd.systemctl(["reload", "displayd"])
      let applied = eventually(within: 1) { x.pixel(x: 1925, y: 5) == 0x00ff00 }
      let serviceLog = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      #expect(applied, "the fixed config is applied; log: \(serviceLog.split(separator: "\n").suffix(12))")
      #expect(x.displaydWindows().first?.id == window, "the window is redrawn, not recreated")
      #expect(try systemd.property("displayd", "StatusText") == "1 external monitor: VNC-1 placeholder")

      #expect(try systemd.systemctl(["stop", "displayd"]).status == 0)
      #expect(x.displaydWindows().isEmpty)
      #expect(try systemd.property("displayd", "ActiveState") == "inactive", "inactive, not failed")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to start systemd --user here"))
    func losingTheServerRestartsAndABadConfigDoesNot() throws {
      let systemd = try #require(try UserManager.start(), "systemd --user could not start")
      let server = try TestXServer.vnc()
      _ = try install(systemd, server)
      try writeConfig(systemd, "{}")
      #expect(try systemd.systemctl(["start", "displayd"]).status == 0)
      let pid = try systemd.property("displayd", "MainPID")
      try server.crash()
      #expect(
        eventually(within: 1) { (try? systemd.property("displayd", "MainPID")) != pid }, "the process ended within 1 s")
      #expect(
        eventually(within: 3) { (Int((try? systemd.property("displayd", "NRestarts")) ?? "") ?? 0) >= 1 },
        "systemd restarted it")
      try systemd.systemctl(["stop", "displayd"])
      try systemd.systemctl(["reset-failed", "displayd"])

      let other = try TestXServer.vnc()
      try systemd.systemctl(["set-environment", "DISPLAY=\(other.display)"])
      try writeConfig(systemd, "{ defaults: { mode: 'bogus' } }")
      #expect(try systemd.systemctl(["start", "displayd"]).status != 0)
      #expect(try systemd.property("displayd", "ActiveState") == "failed")
      #expect(try systemd.property("displayd", "ExecMainStatus") == "78")
      #expect(try systemd.property("displayd", "NRestarts") == "0", "a bad config is not restarted")
    }
  }
}
