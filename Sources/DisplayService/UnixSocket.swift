import CLinux
import DisplayKit

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
  static func connect(_ path: String) -> Int32? {
    guard var (addr, len) = address(path) else { return nil }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, len) }
    }
    if rc != 0 {
      close(fd)
      return nil
    }
    return fd
  }

  /// A non-blocking listening socket at `path`, mode 0600.
  static func listen(_ path: String) throws(SystemError) -> Int32 {
    guard var (addr, len) = address(path) else { throw .call("socket path too long: \(path)", ENAMETOOLONG) }
    let fd = socket(
      AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { throw .call("socket", errno) }
    let old = umask(0o177)
    defer { umask(old) }
    let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    guard rc == 0, Glibc.listen(fd, 16) == 0 else {
      let e = errno
      close(fd)
      throw .call("bind \(path)", e)
    }
    return fd
  }

  /// The uid of the process at the other end.
  static func peerUID(_ fd: Int32) -> uid_t? {
    // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (glibc hides it without _GNU_SOURCE)
    var cred: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
    var len = socklen_t(MemoryLayout.size(ofValue: cred))
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 ? cred.uid : nil
  }

  static func setNonBlocking(_ fd: Int32) { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
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
