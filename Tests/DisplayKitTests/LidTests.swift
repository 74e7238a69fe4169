import DisplayKit
import DisplayModel
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// The lid from logind: a mocked logind (python-dbusmock) on a private system bus.
extension XServerTests {
  @Suite struct Lid {
    /// A daemon on a fresh Xvnc with `environment`, and where its control socket is.
    struct Rig {
      let server: TestXServer
      let runtime: String
      let daemon: DaemonProcess

      /// The lid is watched only when the config uses it: `lid_closed` here.
      static let usesLid = "{ defaults: { lid_closed: 'disable' } }"

      init(_ environment: [String: String], config: String = Rig.usesLid) throws {
        server = try TestXServer.vnc()
        runtime = try runtimeDirectory()
        daemon = try DaemonProcess(
          display: server.display, config: config,
          environment: environment.merging(["XDG_RUNTIME_DIR": runtime]) { a, _ in a })
      }

      /// Whether the daemon has libsystemd mapped. Read line by line: Foundation's
      /// String(contentsOfFile:) stops /proc/PID/maps after its first 4 KB.
      func mapsLibsystemd() throws -> Bool {
        guard let f = fopen("/proc/\(daemon.child.pid)/maps", "r") else { throw RigError("no maps") }
        defer { fclose(f) }
        var buffer = [CChar](repeating: 0, count: 4096)
        var (libsystemd, stack) = (false, false)
        while fgets(&buffer, Int32(buffer.count), f) != nil {
          let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
          libsystemd = libsystemd || line.contains("/libsystemd.so")
          stack = stack || line.contains("[stack]")
        }
        // The stack is near the end of the list: seen, the whole list was read.
        guard stack else { throw RigError("maps read short") }
        return libsystemd
      }

      /// `status --json`'s "lid".
      func lid() throws -> String? {
        let r = try runCommand(
          [displaydPath, "status", "--json", "--display", server.display],
          environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
        guard r.status == 0 else { throw RigError("status: \(r.err)") }
        return try jsonObject(r.out)["lid"] as? String
      }

      /// Whether `status --json` says `state` within two seconds.
      func shows(_ state: String) -> Bool { eventually(within: 2) { (try? lid()) == state } }

      /// The log lines saying the lid counts as open.
      func openFallbacks() -> [String] {
        daemon.settle()
        return daemon.log.filter { $0.contains("the lid counts as open") }
      }
    }

    @Test func closingAndOpeningTheLidIsSeenAndReconciles() throws {
      let logind = try MockLogind()
      let rig = try Rig(logind.environment)
      #expect(try rig.lid() == "open")
      #expect(rig.daemon.log.contains { $0.contains("lid open (logind)") }, "\(rig.daemon.log)")

      try logind.setLid(closed: true)
      #expect(rig.shows("closed"))
      #expect(rig.daemon.waitFor("reconcile 2 (lid closed)") != nil, "a change reconciles")
      try logind.setLid(closed: false)
      #expect(rig.shows("open"))
      #expect(rig.daemon.waitFor("reconcile 3 (lid open)") != nil)
      // The same state again is no change: no reconcile.
      try logind.setLid(closed: false)
      rig.daemon.settle()
      #expect(!rig.daemon.log.contains { $0.contains("reconcile 4") })
      #expect(rig.openFallbacks().isEmpty)
    }

    @Test func aLidClosedAtStartIsReadAtStart() throws {
      let logind = try MockLogind(lidClosed: true)
      let rig = try Rig(logind.environment)
      #expect(try rig.lid() == "closed")
      #expect(rig.daemon.log.contains { $0.contains("lid closed (logind)") })
      // Known before the first reconcile, so start-up makes none for the lid.
      #expect(!rig.daemon.log.contains { $0.contains("(lid closed)") })
    }

    @Test func anInvalidatedLidIsReadAgain() throws {
      let logind = try MockLogind()
      let rig = try Rig(logind.environment)
      try logind.invalidateLid(closed: true)
      #expect(rig.shows("closed"))
      try logind.invalidateLid(closed: false)
      #expect(rig.shows("open"))
    }

    @Test func hostileSignalsAreIgnored() throws {
      let logind = try MockLogind()
      let rig = try Rig(logind.environment)
      let manager = "org.freedesktop.login1.Manager"
      // LidClosed of the wrong type, another interface, the wrong shape: all ignored.
      try logind.emitPropertiesChanged([
        "sa{sv}as", "3", "s", manager, "a{sv}", "1", "LidClosed", "s", "yes", "as", "0",
      ])
      try logind.emitPropertiesChanged(
        ["sa{sv}as", "3", "s", "org.example.Other", "a{sv}", "1", "LidClosed", "b", "true", "as", "0"])
      try logind.emitPropertiesChanged(["s", "1", "s", manager])
      try logind.emitPropertiesChanged(["sa{sv}as", "3", "s", manager, "a{sv}", "0", "as", "1", "NotTheLid"])
      // Still following: the next real change is seen, and nothing before it moved the lid.
      try logind.setLid(closed: true)
      #expect(rig.shows("closed"))
      rig.daemon.settle()
      #expect(rig.daemon.log.filter { $0.contains("lid closed (logind)") }.count == 1, "\(rig.daemon.log)")
      #expect(rig.daemon.isRunning)
    }

