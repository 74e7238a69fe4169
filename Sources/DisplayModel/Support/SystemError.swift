#if canImport(Glibc)
  import Glibc
#endif

/// A failed system call, with its name and errno.
public enum SystemError: Error, Equatable, Sendable, CustomStringConvertible {
  case call(String, Int32)
  public var description: String {
    switch self {
    case .call(let name, let code): return "\(name): \(String(cString: strerror(code)))"
    }
  }
}
