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

extension XServerTests {
  @Suite struct Service {
    @Test func notifiesReadyReloadingStatusStoppingAndWatchdog() throws {
      let server = try TestXServer.vnc()
      let notify = try NotifyListener()
      let daemon = try DaemonProcess(
        display: server.display, config: "{}", environment: ["NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "200000"])
      let ready = try #require(notify.until("READY=1"), "READY=1")
      #expect(ready.contains("STATUS=0 external monitors"))
      #expect(notify.until("WATCHDOG=1", timeout: 0.5) != nil, "a ping at half of WATCHDOG_USEC")

      let path = try #require(daemon.configPath)
      try "{ defaults: { mode: 'nonsense' } }".write(toFile: path, atomically: true, encoding: .utf8)
      daemon.child.signal(SIGHUP)
      #expect(notify.until("RELOADING=1") != nil)
      let after = try #require(notify.until("READY=1"))
      #expect(after.contains("STATUS=config error (previous config in force)"), "\(after)")
      #expect(daemon.waitFor("reload failed, keeping the previous config") != nil)
      daemon.child.signal(SIGTERM)
      #expect(notify.until("STOPPING=1") != nil)
      #expect(daemon.child.wait(timeout: 1) == 0)
    }

    @Test func statusListsExactlyTheMonitorsWithWindowsAndSurvivesBadClients() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let runtime = try runtimeDirectory()
      let daemon = try DaemonProcess(display: server.display, environment: ["XDG_RUNTIME_DIR": runtime])
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024), (main + 2, 1024, 768)]))
      #expect(eventually(within: 1) { x.displaydWindows().count == 2 })
      let socketPath = runtime + "/displayd/\(server.display).sock"
      var st = stat()
      #expect(stat(socketPath, &st) == 0 && st.st_mode & 0o777 == 0o600)
      #expect(stat(runtime + "/displayd", &st) == 0 && st.st_mode & 0o777 == 0o700)

      // A silent client, a garbage line and a 10 MB line must not stop the daemon answering.
      let silent = try UnixClient(socketPath)
      let garbage = try UnixClient(socketPath)
      try garbage.send(Array("this is not json\n".utf8))
      #expect(garbage.line()?.contains("\"ok\":false") == true)
      let huge = try UnixClient(socketPath)
      try? huge.send([UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20))
      #expect(huge.line()?.contains("longer than") == true, "a huge line is refused")

      let env = ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"]
      let r = try runCommand([displaydPath, "status", "--json", "--display", server.display], environment: env)
      #expect(r.status == 0, "\(r.err)")
      let status = try jsonObject(r.out)
      let monitors = try #require(status["monitors"] as? [[String: Any]])
      let shown = Set(x.displaydWindows().map { "\($0.output ?? "") \($0.id)" })
      #expect(Set(monitors.map { "\($0["output"] as? String ?? "") \($0["window"] as? Int ?? 0)" }) == shown)
      #expect(
        monitors.allSatisfy {
          $0["mode"] is String && $0["since"] is String && $0["content"] as? String == "placeholder"
        })
      let text = try runCommand([displaydPath, "status", "--display", server.display], environment: env)
      #expect(text.out.contains("VNC-1: 1280x1024@60.00"), "\(text.out)")
      _ = silent
      #expect(daemon.child.wait(timeout: 0) == nil, "still running")
    }

    @Test func watchSubscribesToTheRunningDaemon() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let runtime = try runtimeDirectory()
      let daemon = try DaemonProcess(display: server.display, environment: ["XDG_RUNTIME_DIR": runtime])
      let watch = try ChildProcess(
        [displaydPath, "watch", "--json", "--display", server.display], environment: ["XDG_RUNTIME_DIR": runtime])
      #expect(watch.readErrorLine(timeout: 2)?.contains("watching through the running daemon") == true)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      let line = try #require(watch.readLine(timeout: 1), "an event within 1 s")
      let event = try jsonObject(line)
      #expect(event["event"] as? String == "connected" && event["output"] as? String == "VNC-1")
      #expect(event["crtc"] as? [String: Int] == ["x": 1920, "y": 0, "width": 1280, "height": 1024])
      watch.signal(SIGTERM)
      #expect(watch.wait(timeout: 1) == 0)
      #expect(daemon.child.wait(timeout: 0) == nil)
    }

    @Test func reloadCommandAppliesAGoodConfigAndReportsABadOne() throws {
      let server = try TestXServer.vnc()
      let runtime = try runtimeDirectory()
      let daemon = try DaemonProcess(display: server.display, config: "{}", environment: ["XDG_RUNTIME_DIR": runtime])
      let path = try #require(daemon.configPath)
      let env = ["XDG_RUNTIME_DIR": runtime]
      try "{ defaults: { level: 'sideways' } }".write(toFile: path, atomically: true, encoding: .utf8)
      let bad = try runCommand([displaydPath, "reload", "--display", server.display], environment: env)
      #expect(bad.status == 78 && bad.err.contains("defaults.level"), "\(bad.err)")
      let status = try jsonObject(
        try runCommand([displaydPath, "status", "--json", "--display", server.display], environment: env).out)
      #expect((status["config_error"] as? String)?.contains("defaults.level") == true)
      try "{ defaults: { level: 'above' } }".write(toFile: path, atomically: true, encoding: .utf8)
      let good = try runCommand([displaydPath, "reload", "--display", server.display], environment: env)
      #expect(good.status == 0 && good.out == "reloaded\n")
      #expect(daemon.waitFor("config reloaded") != nil)
      let none = try runCommand([displaydPath, "status", "--display", ":987"], environment: env)
      #expect(none.status == 69 && none.err.contains("no displayd runs on display ':987'"))
    }

    @Test func aClientOfAnotherUserIsRefused() throws {
      let server = try TestXServer.vnc()
      let runtime = try runtimeDirectory()
      let daemon = try DaemonProcess(display: server.display, environment: ["XDG_RUNTIME_DIR": runtime])
      // Open the folder and socket up, as a careless admin might: the uid check still refuses.
      chmod(runtime, 0o755)
      chmod(runtime + "/displayd", 0o755)
      chmod(runtime + "/displayd/\(server.display).sock", 0o666)
      let r = try runCommand(
        [
          "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", displaydPath, "status", "--display",
          server.display,
        ],
        environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
      #expect(r.status != 0)
      #expect(r.err.contains("refused: uid 65534"), "\(r.err)")
      // The owner is still served: the refusal, sent to a client already gone, did not end
      // the daemon (it once died of SIGPIPE here).
      let owner = try runCommand(
        [displaydPath, "status", "--display", server.display],
        environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
      #expect(owner.status == 0, "\(owner.err)")
      #expect(daemon.child.wait(timeout: 0) == nil)
    }

    @Test func secondDaemonOnTheSameDisplayRefusesToStart() throws {
      let server = try TestXServer.vnc()
      let runtime = try runtimeDirectory()
      let first = try DaemonProcess(display: server.display, environment: ["XDG_RUNTIME_DIR": runtime])
      let second = try runCommand(
        [displaydPath, "run", "--display", server.display],
        environment: ["XDG_RUNTIME_DIR": runtime, "HOME": "/nonexistent"])
      #expect(second.status == 1)
      #expect(second.err.contains("another displayd already runs on this display"), "\(second.err)")
      #expect(first.child.wait(timeout: 0) == nil)
    }

    @Test func aHookOverItsTimeLimitIsKilledWithoutBlockingTheDaemon() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(
        display: server.display, config: "{ hooks: { connected: ['/bin/sleep', '30'], timeout_seconds: 0.3 } }")
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(daemon.waitFor("hook /bin/sleep started") != nil)
      // The daemon keeps serving while the hook runs: the window is there meanwhile.
      #expect(eventually(within: 1) { x.displaydWindows().count == 1 })
      #expect(daemon.waitFor("ran over 0.3 s; killing it", timeout: 2) != nil)
      #expect(daemon.waitFor("killed by signal 9", timeout: 1) != nil, "reaped, status logged")
    }

    @Test func hooksGetTheDocumentedEnvironmentAndMonitorDataStaysData() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let dir = try makeTempDirectory("displayd-hooks")
      // The hook's own script is fixed; the monitor's strings arrive only as variables.
      let script = "env | grep ^DISPLAYD_ | sort > \"$0\""
      let config = """
        { hooks: { connected: ["/bin/sh", "-c", \(jsonString(script)), "\(dir)/connected.env"],
                   disconnected: [["/bin/sh", "-c", \(jsonString(script)), "\(dir)/disconnected.env"]] } }
        """
      let daemon = try DaemonProcess(display: server.display, config: config, environment: ["PWD": dir])
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(
        eventually(within: 2) {
          FileManager.default.fileExists(atPath: dir + "/connected.env")
            && daemon.waitFor("exited with status 0", timeout: 0.05) != nil
        })
      let connected = try String(contentsOfFile: dir + "/connected.env", encoding: .utf8)
      #expect(connected.contains("DISPLAYD_EVENT=connected\n") && connected.contains("DISPLAYD_OUTPUT=VNC-1\n"))
      #expect(connected.contains("DISPLAYD_MODE=1280x1024@60.00\n"))

      let name = "$(touch pwn)"
      let serial = "a;\"b'c`id`"
      let edid = try hostileEDID(name: name, serial: serial)
      let connection = try XConnection(name: server.display)
      let output = try #require(try connection.readTopology().output(named: "VNC-1"))
      try connection.setEDID(edid, on: output.id)
      #expect(daemon.waitFor("edid-changed VNC-1") != nil)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))
      #expect(
        eventually(within: 2) {
          (try? String(contentsOfFile: dir + "/disconnected.env", encoding: .utf8))?.contains("MODE") == true
        })
      let gone = try String(contentsOfFile: dir + "/disconnected.env", encoding: .utf8)
      #expect(gone.contains("DISPLAYD_PRODUCT_NAME=\(name)\n"), "\(gone)")
      #expect(gone.contains("DISPLAYD_SERIAL=\(serial)\n"), "\(gone)")
      #expect(gone.contains("DISPLAYD_MANUFACTURER=ACR\n") && gone.contains("DISPLAYD_EVENT=disconnected\n"))
      let cwd = FileManager.default.currentDirectoryPath
      #expect(
        !FileManager.default.fileExists(atPath: cwd + "/pwn") && !FileManager.default.fileExists(atPath: dir + "/pwn"))
      #expect(!FileManager.default.fileExists(atPath: "/pwn"), "nothing from the EDID was executed")
    }
  }
}
