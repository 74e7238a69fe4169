import CLinux
import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// Small wrappers over Unix stream sockets for the control socket and its clients.
enum UnixSocket {
  static func address(_ path: String) -> (sockaddr_un, socklen_t)? {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return nil }
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
    return (addr, socklen_t(MemoryLayout<sockaddr_un>.size))
  }

  /// A connected, blocking client socket, or nil when nothing listens at `path`.
  static func connect(_ path: String) -> FileDescriptor? {
    guard var (addr, len) = address(path),
      let fd = try? FileDescriptor(rawValue: systemCall("socket") { socket(AF_UNIX, streamFlags, 0) })
    else { return nil }
    let connected = try? withUnsafePointer(to: &addr) { p throws(SystemError) in
      try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa throws(SystemError) in
        try systemCall("connect") { Glibc.connect(fd.rawValue, sa, len) }
      }
    }
    guard connected != nil else {
      fd.close()
      return nil
    }
    return fd
  }

  private static let streamFlags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)

  /// A non-blocking listening socket at `path`, mode 0600.
  static func listen(_ path: String) throws(SystemError) -> FileDescriptor {
    guard var (addr, len) = address(path) else { throw .call("socket path too long: \(path)", ENAMETOOLONG) }
    let fd = FileDescriptor(
      rawValue: try systemCall("socket") { socket(AF_UNIX, streamFlags | Int32(SOCK_NONBLOCK.rawValue), 0) })
    let old = umask(0o177)
    defer { umask(old) }
    do throws(SystemError) {
      try withUnsafePointer(to: &addr) { p throws(SystemError) in
        try p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa throws(SystemError) in
          try systemCall("bind \(path)") { bind(fd.rawValue, sa, len) }
        }
      }
      try systemCall("bind \(path)") { Glibc.listen(fd.rawValue, 16) }
    } catch {
      fd.close()
      throw error
    }
    return fd
  }

  /// The uid of the process at the other end.
  static func peerUID(_ fd: FileDescriptor) -> uid_t? {
    // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (glibc hides it without _GNU_SOURCE)
    var cred: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
    var len = socklen_t(MemoryLayout.size(ofValue: cred))
    let got = try? systemCall("getsockopt") { getsockopt(fd.rawValue, SOL_SOCKET, SO_PEERCRED, &cred, &len) }
    return got == nil ? nil : cred.uid
  }

  static func setNonBlocking(_ fd: FileDescriptor) {
    guard let flags = try? systemCall("fcntl", { fcntl(fd.rawValue, F_GETFL) }) else { return }
    _ = try? systemCall("fcntl") { fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK) }
  }

  static func setCloseOnExec(_ fd: FileDescriptor) {
    _ = try? systemCall("fcntl") { fcntl(fd.rawValue, F_SETFD, FD_CLOEXEC) }
  }
}

/// Where the control socket of the daemon on `display` lives:
/// `$XDG_RUNTIME_DIR/displayd/<display>.sock`, the display named canonically
/// (`canonicalDisplayName`); nil without `$XDG_RUNTIME_DIR`.
public func controlSocketPath(display: String, runtimeDir: String?) -> String? {
  ControlLocation(display: display, runtimeDir: runtimeDir).socket
}

extension String {
  func replacingSlashes() -> String { String(map { $0 == "/" ? "_" : $0 }) }
}
