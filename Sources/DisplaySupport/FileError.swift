#if canImport(Glibc)
  import Glibc
#endif

/// Why a file could not be read: a failed call, not a regular file, or over the size limit.
public enum FileError: Error, Equatable, Sendable, CustomStringConvertible {
  case system(SystemError)
  case notRegular(path: String)
  case tooLarge(path: String, limit: Int)

  public var description: String {
    switch self {
    case .system(let error): return error.description
    case .notRegular(let path): return "\(path): not a regular file"
    case .tooLarge(let path, let limit): return "\(path): larger than the limit of \(limit) bytes"
    }
  }
}

/// Size limits for the files the tool reads.
public enum FileLimit {
  /// A config file.
  public static let config = 1 << 20
  /// An EDID (256 blocks of 128 bytes is 32 KiB; twice that leaves room for odd dumps).
  public static let edid = 64 << 10
}

/// Reads a whole regular file of at most `limit` bytes; the error names the path and the
/// reason. Opens without blocking (a FIFO or a device is refused, never waited on or read).
public func readFile(_ path: String, limit: Int = 16 << 20) -> Result<[UInt8], FileError> {
  do throws(SystemError) {
    let fd = FileDescriptor(
      rawValue: try systemCall("open \(path)") { open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) })
    defer { fd.close() }
    var info = stat()
    try systemCall("stat \(path)") { fstat(fd.rawValue, &info) }
    guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notRegular(path: path)) }
    guard info.st_size <= limit else { return .failure(.tooLarge(path: path, limit: limit)) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(clamping: info.st_size))
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = try systemCall("read \(path)") { read(fd.rawValue, &chunk, chunk.count) }
      if n == 0 { return .success(bytes) }
      // The file may grow while it is read: the limit holds for what is read, too.
      guard bytes.count + n <= limit else { return .failure(.tooLarge(path: path, limit: limit)) }
      bytes += chunk[0..<n]
    }
  } catch {
    return .failure(.system(error))
  }
}
