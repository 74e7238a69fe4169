import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The Debian 13 folder of the real-compositor rig (sway 1.10, labwc, kanshi, wl-mirror,
/// wlr-randr, grim and their libraries) that `scripts/wayland-rig` makes once, and how to run
/// its programs: through the folder's own loader, beside Debian 12's libraries.
public enum WaylandRig {
  /// What `scripts/wayland-rig` gave: the folder, or why there is none.
  public enum Availability: Sendable {
    case ready(root: String)
    case missing(reason: String)
  }

  /// The unprivileged user the compositor and its clients run as (sway refuses root).
  public static let user = ProcessInfo.processInfo.environment["WAYLAND_RIG_USER"] ?? "displayd-rig"

  /// Asked once per test process, when a Wayland test first asks; quick when the folder
  /// exists. Where it cannot be made, the reason is printed once (to stderr).
  public static let availability: Availability = {
    let found = locate()
    if case .missing(let reason) = found { FileHandle.standardError.write(Data((reason + "\n").utf8)) }
    return found
  }()

  /// Whether the rig can run here (root, and the folder made or downloadable).
  public static var isAvailable: Bool {
    if case .ready = availability { return true }
    return false
  }

  /// Why the Wayland tests skip.
  public static var skipReason: String {
    if case .missing(let reason) = availability { return reason }
    return ""
  }

  /// The folder; throws with the reason when the rig is unavailable.
  public static func root() throws -> String {
    switch availability {
    case .ready(let root): return root
    case .missing(let reason): throw RigError(reason)
    }
  }

  /// `argv` run through the folder's loader: a bare name is one of the folder's programs
  /// (`sway`, `wlr-randr`, ...), an absolute path is used as it is.
  public static func command(_ argv: [String]) throws -> [String] {
    let root = try root()
    guard let program = argv.first else { return [] }
    let path = program.hasPrefix("/") ? program : root + "/usr/bin/" + program
    let libraries = [root + "/usr/lib/x86_64-linux-gnu", root + "/lib/x86_64-linux-gnu"].joined(separator: ":")
    return [root + "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "--library-path", libraries, path]
      + argv.dropFirst()
  }

  /// The rig user's uid and gid, for the folders it must own.
  public static func userIDs() throws -> (uid: uid_t, gid: gid_t) {
    guard let entry = getpwnam(user) else { throw RigError("no user \(user): run scripts/wayland-rig") }
    return (entry.pointee.pw_uid, entry.pointee.pw_gid)
  }

  /// A folder owned by the rig user with `mode`.
  public static func makeUserDirectory(_ path: String, mode: Int = 0o700) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let ids = try userIDs()
    guard chown(path, ids.uid, ids.gid) == 0, chmod(path, mode_t(mode)) == 0 else {
      throw RigError("cannot give \(path) to \(user): \(String(cString: strerror(errno)))")
    }
  }

  private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../scripts/wayland-rig").standardized.path

  private static func locate() -> Availability {
    guard geteuid() == 0 else { return .missing(reason: "the Wayland rig needs root (apt, useradd, runuser)") }
    do {
      let r = try runCommand([script], timeout: 600)
      let root = r.out.trimmingCharacters(in: .whitespacesAndNewlines)
      guard r.status == 0, !root.isEmpty else {
        let said = r.err.split(separator: "\n").filter { $0.hasPrefix("wayland-rig: ") && !$0.contains(": resolving ") }
        let why = said.isEmpty ? "exit \(r.status)" : said.joined(separator: "; ")
        return .missing(reason: "Wayland tests skipped: scripts/wayland-rig failed: \(why)")
      }
      return .ready(root: root)
    } catch {
      return .missing(reason: "Wayland tests skipped: scripts/wayland-rig: \(error)")
    }
  }
}
