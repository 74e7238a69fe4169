import DisplayModel
import DisplaySupport
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
    case .alreadyRunning(let path): return "another displayd already runs on this display (it holds \(path))"
    case .setup(let what): return "control socket: \(what)"
    }
  }
}

/// The daemon's control socket: JSON lines over a Unix socket that only the daemon's own
/// user may use. Requests: `{"request": "status" | "reload" | "subscribe" | "identify" |
/// "profile-list" | "profile-switch" | "profile-cycle" | "config-path"}` (identify with
/// `"seconds"`, profile-switch with `"name"`, `"layout"` or `"auto": true`). Clients are non-blocking; a silent one costs nothing, a
/// garbage line gets an error, a line over 64 KiB or a subscriber that stops reading is
/// dropped, so no client can block the daemon.
public final class ControlServer {
  public let path: String
  private let listener: FileDescriptor
  private var clients: [FileDescriptor: Client] = [:]
  /// A spare descriptor, given up to accept-and-close a client when the table is full.
  private var reserve: FileDescriptor?
  /// Set when a full descriptor table leaves no way to take a pending client off the
  /// listener: it is not polled until a client goes.
  private var listenerPaused = false
  /// Kept until the socket is removed, so a successor cannot lose its socket to our deinit.
  private let lock: InstanceLock?
  /// Answers a request name with the response object.
  public var handler: (String) -> JSON = { _ in .object([("ok", .bool(false)), ("error", .string("starting"))]) }
  /// Answers `identify` with the seconds asked for.
  public var onIdentify: (Int) -> JSON = { _ in ControlProtocol.error("starting") }
  /// Answers `profile-switch` and `profile-cycle` with what they ask for.
  public var onProfileSwitch: (ControlProtocol.SwitchRequest) -> JSON = { _ in ControlProtocol.error("starting") }
  /// Answers `apply`.
  public var onApply: (String?) -> JSON = { _ in ControlProtocol.error("starting") }
  static let maxPending = 1 << 20
  static let maxClients = 64

  private struct Client {
    var input: [UInt8] = []
    var output: [UInt8] = []
    var subscribed = false
    var closing = false
  }

  /// Listens at `path` (socket 0600). Its folder is made 0700 and checked (a directory of
  /// ours, not a symbolic link, mode 0700); a stale socket there is replaced, anything else
  /// at the path is left alone and refused. Call with the display's `InstanceLock` held:
  /// the lock, not this, decides that one daemon runs.
  public init(path: String, lock: InstanceLock? = nil) throws(ControlError) {
    self.path = path
    self.lock = lock
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    try RuntimeFolder.prepare(folder)
    var info = stat()
    if lstat(path, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFSOCK else {
        throw .setup("\(path) exists and is not a socket; not removing it")
      }
      unlink(path)
    }
    do { listener = try UnixSocket.listen(path) } catch { throw .setup(error.description) }
    reserve = Self.openSpare()
  }

  deinit {
    for fd in clients.keys { fd.close() }
    listener.close()
    reserve?.close()
    unlink(path)
  }

  /// Descriptors to poll, with the events wanted.
  public var descriptors: [(fd: FileDescriptor, events: Int16)] {
    // A client being dropped is only flushed: nothing more it sends is read or answered.
    (listenerPaused ? [] : [(listener, pollIn)])
      + clients.map { ($0.key, $0.value.closing ? pollOut : $0.value.output.isEmpty ? pollIn : pollIn | pollOut) }
  }

  /// Whether `fd` is the listener or one of the clients.
  public func owns(_ fd: FileDescriptor) -> Bool { fd == listener || clients[fd] != nil }

