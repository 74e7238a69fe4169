import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A running `displayd run`, with its log read line by line.
public final class DaemonProcess {
  public let child: ChildProcess
  public private(set) var log: [String] = []
  public let configPath: String?

  /// Starts the daemon with `config` (JSON5 text) if given, and waits for its first reconcile.
  /// `disconnectGrace` goes into the config (one made for it when none is given) unless the
  /// config sets it or it is nil: 0 by default, so an unplug is handled at once, as the tests
  /// of what an unplug does expect; nil leaves the daemon's default grace. `binary` is the
  /// `displayd` to run (another build, for a benchmark comparing two).
  public init(
    display: String, config: String? = nil, extra: [String] = [], environment: [String: String] = [:],
    logLevel: String = "debug", disconnectGrace: Double? = 0, binary: String = displaydPath
  ) throws {
    var args = [binary, "run", "--display", display, "--log-level", logLevel]
    if let config = Self.withGrace(config, disconnectGrace) {
      let dir = try makeTempDirectory("displayd-config")
      let path = dir + "/config.json5"
      try config.write(toFile: path, atomically: true, encoding: .utf8)
      args += ["--config", path]
      configPath = path
    } else {
      configPath = nil
    }
    var env = ProcessInfo.processInfo.environment
    env["DISPLAY"] = nil
    env["XDG_CONFIG_HOME"] = "/nonexistent"
    env["XDG_RUNTIME_DIR"] = nil
    // Nor the runner's session bus: a test that wants one starts its own.
    env["DBUS_SESSION_BUS_ADDRESS"] = nil
    // The test runner's own journal and systemd sockets are not the daemon's to use.
    for name in ["JOURNAL_STREAM", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS"] { env[name] = nil }
    for (k, v) in environment { env[k] = v }
    child = try ChildProcess(args + extra, environment: env)
    guard waitFor("ready: ", timeout: 5) != nil else {
      throw RigError("daemon did not start: \(log.joined(separator: "\n")) \(child.drainOutput().err)")
    }
  }

  /// `config` with `disconnect_grace` added on its first line (so error lines stay as they are).
  static func withGrace(_ config: String?, _ grace: Double?) -> String? {
    guard let grace, config?.contains("disconnect_grace") != true else { return config }
    guard let config else { return "{ disconnect_grace: \(grace) }" }
    guard let brace = config.firstIndex(of: "{") else { return config }
    return String(config[...brace]) + " disconnect_grace: \(grace)," + String(config[config.index(after: brace)...])
  }

  /// The first log line from now on containing `text`, within `timeout` seconds.
  @discardableResult
  public func waitFor(_ text: String, timeout: Double = 1) -> String? {
    let deadline = Deadline(seconds: timeout)
    while !deadline.passed {
      guard let line = child.readErrorLine(timeout: Double(deadline.remainingMs) / 1000) else { return nil }
      log.append(line)
      if line.contains(text) { return line }
    }
    return nil
  }

  /// Reads whatever the log says until `quiet` seconds pass with nothing new.
  public func settle(quiet: Double = 0.3) {
    while let line = child.readErrorLine(timeout: quiet) { log.append(line) }
  }

  /// Reads the log lines already written, without waiting: keeps the pipe from filling up
  /// (which would block the daemon) during long runs.
  public func drain() {
    while let line = child.readErrorLine(timeout: 0) { log.append(line) }
  }

  /// Whether the process still runs.
  public var isRunning: Bool { child.wait(timeout: 0) == nil }

  /// Reconcile lines that changed the configuration (not "nothing to change").
  public var changingReconciles: [String] {
    log.filter { $0.contains("reconcile ") && !$0.contains("nothing to change") }
  }
}
