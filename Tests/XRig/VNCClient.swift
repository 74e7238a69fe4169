import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal RFB client over Xvnc's Unix socket that plugs and unplugs virtual monitors with
/// SetDesktopSize (RFC 6143 plus the ExtendedDesktopSize extension).
public final class VNCClient {
  /// One screen of a layout; Xvnc keeps an output per id (`id` 1 is `VNC-1`, ...).
  public struct Screen: Equatable {
    public var id: UInt32
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    public init(id: UInt32, x: Int, y: Int, width: Int, height: Int) {
      self.id = id
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }
  }

  private let fd: Int32
  private var bytesPerPixel = 4
  /// The layout the server last told us about.
  public private(set) var screens: [Screen] = []

  public init(socketPath: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw RigError("socket failed") }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
    }
    let rc = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard rc == 0 else {
      close(fd)
      throw RigError("cannot connect to \(socketPath): \(String(cString: strerror(errno)))")
    }
    try handshake()
  }

  deinit { close(fd) }

  private func handshake() throws {
    _ = try read(12)
    try send(Array("RFB 003.008\n".utf8))
    let count = Int(try read(1)[0])
    guard count > 0 else { throw RigError("server refused the connection") }
    let types = try read(count)
    guard types.contains(1) else { throw RigError("server lacks security type None") }
    try send([1])
    guard try u32(read(4), 0) == 0 else { throw RigError("security handshake failed") }
    try send([1])  // ClientInit: shared
    let initMsg = try read(24)
    bytesPerPixel = max(1, Int(initMsg[4]) / 8)
    _ = try read(Int(u32(initMsg, 20)))
    // SetEncodings: Raw, ExtendedDesktopSize (-308), DesktopSize (-223).
    try send([2, 0] + be16(3) + be32s(0) + be32s(-308) + be32s(-223))
    try send([3, 0] + be16(0) + be16(0) + be16(1) + be16(1))  // non-incremental 1x1
    _ = try readUpdate(timeout: 5)
  }

  /// Sets the layout and waits until the server accepts it. Screens not listed are unplugged.
  public func setLayout(_ layout: [Screen], timeout: Double = 5) throws {
    let width = layout.map { $0.x + $0.width }.max() ?? 0
    let height = layout.map { $0.y + $0.height }.max() ?? 0
    var msg: [UInt8] = [251, 0] + be16(width) + be16(height) + [UInt8(layout.count), 0]
    for s in layout {
      msg += be32(s.id) + be16(s.x) + be16(s.y) + be16(s.width) + be16(s.height) + be32(0)
    }
    try send(msg)
    let deadline = Deadline(seconds: timeout)
    while !deadline.passed {
      try send([3, 1] + be16(0) + be16(0) + be16(1) + be16(1))
      if let status = try readUpdate(timeout: deadline.remainingMs > 0 ? Double(deadline.remainingMs) / 1000 : 0) {
        guard status == 0 else { throw RigError("server rejected layout \(layout) with status \(status)") }
        return
      }
    }
    throw RigError("no answer to SetDesktopSize within \(timeout) s")
  }

  /// A convenience: the main monitor `0` at the origin, then monitors right of it.
  public static func row(_ sizes: [(id: UInt32, width: Int, height: Int)]) -> [Screen] {
    var x = 0
    return sizes.map { s in
      defer { x += s.width }
      return Screen(id: s.id, x: x, y: 0, width: s.width, height: s.height)
    }
  }

  /// Reads server messages until one FramebufferUpdate; returns the status of an
  /// ExtendedDesktopSize rect answering our own request (x = 1), else nil.
  private func readUpdate(timeout: Double) throws -> Int? {
    let deadline = Deadline(seconds: timeout)
    while true {
      guard pollFDs([fd], timeoutMs: deadline.remainingMs).contains(0) else { return nil }
      let type = try read(1)[0]
      switch type {
      case 0: return try readRects()
      case 1:
        let h = try read(5)
        _ = try read(Int(UInt16(h[3]) << 8 | UInt16(h[4])) * 6)
      case 2: continue
      case 3: _ = try read(Int(u32(try read(7), 3)))
      default: throw RigError("unexpected RFB message \(type)")
      }
    }
  }

  private func readRects() throws -> Int? {
    let header = try read(3)
    let count = Int(UInt16(header[1]) << 8 | UInt16(header[2]))
    var answer: Int?
    for _ in 0..<count {
      let r = try read(12)
      let x = Int(be16v(r, 0))
      let y = Int(be16v(r, 2))
      let w = Int(be16v(r, 4))
      let h = Int(be16v(r, 6))
      let encoding = Int32(bitPattern: u32(r, 8))
      switch encoding {
      case 0: _ = try read(w * h * bytesPerPixel)
      case -223: continue
      case -308:
        let n = Int(try read(4)[0])
        let data = try read(16 * n)
        screens = (0..<n).map { i in
          let o = i * 16
          return Screen(
            id: u32(data, o), x: Int(be16v(data, o + 4)), y: Int(be16v(data, o + 6)),
            width: Int(be16v(data, o + 8)), height: Int(be16v(data, o + 10)))
        }
        if x == 1 { answer = y }
      default: throw RigError("unexpected encoding \(encoding)")
      }
    }
    return answer
  }

  private func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard n > 0 else { throw RigError("write to VNC socket failed") }
      offset += n
    }
  }

  private func read(_ count: Int) throws -> [UInt8] {
    var result = [UInt8](repeating: 0, count: count)
    var got = 0
    while got < count {
      guard pollFDs([fd], timeoutMs: 5000).contains(0) else { throw RigError("VNC server went quiet") }
      let n = result[got...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { throw RigError("VNC connection closed") }
      got += n
    }
    return result
  }
}

private func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xff), UInt8(v & 0xff)] }
private func be32(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((v >> UInt32($0)) & 0xff) } }
private func be32s(_ v: Int32) -> [UInt8] { be32(UInt32(bitPattern: v)) }
private func be16v(_ b: [UInt8], _ o: Int) -> UInt16 { UInt16(b[o]) << 8 | UInt16(b[o + 1]) }
private func u32(_ b: [UInt8], _ o: Int) -> UInt32 {
  UInt32(b[o]) << 24 | UInt32(b[o + 1]) << 16 | UInt32(b[o + 2]) << 8 | UInt32(b[o + 3])
}
