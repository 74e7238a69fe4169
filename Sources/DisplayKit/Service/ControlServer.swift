import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Why the control socket could not be set up.
public enum ControlError: Error, Equatable, CustomStringConvertible {
  case alreadyRunning(path: String)
  case setup(String)
  public var description: String {
    switch self {
    case .alreadyRunning(let path): return "another displayd already runs on this display (control socket \(path))"
    case .setup(let what): return "control socket: \(what)"
    }
  }
}

/// The daemon's control socket: JSON lines over a Unix socket that only the daemon's own
/// user may use. Requests: `{"request": "status" | "reload" | "subscribe"}`. Clients are
/// non-blocking; a silent one costs nothing, a garbage line gets an error, a line over 64 KiB
/// or a subscriber that stops reading is dropped, so no client can block the daemon.
public final class ControlServer {
  public let path: String
  private let listener: Int32
  private var clients: [Int32: Client] = [:]
  /// Answers a request name with the response object.
  public var handler: (String) -> JSON = { _ in .object([("ok", .bool(false)), ("error", .string("starting"))]) }
  static let maxLine = 64 * 1024
  static let maxPending = 1 << 20
  static let maxClients = 64

  private struct Client {
    var input: [UInt8] = []
    var output: [UInt8] = []
    var subscribed = false
    var closing = false
  }

  /// Creates `path` (its folder 0700, the socket 0600). Refuses when a daemon answers there;
  /// replaces a stale socket.
  public init(path: String) throws(ControlError) {
    self.path = path
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    if mkdir(folder, 0o700) != 0 && errno != EEXIST {
      throw .setup("cannot create \(folder): \(String(cString: strerror(errno)))")
    }
    chmod(folder, 0o700)
    if let fd = UnixSocket.connect(path) {
      close(fd)
      throw .alreadyRunning(path: path)
    }
    unlink(path)
    do { listener = try UnixSocket.listen(path) } catch { throw .setup(error.description) }
  }

  deinit {
    for fd in clients.keys { close(fd) }
    close(listener)
    unlink(path)
  }

  /// Descriptors to poll, with the events wanted.
  public var descriptors: [(fd: Int32, events: Int16)] {
    [(listener, pollIn)] + clients.map { ($0.key, $0.value.output.isEmpty ? pollIn : pollIn | pollOut) }
  }

  /// Handles readiness of `fd` if it is one of ours; returns whether it was.
  @discardableResult
  public func handle(fd: Int32, events: Int16) -> Bool {
    if fd == listener {
      accept()
      return true
    }
    guard clients[fd] != nil else { return false }
    if events & pollOut != 0 { flush(fd) }
    if events & ~pollOut != 0 { read(fd) }
    return true
  }

  /// Sends one line to every subscriber.
  public func broadcast(_ value: JSON) {
    let line = Array((value.serialized() + "\n").utf8)
    for (fd, client) in clients where client.subscribed { send(fd, line) }
  }

  public var subscriberCount: Int { clients.values.filter(\.subscribed).count }

  private func accept() {
    while true {
      let fd = Glibc.accept(listener, nil, nil)
      guard fd >= 0 else { return }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      UnixSocket.setNonBlocking(fd)
      guard let uid = UnixSocket.peerUID(fd), uid == geteuid() else {
        let who = UnixSocket.peerUID(fd).map { "uid \($0)" } ?? "unknown peer"
        let refusal = JSON.object([
          ("ok", .bool(false)), ("error", .string("refused: \(who) is not the daemon's user")),
        ])
        _ = Array((refusal.serialized() + "\n").utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        continue
      }
      guard clients.count < Self.maxClients else {
        close(fd)
        continue
      }
      clients[fd] = Client()
    }
  }

  private func read(_ fd: Int32) {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = Glibc.read(fd, &chunk, chunk.count)
    if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
    guard n > 0 else { return drop(fd) }
    clients[fd]?.input += chunk[0..<n]
    while let client = clients[fd], let nl = client.input.firstIndex(of: 0x0A) {
      let line = Array(client.input[..<nl])
      clients[fd]?.input.removeSubrange(...nl)
      respond(fd, to: line)
    }
    if let client = clients[fd], client.input.count > Self.maxLine {
      clients[fd]?.input = []
      reply(fd, .object([("ok", .bool(false)), ("error", .string("request line longer than \(Self.maxLine) bytes"))]))
      clients[fd]?.closing = true
      flush(fd)
    }
  }

  private struct RequestLine: Decodable { var request: String }

  private func respond(_ fd: Int32, to line: [UInt8]) {
    guard let request = try? JSONDecoder().decode(RequestLine.self, from: Data(line)) else {
      return reply(
        fd,
        .object([("ok", .bool(false)), ("error", .string("expected a JSON object like {\"request\": \"status\"}"))]))
    }
    if request.request == "subscribe" { clients[fd]?.subscribed = true }
    reply(fd, handler(request.request))
  }

  private func reply(_ fd: Int32, _ value: JSON) { send(fd, Array((value.serialized() + "\n").utf8)) }

  private func send(_ fd: Int32, _ bytes: [UInt8]) {
    guard clients[fd] != nil else { return }
    clients[fd]?.output += bytes
    flush(fd)
    if let pending = clients[fd]?.output.count, pending > Self.maxPending { drop(fd) }
  }

  private func flush(_ fd: Int32) {
    guard let client = clients[fd] else { return }
    if !client.output.isEmpty {
      let n = client.output.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno != EAGAIN && errno != EINTR { return drop(fd) }
      if n > 0 { clients[fd]?.output.removeFirst(n) }
    }
    if let c = clients[fd], c.closing, c.output.isEmpty { drop(fd) }
  }

  private func drop(_ fd: Int32) {
    clients[fd] = nil
    close(fd)
  }
}
