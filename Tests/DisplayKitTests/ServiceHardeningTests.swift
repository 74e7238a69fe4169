import DisplayKit
import DisplayModel
import DisplayService
import DisplaySupport
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// Pure pieces of the service that hostile input reaches: the logger, sd_notify, the hook
/// timer arithmetic.
@Suite struct ServiceHardeningUnitTests {
  final class Lines: @unchecked Sendable { var all: [String] = [] }

  @Test func everyLogMessageIsOneLine() {
    let lines = Lines()
    let journal = Logger(level: .debug, journal: true) { lines.all.append($0) }
    journal.info("mode \"1920x1080\n<3>forged\" on VNC-1")
    journal.warning("tab\there, cr\r, esc\u{1B}[31m, del\u{7F}, nul\u{0}, nel\u{85}")
    journal.info("plain text, ünïcödé ✓ and \"quotes\" stay as they are")
    #expect(
      lines.all == [
        "<6>mode \"1920x1080\\n<3>forged\" on VNC-1\n",
        "<4>tab\\there, cr\\r, esc\\u{1b}[31m, del\\u{7f}, nul\\u{0}, nel\\u{85}\n",
        "<6>plain text, ünïcödé ✓ and \"quotes\" stay as they are\n",
      ])
    lines.all = []
    let plain = Logger(level: .debug, journal: false) { lines.all.append($0) }
    plain.error("a\nb")
    #expect(lines.all == ["displayd[error]: a\\nb\n"])
  }

  @Test func aHugeWatchdogIntervalSaturates() throws {
    let env = ["WATCHDOG_USEC": "18446744073709551615"]
    let notifier = SystemdNotifier(environment: { env[$0] })
    #expect(notifier.watchdogInterval == UInt64.max)
    let timer = try DeadlineTimer()
    timer.arm(every: UInt64.max)
    #expect(timer.isArmed, "a huge period saturates, it does not trap")
    timer.arm(after: UInt64.max)
    timer.arm(after: 0)
    #expect(timer.isArmed, "0 still fires (after 1 ns), it does not disarm")
    timer.disarm()
    #expect(!timer.isArmed)
    let normal = ["WATCHDOG_USEC": "200000"]
    #expect(SystemdNotifier(environment: { normal[$0] }).watchdogInterval == 100_000_000)
    let tiny = ["WATCHDOG_USEC": "1"]
    #expect(SystemdNotifier(environment: { tiny[$0] }).watchdogInterval == 1_000_000, "no busy loop")
  }

  @Test func aHookWithAnEndlessTimeLimitStarts() {
    let lines = Lines()
    let hooks = HookRunner(log: Logger(level: .debug) { lines.all.append($0) }, timeoutSeconds: .infinity)
    hooks.start(["/bin/sleep", "30"], environment: [:])
    #expect(hooks.runningCount == 1, "\(lines.all)")
    let huge = HookRunner(log: Logger(level: .debug) { lines.all.append($0) }, timeoutSeconds: 1e300)
    huge.start(["/bin/sleep", "30"], environment: [:])
    #expect(huge.runningCount == 1, "\(lines.all)")
    // deinit kills them; they are not reaped here, as waitpid(-1) would take the test rig's children.
  }
}

/// The control protocol as a pure function of the bytes received.
@Suite struct ControlProtocolTests {
  func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

  @Test func completeLinesAreDecodedAndTheRestIsKept() {
    let batch = ControlProtocol.requests(in: bytes("{\"request\":\"status\"}\nnot json\n\n{\"request\":\"re"))
    #expect(batch.items == [.request("status"), .malformed, .malformed])
    #expect(batch.consumed == 31 && batch.failure == nil)
    #expect(ControlProtocol.requests(in: []).items.isEmpty)
  }

