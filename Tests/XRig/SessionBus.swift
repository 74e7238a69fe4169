import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private session bus (`dbus-daemon --session`, Debian's session config, so D-Bus
/// activation works: xfconfd starts on the first xfconf call) with a private HOME, config,
/// cache and runtime folder, for desktop programs run inside a test's X server. Programs
/// started here write their output to a file (a chatty one cannot fill a pipe and stall), and
/// are stopped, with the bus, when this goes.
public final class SessionBus {
  public let address: String
  public let home: String
  /// The X display its programs use; nil for a Wayland compositor's bus.
  public let display: String?
  private let bus: ChildProcess
  private var programs: [ChildProcess] = []

  /// The environment for a process on this bus and display.
  public var environment: [String: String] {
    var env = [
      "DBUS_SESSION_BUS_ADDRESS": address, "HOME": home, "XDG_CONFIG_HOME": home + "/config",
      "XDG_CACHE_HOME": home + "/cache", "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run",
      "PATH": "/usr/bin:/bin:/usr/sbin:/sbin",
      // No accessibility bus: GTK programs would start at-spi on this bus for nothing.
      "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
    ]
    env["DISPLAY"] = display
    return env
  }

  public init(display: String?) throws {
    self.display = display
    home = try makeTempDirectory("displayd-home")
    for folder in ["config", "cache", "data", "run"] {
      guard mkdir(home + "/" + folder, 0o700) == 0 else { throw RigError("mkdir \(folder): \(errno)") }
    }
    var env = ["HOME": home, "PATH": "/usr/bin:/bin", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none"]
    env["DISPLAY"] = display
    env["XDG_RUNTIME_DIR"] = home + "/run"
    env["XDG_CONFIG_HOME"] = home + "/config"
    bus = try ChildProcess(["dbus-daemon", "--session", "--nofork", "--print-address=1"], environment: env)
    guard let line = bus.readLine(timeout: 5), line.hasPrefix("unix:") else {
      throw RigError("dbus-daemon --session printed no address: \(bus.drainOutput().err)")
    }
    address = line
  }

  deinit {
    for program in programs.reversed() { stop(program) }
    stopBus()
  }

  /// Starts `argv` on this bus and display, its output appended to `log` (a path).
  @discardableResult
  public func start(_ argv: [String], log: String, environment extra: [String: String] = [:]) throws -> ChildProcess {
    let env = environment.merging(extra) { _, b in b }
    let child = try ChildProcess(["/bin/sh", "-c", "exec \"$@\" >>\"$0\" 2>&1", log] + argv, environment: env)
    programs.append(child)
    return child
  }

  /// Ends the bus daemon itself, as when the session's bus goes away under its clients.
  public func stopBus() {
    // A process already waited for may have given its pid to another.
    guard bus.exitStatus == nil else { return }
    bus.signal(SIGTERM)
    _ = bus.wait(timeout: 5)
  }

  /// Stops a program started here: SIGTERM, then SIGKILL when it is still there after 5 s.
  public func stop(_ program: ChildProcess) {
    guard program.exitStatus == nil else { return }
    program.signal(SIGTERM)
    if program.wait(timeout: 5) == nil {
      program.signal(SIGKILL)
      _ = program.wait(timeout: 5)
    }
  }

  /// Whether `name` has an owner on the bus now.
  public func hasOwner(_ name: String) throws -> Bool {
    let r = try runCommand(
      [
        "busctl", "--address=" + address, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus", "NameHasOwner", "s", name,
      ], environment: ["PATH": "/usr/bin:/bin"], timeout: 5)
    guard r.status == 0 else { throw RigError("NameHasOwner \(name): \(r.err)") }
    return r.out.contains("true")
  }

  /// Whether `name`'s owner is `present` within `seconds`.
  public func waitFor(_ name: String, present: Bool = true, within seconds: Double = 10) -> Bool {
    eventually(within: seconds) { (try? hasOwner(name)) == present }
  }

  /// Runs `xfconf-query` with `args` on this bus; throws with its error when it fails.
  public func xfconf(_ args: [String]) throws {
    let r = try runCommand(["xfconf-query"] + args, environment: environment, timeout: 10)
    guard r.status == 0 else { throw RigError("xfconf-query \(args): \(r.err)") }
  }
}

/// The lines of a text file (a program's log); none when it cannot be read.
public func fileLines(_ path: String) -> [String] {
  guard let data = FileManager.default.contents(atPath: path) else { return [] }
  return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
}
