import DisplayKit
import DisplayModel
import DisplayService
import DisplaySupport
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// A datagram socket standing in for systemd's notify socket, in the abstract namespace.
final class NotifyListener {
  let fd: Int32
  let name: String
  init() throws {
    name = "@displayd-test-\(getpid())-\(Int.random(in: 0..<1_000_000))"
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(name.utf8)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in bytes.enumerated() { raw[i] = b }
      raw[0] = 0
    }
    let len = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
    let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
    guard rc == 0 else { throw RigError("bind notify socket failed") }
  }
  deinit { close(fd) }

  /// The next datagram within `timeout` seconds.
  func next(timeout: Double = 1) -> String? {
    guard pollFDs([fd], timeoutMs: Int32(timeout * 1000)).contains(0) else { return nil }
    var buf = [UInt8](repeating: 0, count: 4096)
    let n = recv(fd, &buf, buf.count, 0)
    return n > 0 ? String(decoding: buf[0..<n], as: UTF8.self) : nil
  }

  /// Datagrams until one contains `text`; nil if none does within `timeout`.
  func until(_ text: String, timeout: Double = 1) -> String? {
    let deadline = Deadline(seconds: timeout)
    while !deadline.passed {
      guard let d = next(timeout: Double(deadline.remainingMs) / 1000) else { return nil }
      if d.contains(text) { return d }
    }
    return nil
  }
}

/// A private `$XDG_RUNTIME_DIR`.
func runtimeDirectory() throws -> String { try makeTempDirectory("displayd-run") }

/// A real EDID with its product name and serial string replaced (checksum fixed).
func hostileEDID(name: String, serial: String) throws -> [UInt8] {
  var blob = Array(try readFile(fixtureFolder + "/acer_acr001a_34cdf6327a45.bin").get())
  for (tag, text) in [(UInt8(0xFC), name), (UInt8(0xFF), serial)] {
    let start = try #require(stride(from: 54, to: 126, by: 18).first { blob[$0] == 0 && blob[$0 + 3] == tag })
    var data = Array(text.utf8) + [0x0A]
    data += [UInt8](repeating: 0x20, count: max(0, 13 - data.count))
    blob.replaceSubrange((start + 5)..<(start + 18), with: data.prefix(13))
  }
  blob[127] = 0
  blob[127] = UInt8((256 - Int(blob[0..<128].reduce(UInt8(0), &+))) % 256)
  return blob
}

func jsonString(_ s: String) -> String {
  String(decoding: try! JSONSerialization.data(withJSONObject: [s]), as: UTF8.self).dropFirst().dropLast().description
}

/// A raw client of a Unix stream socket.
final class UnixClient {
  let fd: Int32
  private var buffer: [UInt8] = []
  init(_ path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard rc == 0 else { throw RigError("connect \(path): \(String(cString: strerror(errno)))") }
  }
  deinit { close(fd) }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      if n < 0 {
        // The daemon drops a client whose line is too long: stop at a closed peer.
        guard errno == EAGAIN else { return }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&p, 1, 1000) > 0, p.revents == Int16(POLLOUT) else { return }
        continue
      }
      offset += n
    }
  }

  func line(timeout: Double = 1) -> String? {
    let deadline = Deadline(seconds: timeout)
    var chunk = [UInt8](repeating: 0, count: 65536)
    while !deadline.passed {
      if let nl = buffer.firstIndex(of: 0x0A) {
        defer { buffer.removeSubrange(...nl) }
        return String(decoding: buffer[..<nl], as: UTF8.self)
      }
      guard pollFDs([fd], timeoutMs: deadline.remainingMs).contains(0) else { return nil }
      let n = read(fd, &chunk, chunk.count)
      guard n > 0 else { return nil }
      buffer += chunk[0..<n]
    }
    return nil
  }
}

/// Starts `displayd run` without waiting for it (`prefix` runs before it, e.g. a shell that
/// lowers a limit).
func spawnDaemon(display: String, environment: [String: String], prefix: [String] = []) throws -> ChildProcess {
  var env = ["PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": "/nonexistent", "HOME": "/nonexistent"]
  for (k, v) in environment { env[k] = v }
  return try ChildProcess(
    prefix + [displaydPath, "run", "--display", display, "--log-level", "debug"], environment: env)
}

/// Reads a child's log until a line contains `text`; nil at the deadline or its end.
func waitForLine(_ child: ChildProcess, _ text: String, timeout: Double = 3) -> String? {
  let deadline = Deadline(seconds: timeout)
  while !deadline.passed {
    guard let line = child.readErrorLine(timeout: Double(deadline.remainingMs) / 1000) else { return nil }
    if line.contains(text) { return line }
  }
  return nil
}