  @Test func moreThanTheCapInOneReadIsAFailureAfterTheCap() {
    let text = String(repeating: "{\"request\":\"reload\"}\n", count: 3000)
    let batch = ControlProtocol.requests(in: bytes(text))
    #expect(batch.items.count == ControlProtocol.maxRequestsPerRead)
    #expect(batch.items.allSatisfy { $0 == .request("reload") })
    #expect(batch.failure == .tooManyRequests && batch.consumed == 21 * 64)
    let exactly = ControlProtocol.requests(in: bytes(String(repeating: "{\"request\":\"status\"}\n", count: 64)))
    #expect(exactly.items.count == 64 && exactly.failure == nil)
  }

  @Test func aLongLineIsAFailureWithOrWithoutItsNewline() {
    let long = [UInt8](repeating: UInt8(ascii: "x"), count: ControlProtocol.maxLine + 1)
    #expect(ControlProtocol.requests(in: long).failure == .lineTooLong)
    let ok = bytes("{\"request\":\"status\"}\n")
    let batch = ControlProtocol.requests(in: ok + long + [0x0A])
    #expect(batch.items == [.request("status")] && batch.failure == .lineTooLong && batch.consumed == ok.count)
    let atLimit = [UInt8](repeating: UInt8(ascii: "x"), count: ControlProtocol.maxLine)
    #expect(ControlProtocol.requests(in: atLimit).failure == nil)
  }

  @Test func displayNamesAreCanonical() {
    for name in [":0", ":0.0", "unix:0", "unix:0.1", "localhost/unix:0", "unix/:0", ":00"] {
      #expect(canonicalDisplayName(name) == ":0", "\(name)")
    }
    #expect(canonicalDisplayName("host:1") == "host:1")
    #expect(canonicalDisplayName("host:1.0") == "host:1")
    #expect(canonicalDisplayName("tcp/host:1") == "host:1")
    #expect(canonicalDisplayName("localhost:10.0") == "localhost:10")
    #expect(canonicalDisplayName("a/b/../c") == "a_b_.._c", "no slash ever reaches a path")
    #expect(controlSocketPath(display: "unix:3.0", runtimeDir: "/r") == "/r/displayd/:3.sock")
    #expect(controlSocketPath(display: ":3", runtimeDir: nil) == nil)
    #expect(ControlLocation(display: ":3", runtimeDir: nil, uid: 1000).lock == "/tmp/displayd-1000/:3.lock")
  }
}

extension XServerTests {
  @Suite struct ServiceHardening {
    @Test func aHookThatClosesItsOutputEarlyCostsNoCPU() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(
        display: server.display,
        config: "{ hooks: { connected: ['/bin/sh', '-c', 'exec >/dev/null 2>&1; sleep 5'] } }")
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(daemon.waitFor("hook /bin/sh started") != nil)
      let before = try #require(cpuTicks(daemon.child.pid))
      #expect(daemon.waitFor("exited with status 0", timeout: 8) != nil, "reaped and logged")
      let used = try #require(cpuTicks(daemon.child.pid)) - before
      #expect(used < 20, "the daemon used \(used) ticks while the hook slept 5 s")
    }

    @Test func aConfigErrorWithANewlineCannotForgeNotifyFields() throws {
      let server = try TestXServer.vnc()
      let notify = try NotifyListener()
      let daemon = try DaemonProcess(display: server.display, config: "{}", environment: ["NOTIFY_SOCKET": notify.name])
      #expect(notify.until("READY=1") != nil)
      let path = try #require(daemon.configPath)
      try "{ \"x\\nWATCHDOG=trigger\\nSTATUS=forged\": 1 }".write(toFile: path, atomically: true, encoding: .utf8)
      daemon.child.signal(SIGHUP)
      let after = try #require(notify.until("STATUS=config error"))
      let fields = after.split(separator: "\n")
      #expect(fields.count == 2 && fields[0] == "READY=1", "\(after)")
      #expect(!fields.contains { $0.hasPrefix("WATCHDOG=") || $0 == "STATUS=forged" }, "\(after)")
      let line = try #require(daemon.waitFor("reload failed"))
      #expect(line.contains("\\nWATCHDOG=trigger"), "the log line keeps the key, escaped: \(line)")
    }

