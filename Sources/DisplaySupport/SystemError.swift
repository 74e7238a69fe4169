#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call, with its name and errno.
public enum SystemError: Error, Equatable, Sendable, CustomStringConvertible {
  case call(String, Int32)

  /// The errno.
  public var code: Int32 {
    switch self {
    case .call(_, let code): return code
    }
  }

  public var description: String {
    switch self {
    case .call(let name, let code): return "\(name): \(String(cString: strerror(code)))"
    }
  }
}

/// The one funnel for system calls that return -1 and set errno (as swift-system's
/// `valueOrErrno`): calls `body` again while it is interrupted (EINTR), and turns -1 into a
/// `SystemError` carrying errno and the call's name.
@discardableResult
public func systemCall<T: FixedWidthInteger & SignedInteger>(_ name: @autoclosure () -> String, _ body: () -> T)
  throws(SystemError) -> T
{
  while true {
    let result = body()
    guard result == -1 else { return result }
    let code = errno
    if code != EINTR { throw .call(name(), code) }
  }
}

/// A file descriptor: a number with a type, as the X ids are. Owning it (closing it once) is
/// up to whoever made it.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
  public var description: String { String(rawValue) }

  /// Reads at most `buffer.count` bytes into `buffer`; 0 at end of file.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
    guard let base = buffer.baseAddress else { return 0 }
    return try systemCall("read") { Glibc.read(rawValue, base, buffer.count) }
  }

  /// Reads into `value`'s bytes (a record such as a `signalfd_siginfo`); whether all came.
  public func read<T>(into value: inout T) -> Bool {
    let size = MemoryLayout<T>.size
    let n = try? withUnsafeMutableBytes(of: &value) { buffer throws(SystemError) in try read(into: buffer) }
    return n == size
  }

  /// Closes it. (Not retried on EINTR: on Linux the descriptor is gone either way.)
  public func close() { _ = Glibc.close(rawValue) }
}
