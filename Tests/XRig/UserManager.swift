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
  private let manager: ChildProcess

  /// nil when systemd cannot run here (not root, or no systemd binary).
  public static func start() throws -> UserManager? {
    guard FileManager.default.isExecutableFile(atPath: "/lib/systemd/systemd"), geteuid() == 0 else { return nil }
    // systemd --user refuses to run unless the machine looks booted with systemd.
    if !FileManager.default.fileExists(atPath: "/run/systemd/system") {
      try FileManager.default.createDirectory(atPath: "/run/systemd/system", withIntermediateDirectories: true)
    }
    return try UserManager()
  }

  private init() throws {
    root = try makeTempDirectory("displayd-systemd")
    runtime = root + "/run"
    config = root + "/config"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.createDirectory(atPath: config + "/systemd/user", withIntermediateDirectories: true)
    manager = try ChildProcess(
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
    manager.signal(SIGTERM)
    manager.wait(timeout: 10)
    try? FileManager.default.removeItem(atPath: root)
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