    @Test func twoDaemonsStartedAtOnceLeaveExactlyOneRunning() throws {
      let server = try TestXServer.vnc()
      for round in 0..<3 {
        let runtime = try runtimeDirectory()
        try raceTwoDaemons(display: server.display, environment: ["XDG_RUNTIME_DIR": runtime], round: round)
      }
    }

    @Test func twoDaemonsWithoutARuntimeFolderLeaveExactlyOneRunning() throws {
      let server = try TestXServer.vnc()
      for round in 0..<3 { try raceTwoDaemons(display: server.display, environment: [:], round: round) }
    }

    func raceTwoDaemons(display: String, environment: [String: String], round: Int) throws {
      let a = try spawnDaemon(display: display, environment: environment)
      let b = try spawnDaemon(display: display, environment: environment)
      #expect(eventually(within: 5) { a.wait(timeout: 0) != nil || b.wait(timeout: 0) != nil }, "round \(round)")
      let (loser, winner) = a.exitStatus != nil ? (a, b) : (b, a)
      #expect(loser.exitStatus == 1, "round \(round)")
      #expect(loser.drainOutput().err.contains("already runs"), "round \(round)")
      #expect(waitForLine(winner, "ready: ") != nil, "round \(round): the other one runs")
      #expect(winner.wait(timeout: 0) == nil, "round \(round)")
      winner.signal(SIGTERM)
      #expect(winner.wait(timeout: 2) == 0)
    }

    @Test func unixAndColonNamesShareOneInstance() throws {
      let server = try TestXServer.vnc()
      let number = server.display.dropFirst()
      for environment in [["XDG_RUNTIME_DIR": try runtimeDirectory()], [:]] {
        let first = try DaemonProcess(display: server.display, environment: environment)
        for alias in ["unix:\(number)", "unix:\(number).0", ":\(number).0"] {
          let second = try spawnDaemon(display: alias, environment: environment)
          #expect(second.wait(timeout: 5) == 1, "\(alias)")
          #expect(second.drainOutput().err.contains("already runs"), "\(alias)")
        }
        #expect(first.child.wait(timeout: 0) == nil)
      }
    }

    @Test func anUnsafeRuntimeFolderIsRefused() throws {
      let server = try TestXServer.vnc()
      // displayd/ a symbolic link to a folder someone else may control.
      let linked = try runtimeDirectory()
      let elsewhere = try makeTempDirectory("displayd-elsewhere")
      #expect(symlink(elsewhere, linked + "/displayd") == 0)
      let a = try runCommand(
        [displaydPath, "run", "--display", server.display],
        environment: ["XDG_RUNTIME_DIR": linked, "HOME": "/nonexistent"], timeout: 5)
      #expect(a.status == 1 && a.err.contains("symbolic link"), "\(a.err)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty, "nothing made through the link")
      // displayd/ of another user.
      let foreign = try runtimeDirectory()
      #expect(mkdir(foreign + "/displayd", 0o700) == 0 && chown(foreign + "/displayd", 65534, 65534) == 0)
      let b = try runCommand(
        [displaydPath, "run", "--display", server.display],
        environment: ["XDG_RUNTIME_DIR": foreign, "HOME": "/nonexistent"], timeout: 5)
      #expect(b.status == 1 && b.err.contains("belongs to uid 65534"), "\(b.err)")
    }

    @Test func aFileAtTheSocketPathIsNotDeleted() throws {
      let server = try TestXServer.vnc()
      let runtime = try runtimeDirectory()
      #expect(mkdir(runtime + "/displayd", 0o700) == 0)
      let path = runtime + "/displayd/\(server.display).sock"
      try "precious".write(toFile: path, atomically: false, encoding: .utf8)
      let r = try runCommand(
        [displaydPath, "run", "--display", server.display],
        environment: ["XDG_RUNTIME_DIR": runtime, "HOME": "/nonexistent"], timeout: 5)
      #expect(r.status == 1 && r.err.contains("not a socket"), "\(r.err)")
      #expect((try? String(contentsOfFile: path, encoding: .utf8)) == "precious")
    }