  /// Handles readiness of `fd` if it is one of ours; returns whether it was.
  @discardableResult
  public func handle(fd: FileDescriptor, events: Int16) -> Bool {
    if fd == listener {
      accept()
      return true
    }
    guard clients[fd] != nil else { return false }
    if events & pollOut != 0 { flush(fd) }
    // flush may have dropped the client, and its number may already be someone else's.
    if events & ~pollOut != 0, clients[fd] != nil { read(fd) }
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
      let fd: FileDescriptor
      do throws(SystemError) {
        fd = FileDescriptor(rawValue: try systemCall("accept") { Glibc.accept(listener.rawValue, nil, nil) })
      } catch {
        switch error.code {
        case ECONNABORTED: continue
        case EMFILE, ENFILE: return shed()
        default: return
        }
      }
      UnixSocket.setCloseOnExec(fd)
      UnixSocket.setNonBlocking(fd)
      guard let uid = UnixSocket.peerUID(fd), uid == geteuid() else {
        let who = UnixSocket.peerUID(fd).map { "uid \($0)" } ?? "unknown peer"
        let refusal = ControlProtocol.error("refused: \(who) is not the daemon's user")
        // The peer may be gone already: MSG_NOSIGNAL, or its hang-up would kill the daemon.
        _ = Self.send(fd, Array((refusal.serialized() + "\n").utf8))
        fd.close()
        continue
      }
      guard clients.count < Self.maxClients else {
        fd.close()
        continue
      }
      clients[fd] = Client()
    }
  }

  /// Out of descriptors: a pending client would keep the listener readable and `poll`
  /// spinning. Give up the spare descriptor to accept it and close it at once; without a
  /// spare, stop polling the listener until a client goes.
  private func shed() {
    if reserve == nil { reserve = Self.openSpare() }
    guard let spare = reserve else {
      listenerPaused = true
      return
    }
    spare.close()
    let accepted = Result { () throws(SystemError) in
      try systemCall("accept") { Glibc.accept(listener.rawValue, nil, nil) }
    }
    if case .success(let fd) = accepted { FileDescriptor(rawValue: fd).close() }
    reserve = Self.openSpare()
    // Paused only when the table is truly full; nothing pending (EAGAIN) is no reason.
    if case .failure(let error) = accepted, error.code == EMFILE || error.code == ENFILE { listenerPaused = true }
  }

  private static func openSpare() -> FileDescriptor? {
    (try? systemCall("open /dev/null") { open("/dev/null", O_RDONLY | O_CLOEXEC) }).map(FileDescriptor.init)
  }

  /// Sends what it can without blocking or SIGPIPE; the count sent, or the error.
  private static func send(_ fd: FileDescriptor, _ bytes: [UInt8]) -> Result<Int, SystemError> {
    bytes.withUnsafeBytes { b in
      Result { () throws(SystemError) in
        try systemCall("send") { Glibc.send(fd.rawValue, b.baseAddress, b.count, Int32(MSG_NOSIGNAL)) }
      }
    }
  }

  private func read(_ fd: FileDescriptor) {
    // Polled for output only: input readiness here is a hang-up or an error.
    guard clients[fd]?.closing == false else { return drop(fd) }
    var chunk = [UInt8](repeating: 0, count: 65536)
    let result = chunk.withUnsafeMutableBytes { buffer in Result { () throws(SystemError) in try fd.read(into: buffer) }
    }
    if case .failure(let error) = result, error.code == EAGAIN { return }
    guard case .success(let n) = result, n > 0 else { return drop(fd) }
    clients[fd]?.input += chunk[0..<n]
    guard let input = clients[fd]?.input else { return }
    let batch = ControlProtocol.requests(in: input)
    clients[fd]?.input.removeFirst(batch.consumed)
    // Repeated reloads in one read are one reload; each still gets its answer.
    var reloaded: JSON?
    for item in batch.items {
      guard clients[fd] != nil else { return }
      switch item {
      case .malformed: reply(fd, ControlProtocol.malformedAnswer)
      case .request("reload"):
        let answer = reloaded ?? handler("reload")
        reloaded = answer
        reply(fd, answer)
      case .identify(let seconds): reply(fd, onIdentify(seconds))
      case .profileSwitch(let request): reply(fd, onProfileSwitch(request))
      case .apply(let profile): reply(fd, onApply(profile))
      case .request(let name):
        if name == "subscribe" { clients[fd]?.subscribed = true }
        reply(fd, handler(name))
      }
    }
    if let failure = batch.failure, clients[fd] != nil {
      clients[fd]?.input = []
      reply(fd, ControlProtocol.error(failure.message))
      clients[fd]?.closing = true
      flush(fd)
    }
  }

  private func reply(_ fd: FileDescriptor, _ value: JSON) { send(fd, Array((value.serialized() + "\n").utf8)) }

  private func send(_ fd: FileDescriptor, _ bytes: [UInt8]) {
    guard clients[fd] != nil else { return }
    clients[fd]?.output += bytes
    flush(fd)
    if let pending = clients[fd]?.output.count, pending > Self.maxPending { drop(fd) }
  }

  private func flush(_ fd: FileDescriptor) {
    guard let client = clients[fd] else { return }
    if !client.output.isEmpty {
      switch Self.send(fd, client.output) {
      case .success(let n): if n > 0 { clients[fd]?.output.removeFirst(n) }
      case .failure(let error): if error.code != EAGAIN { return drop(fd) }
      }
    }
    if let c = clients[fd], c.closing, c.output.isEmpty { drop(fd) }
  }

  /// Polls the listener again after it was paused for want of descriptors: called on any
  /// other event, when descriptors may have come free (a hook reaped, a timer gone), so the
  /// socket never stays deaf while the daemon holds no client whose leaving would wake it.
  public func resumeListening() {
    guard listenerPaused else { return }
    listenerPaused = false
    if reserve == nil { reserve = Self.openSpare() }
  }

  /// Forgets and closes a client; does nothing for one already dropped, so a descriptor
  /// number is never closed twice (it may by then belong to something else).
  private func drop(_ fd: FileDescriptor) {
    guard clients.removeValue(forKey: fd) != nil else { return }
    fd.close()
    listenerPaused = false
  }
}
