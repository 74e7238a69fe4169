import DisplayModel
import DisplaySupport
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A client of the daemon's control socket, for `status`, `reload`, `watch`, `identify` and
/// `profile`.
public final class DaemonClient {
  /// The daemon could not be reached or answered oddly; the message says which.
  public struct Failure: Error, CustomStringConvertible {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
  }

  let fd: FileDescriptor
  private var buffer: [UInt8] = []

  /// Connects to the daemon of `display` (nil: `$DISPLAY`).
  public static func connect(display: String?) throws(Failure) -> DaemonClient {
    guard let client = try open(display: display) else {
      let shown = display ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
      throw Failure(
        message: "no displayd runs on display '\(shown)' (no control socket under $XDG_RUNTIME_DIR/displayd)")
    }
    return client
  }

  /// Connects, or returns nil when no daemon listens. Refuses a socket served by another
  /// user (SO_PEERCRED), so a planted socket cannot answer for the daemon.
  /// Without `display`, the daemon of `$DISPLAY`, else that of `$WAYLAND_DISPLAY` (under
  /// Xwayland both are set and the daemon runs on either).
  public static func open(display: String?) throws(Failure) -> DaemonClient? {
    let names =
      display.map { [$0] }
      ?? ["DISPLAY", "WAYLAND_DISPLAY"].compactMap { (variable: String) -> String? in
        getenv(variable).map { String(cString: $0) }
      }
    let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
    let found = (names.isEmpty ? [""] : names).lazy.compactMap { name -> (String, FileDescriptor)? in
      guard let path = controlSocketPath(display: name, runtimeDir: runtime), let fd = UnixSocket.connect(path) else {
        return nil
      }
      return (path, fd)
    }.first
    guard let (path, fd) = found else { return nil }
    guard let uid = UnixSocket.peerUID(fd), uid == geteuid() else {
      let who = UnixSocket.peerUID(fd).map { "uid \($0)" } ?? "an unknown peer"
      fd.close()
      throw Failure(message: "refused: uid \(geteuid()) does not own the daemon at \(path) (it is served by \(who))")
    }
    return DaemonClient(fd: fd)
  }

  init(fd: FileDescriptor) { self.fd = fd }
  deinit { fd.close() }

  public var fileDescriptor: FileDescriptor { fd }

  /// Requests whose `"ok": false` answer is returned rather than thrown.
  static let answersRefusals: Set<String> = ["reload", "profile-switch", "profile-cycle", "apply"]

  /// Sends a request and returns the answer's members.
  public func request(_ name: String) throws(Failure) -> [String: JSON] {
    try request(name).members
  }

  /// Sends a request (with `arguments` beside its name) and returns the answer as received
  /// and its members.
  public func request(_ name: String, arguments: [(String, JSON)] = []) throws(Failure) -> (
    line: String, members: [String: JSON]
  ) {
    let line = Array((JSON.object([("request", .string(name))] + arguments).serialized() + "\n").utf8)
    let sent = try? line.withUnsafeBytes { bytes throws(SystemError) in
      try systemCall("send") { send(fd.rawValue, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }
    guard sent == line.count else {
      throw Failure(message: "could not send to the daemon")
    }
    guard let raw = nextRawLine() else { throw Failure(message: "the daemon closed the connection") }
    guard case .object(let members)? = try? JSON.parse(raw) else {
      throw Failure(message: "the daemon's answer is not a JSON object")
    }
    let dict = Dictionary(members, uniquingKeysWith: { a, _ in a })
    // A failed reload or a refused switch is an answer for the command to report.
    if case .bool(false)? = dict["ok"], case .string(let error)? = dict["error"], !Self.answersRefusals.contains(name) {
      throw Failure(message: "the daemon refused: \(error)")
    }
    return (String(decoding: raw, as: UTF8.self), dict)
  }

  /// Asks for the daemon's status: the answer as received, and read.
  public func status() throws(Failure) -> (line: String, answer: StatusAnswer) {
    let (line, _) = try request("status") as (String, [String: JSON])
    guard let answer = try? StatusAnswer.decode(Array(line.utf8)) else {
      throw Failure(message: "the daemon's answer is not a status")
    }
    return (line, answer)
  }

  /// The next line from the daemon, as text.
  public func nextRawLine() -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      if let nl = buffer.firstIndex(of: 0x0A) {
        defer { buffer.removeSubrange(...nl) }
        return Array(buffer[..<nl])
      }
      let n = (try? chunk.withUnsafeMutableBytes { buffer throws(SystemError) in try fd.read(into: buffer) }) ?? -1
      guard n > 0 else { return nil }
      buffer += chunk[0..<n]
    }
  }
}
