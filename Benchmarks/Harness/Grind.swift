// displayd-bench grind: the daemon's instructions per plug + unplug under callgrind, which
// unlike CPU time do not depend on what else the machine runs. Each cycle waits for the
// daemon to go quiet, so no two events are ever handled together.
//
// Valgrind 3.19 cannot read the DWARF 5 the Swift compiler writes: give it a copy of the
// daemon without its debug sections (`objcopy --strip-debug`); the symbols stay.
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// Runs DAEMON under callgrind on a private Xvnc for `plugs` cycles with `content`
/// ("placeholder" or "none"); callgrind writes a profile per thread (`out-01` the main one) when
/// the daemon exits.
///
/// With `batched`, the daemon is stopped while the server takes each layout, so that it hears
/// all of a plug's events at once: the same work in every run, however the events are timed.
func grindBenchmark(plugs: Int, content: String, daemon: String, out: String, quiet: Double, batched: Bool) throws {
  let server = try TestXServer.vnc()
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  let windows = content != "none"
  let config =
    windows
    ? "{ disconnect_grace: 0, placeholder: { background: '#204080', foreground: '#ffcc00', text: 'HELLO' } }"
    : "{ disconnect_grace: 0, defaults: { content: 'none' } }"
  let dir = try makeTempDirectory("displayd-grind")
  try config.write(toFile: dir + "/config.json5", atomically: true, encoding: .utf8)
  var env = ProcessInfo.processInfo.environment
  for name in ["DISPLAY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "JOURNAL_STREAM", "NOTIFY_SOCKET"] {
    env[name] = nil
  }
  env["XDG_CONFIG_HOME"] = "/nonexistent"
  let child = try ChildProcess(
    [
      "valgrind", "--tool=callgrind", "--separate-threads=yes", "--callgrind-out-file=\(out)", daemon, "run",
      "--display", server.display,
      "--log-level", "info", "--config", dir + "/config.json5",
    ], environment: env)
  func settle() { while child.readErrorLine(timeout: quiet) != nil {} }
  func waitReady() -> Bool {
    let deadline = Deadline(seconds: 120)
    while !deadline.passed {
      guard let line = child.readErrorLine(timeout: Double(deadline.remainingMs) / 1000) else { return false }
      if line.contains("ready: ") { return true }
    }
    return false
  }
  guard waitReady() else { throw RigError("daemon did not start under valgrind") }
  settle()
  let x = try XInspector(server.display)
  func layout(_ screens: [VNCClient.Screen]) throws {
    if batched { child.signal(SIGSTOP) }
    defer { if batched { child.signal(SIGCONT) } }
    try vnc.setLayout(screens)
  }
  for _ in 0..<plugs {
    try layout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
    if windows {
      guard eventually(within: 60, { x.row(y: 512, from: 1920, to: 3200).contains(foreground) }) else {
        throw RigError("no placeholder")
      }
    }
    settle()
    try layout(VNCClient.row([(main, 1920, 1080)]))
    if windows {
      guard eventually(within: 60, { x.displaydWindows().isEmpty }) else { throw RigError("window stayed") }
    }
    settle()
  }
  child.signal(SIGTERM)
  while child.readErrorLine(timeout: 1) != nil {}
  guard child.wait(timeout: 120) != nil else { throw RigError("daemon did not end") }
  server.stop()
  print("grind: \(plugs) cycles, content \(content), profile in \(out)")
}
