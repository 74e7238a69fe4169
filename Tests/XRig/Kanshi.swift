import Foundation

/// kanshi as an oracle for kanshi config files: it parses the whole file before it connects,
/// so with no compositor a valid file ends with "failed to connect to display" and a bad one
/// with "failed to parse config file: error on line N, column M" (both exit 1).
public enum Kanshi {
  /// Which kanshi: the rig's Debian 13 kanshi 1.5.1, or Debian 12's (`/usr/bin/kanshi`, 1.3.1).
  public enum Build: String, Sendable, CaseIterable {
    case rig = "kanshi 1.5.1 (Debian 13)"
    case debian12 = "kanshi 1.3.1 (Debian 12)"
  }

  /// What a kanshi said about a file.
  public enum Verdict: Equatable, Sendable {
    case valid
    /// The line it names (nil if it named none) and everything it said.
    case invalid(line: Int?, message: String)
    /// Neither answer (a missing file, a crash): what it said and its exit status.
    case unclear(status: Int32, message: String)
  }

  /// Checks `configFile` with one kanshi (no compositor: an empty runtime folder, no
  /// `WAYLAND_DISPLAY`). Throws when that kanshi is not there (the rig not made).
  public static func check(_ configFile: String, with build: Build = .rig) throws -> Verdict {
    let runtime = try makeTempDirectory("displayd-kanshi")
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let argv =
      build == .rig ? try WaylandRig.command(["kanshi", "-c", configFile]) : ["/usr/bin/kanshi", "-c", configFile]
    let r = try runCommand(argv, environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime], timeout: 10)
    return verdict(status: r.status, output: r.out + r.err)
  }

  /// Checks `configFile` with both kanshis; the rig's is nil where the rig is unavailable.
  public static func checkBoth(_ configFile: String) throws -> (rig: Verdict?, debian12: Verdict) {
    let rig = WaylandRig.isAvailable ? try check(configFile, with: .rig) : nil
    return (rig, try check(configFile, with: .debian12))
  }

  /// Reads kanshi's answer.
  public static func verdict(status: Int32, output: String) -> Verdict {
    let message = output.trimmingCharacters(in: .whitespacesAndNewlines)
    if message.hasSuffix("failed to connect to display") { return .valid }
    if let range = message.range(of: "failed to parse config file: error on line ") {
      let digits = message[range.upperBound...].prefix { $0.isNumber }
      return .invalid(line: Int(digits), message: message)
    }
    if message.contains("failed to parse config file") { return .invalid(line: nil, message: message) }
    return .unclear(status: status, message: message)
  }
}