    @Test func aFloodOfReloadLinesIsCappedAndTheDaemonStaysResponsive() throws {
      let server = try TestXServer.vnc()
      let runtime = try runtimeDirectory()
      let daemon = try DaemonProcess(display: server.display, config: "{}", environment: ["XDG_RUNTIME_DIR": runtime])
      let socketPath = runtime + "/displayd/\(server.display).sock"
      let flood = try UnixClient(socketPath)
      try flood.send(Array(String(repeating: "{\"request\":\"reload\"}\n", count: 3000).utf8))
      // While the flood is being served, another client is answered at once.
      let start = now()
      let other = try UnixClient(socketPath)
      try other.send(Array("{\"request\":\"status\"}\n".utf8))
      #expect(other.line(timeout: 2)?.contains("\"ok\":true") == true)
      #expect(now() - start < 1, "status answered within a second of the flood")
      // Every line is answered until the cap of 64 a read drops the client.
      var answers = 0
      var capped = false
      while let line = flood.line(timeout: 2) {
        answers += 1
        if line.contains("too many requests") {
          capped = true
          break
        }
      }
      #expect(capped || answers == 3000, "\(answers) answers")
      daemon.settle(quiet: 0.2)
      let reloads = daemon.log.filter { $0.contains("config reloaded") }.count
      #expect(reloads > 0 && reloads * 10 <= answers, "\(reloads) reloads for \(answers) answers: coalesced")
    }

    @Test func runningOutOfDescriptorsDoesNotSpinTheAcceptLoop() throws {
      let server = try TestXServer.vnc()
      let runtime = try runtimeDirectory()
      let daemon = try spawnDaemon(
        display: server.display, environment: ["XDG_RUNTIME_DIR": runtime],
        prefix: ["/bin/sh", "-c", "ulimit -n 40; exec \"$@\"", "sh"])
      #expect(waitForLine(daemon, "ready: ") != nil)
      let socketPath = runtime + "/displayd/\(server.display).sock"
      var clients = try (0..<40).map { _ in try UnixClient(socketPath) }
      // The daemon's table fills up (the limit is 40) as it takes the clients in.
      #expect(eventually(within: 2) { (openDescriptors(daemon.pid) ?? 0) >= 39 })
      let before = try #require(cpuTicks(daemon.pid))
      _ = pollFDs([], timeoutMs: 1000)  // the observation window, not a wait for anything
      let used = try #require(cpuTicks(daemon.pid)) - before
      #expect(used < 20, "\(used) ticks in 1 s with the descriptor table full")
      clients.removeAll()
      // A client that arrives before the daemon has seen the others go is still shed: retry.
      let served = eventually(within: 3) {
        guard let fresh = try? UnixClient(socketPath),
          (try? fresh.send(Array("{\"request\":\"status\"}\n".utf8))) != nil
        else { return false }
        return fresh.line(timeout: 0.5)?.contains("\"ok\":true") == true
      }
      #expect(served, "serves again once clients go")
      #expect(daemon.wait(timeout: 0) == nil)
    }

    @Test func runningHooksAreCapped() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let hooks = Array(repeating: "['/bin/sleep', '3']", count: 40).joined(separator: ", ")
      let daemon = try DaemonProcess(display: server.display, config: "{ hooks: { connected: [\(hooks)] } }")
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(daemon.waitFor("skipped", timeout: 3) != nil)
      daemon.settle(quiet: 0.3)
      #expect(daemon.log.filter { $0.contains("hook /bin/sleep started") }.count == 32)
      #expect(daemon.log.filter { $0.contains("skipped") }.count == 8)
    }
  }
}
