/// What can go wrong talking to an X server; each case says what failed.
public enum DisplayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `XOpenDisplay` failed: no server, no permission, or a bad name.
  case cannotOpen(display: String)
  /// The server lacks an extension the backend needs, or has it older than needed:
  /// `lacking` names the extension and the least version (the X backend's resize-and-rotate extension, 1.2).
  case extensionMissing(display: String, lacking: String)
  /// The connection broke while the program ran (the server died or was killed).
  case connectionLost(display: String)
  /// A request failed: the server refused it.
  case request(RequestFailure)
  /// An output name that the server does not have.
  case unknownOutput(name: String, available: [String])
  /// A Wayland compositor could not be reached, lacks a protocol, or broke the connection.
  case compositor(display: String, problem: String)
  /// No display server could be used: each one found, and why it was not used
  /// (`WAYLAND_DISPLAY=wayland-0: the compositor offers no zwlr_output_manager_v1`,
  /// `DISPLAY is not set`).
  case noDisplayServer(tried: [String])

  public var description: String {
    switch self {
    case .cannotOpen(let d): return "cannot open X display '\(d)'"
    case .extensionMissing(let d, let lacking): return "X display '\(d)' lacks \(lacking) or later"
    case .connectionLost(let d): return "lost the connection to X display '\(d)'"
    case .request(let e): return "X request failed: \(e)"
    case .unknownOutput(let name, let available):
      let list = available.isEmpty ? "none" : available.joined(separator: ", ")
      return "no output named '\(name)' (outputs: \(list))"
    case .compositor(let d, let problem): return "Wayland compositor '\(d)': \(problem)"
    case .noDisplayServer(let tried): return tried.joined(separator: "; ")
    }
  }
}

/// A request the display server refused, in the words of its backend (the X backend names the
/// X error, its request codes and the resource): the daemon logs it and never reads it.
public struct RequestFailure: Hashable, Sendable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) { self.description = description }
}
