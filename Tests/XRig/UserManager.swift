import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A private `systemd --user` for a test: its own runtime, config and data folders, stopped
/// (with every unit it runs) on deinit.
public final class UserManager {
  public let root: String
  public let runtime: String
  public let config: String
  private let manager: GuardedProcess
  /// Whether this manager made `/run/systemd/system` (removed again on deinit).
  private let madeMarker: Bool

  /// nil when systemd cannot run here (not root, or no systemd binary).
  public static func start() throws -> UserManager? {
    guard FileManager.default.isExecutableFile(atPath: "/lib/systemd/systemd"), geteuid() == 0 else { return nil }
    // systemd --user refuses to run unless the machine looks booted with systemd.
    var made = false
    if !FileManager.default.fileExists(atPath: "/run/systemd/system") {
      try FileManager.default.createDirectory(atPath: "/run/systemd/system", withIntermediateDirectories: true)
      made = true
    }
    do {
      return try UserManager(madeMarker: made)
    } catch {
      if made { try? FileManager.default.removeItem(atPath: "/run/systemd/system") }
      throw error
    }
  }

  private init(madeMarker: Bool) throws {
    self.madeMarker = madeMarker
    root = try makeTempDirectory("displayd-systemd")
    runtime = root + "/run"
    config = root + "/config"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.createDirectory(atPath: config + "/systemd/user", withIntermediateDirectories: true)
    // Under a guard: if the test process dies, systemd --user (and every unit it runs) goes too.
    manager = try GuardedProcess(
      ["/lib/systemd/systemd", "--user"],
      environment: [
        "HOME": root, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": config,
        "XDG_DATA_HOME": root + "/data",
      ])
    guard eventually(within: 10, { (try? self.systemctl(["is-system-running"]))?.out.hasPrefix("running") == true })
    else {
      throw RigError("systemd --user did not come up")
    }
  }

  deinit {
    manager.stop()
    try? FileManager.default.removeItem(atPath: root)
    if madeMarker { try? FileManager.default.removeItem(atPath: "/run/systemd/system") }
  }

  /// `systemctl --user ARGS`.
  @discardableResult
  public func systemctl(_ args: [String]) throws -> (status: Int32, out: String, err: String) {
    try runCommand(["systemctl", "--user"] + args, environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
  }

  /// A property of a unit (`systemctl show -p`).
  public func property(_ unit: String, _ name: String) throws -> String {
    let out = try systemctl(["show", unit, "-p", name, "--value"]).out
    return out.trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
