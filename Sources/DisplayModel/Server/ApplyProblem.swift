// This folder holds the values the daemon and a display server exchange (the `OutputManager`
// port) that carry no server's handles: what a snapshot reads, what kept an apply
// from its plan, the resource database's text. The X backend's ids and the values over them
// (windows, pixmaps, pictures, damage, the cursor, the X backend's topology and plans) live in
// DisplayX11 behind the ports.

/// One thing that kept an apply from putting its plan in force; `description` is the log's line.
public enum ApplyProblem: Equatable, Sendable, CustomStringConvertible {
  /// A change failed with every candidate mode.
  case couldNotConfigure(output: String, reason: String)
  /// A failure that is no single change's: the screen size, the primary, a read-back that
  /// differs from the plan.
  case failure(String)
  /// Nothing was sent: the backend refused the plan before asking the server.
  case planRefused(String)
  /// What the rollback did not restore.
  case notRestored(String)

  public var description: String {
    switch self {
    case .couldNotConfigure(let output, let reason): return "could not configure \(output): \(reason)"
    case .failure(let text): return text
    case .planRefused(let reason): return "plan refused: " + reason
    case .notRestored(let what): return "not restored: " + what
    }
  }
}