    @Test func aBusThatGoesAwayLeavesTheLidOpenAndTheDaemonRunning() throws {
      let logind = try MockLogind(lidClosed: true)
      let rig = try Rig(logind.environment)
      #expect(try rig.lid() == "closed")
      logind.bus.signal(SIGKILL)
      #expect(rig.shows("open"))
      #expect(rig.daemon.waitFor("no more lid events") != nil)
      #expect(rig.daemon.isRunning)
    }

    @Test func withoutASystemBusTheLidIsOpenAndOneLineSaysWhy() throws {
      let rig = try Rig(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"])
      #expect(try rig.lid() == "open")
      let lines = rig.openFallbacks()
      #expect(lines.count == 1 && lines[0].contains("no system bus"), "\(lines)")
      #expect(lines.first?.contains("displayd[info]") == true, "an info line: \(lines)")
    }

    @Test func aConfigThatDoesNotUseTheLidNeverLoadsLibsystemdUntilAReloadDoes() throws {
      let logind = try MockLogind(lidClosed: true)
      let rig = try Rig(logind.environment, config: "{ defaults: { lid_closed: 'ignore' } }")
      #expect(try rig.lid() == "open", "not watched: the lid counts as open")
      #expect(rig.daemon.log.contains { $0.contains("the config does not use the lid: not watched") })
      #expect(try !rig.mapsLibsystemd())
      try logind.setLid(closed: false)
      try logind.setLid(closed: true)
      rig.daemon.settle()
      #expect(try !rig.mapsLibsystemd())
      #expect(!rig.daemon.log.contains { $0.contains("(logind)") || $0.contains("(lid ") }, "\(rig.daemon.log)")

      // A profile with a lid condition: the reload starts the watcher, which reads the lid.
      let path = try #require(rig.daemon.configPath)
      let profile = "{ profiles: [{ name: 'shut', lid: 'closed', outputs: [{ match: { output: 'VNC-*' } }] }] }"
      try profile.write(toFile: path, atomically: true, encoding: .utf8)
      rig.daemon.child.signal(SIGHUP)
      #expect(rig.shows("closed"))
      #expect(try rig.mapsLibsystemd())
      try logind.setLid(closed: false)
      #expect(rig.shows("open"), "followed from then on")

      // Back to a config without the lid: no longer watched, open from then on.
      try logind.setLid(closed: true)
      #expect(rig.shows("closed"))
      try "{}".write(toFile: path, atomically: true, encoding: .utf8)
      rig.daemon.child.signal(SIGHUP)
      #expect(rig.shows("open"))
      #expect(rig.daemon.waitFor("no longer watched, it counts as open") != nil)
    }

    /// `check-config` reads the lid by the daemon's rule: only when the config uses it.
    @Test func checkConfigCountsTheLidOpenWhenTheConfigDoesNotUseItAsTheDaemonDoes() throws {
      let logind = try MockLogind(lidClosed: true)
      let server = try TestXServer.vnc()
      let folder = try makeTempDirectory("displayd-lid-check")
      func check(_ config: String) throws -> String {
        let path = folder + "/config.json5"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        let r = try runCommand(
          [displaydPath, "check-config", path, "--display", server.display],
          environment: logind.environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a })
        #expect(r.status == 0, "\(r.err)")
        return r.out
      }
      let noLid = try check("{ profiles: [{ name: 'any', outputs: [{ match: { output: 'VNC-*' } }] }] }")
      #expect(noLid.contains("lid: open\n"), "profiles without a lid condition: \(noLid)")
      let usesLid = try check(
        "{ profiles: [{ name: 'shut', lid: 'closed', outputs: [{ match: { output: 'VNC-*' } }] }] }")
      #expect(usesLid.contains("lid: closed\n"), "\(usesLid)")
    }

    @Test func withABusButNoLogindTheLidIsOpenAndOneLineSaysWhy() throws {
      let bus = try MockLogind(logind: false)
      let rig = try Rig(bus.environment)
      #expect(try rig.lid() == "open")
      let lines = rig.openFallbacks()
      #expect(lines.count == 1 && lines[0].contains("org.freedesktop.login1"), "\(lines)")
    }
  }
}
