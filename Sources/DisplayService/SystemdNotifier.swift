import CLinux
import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// sd_notify without libsystemd: one datagram to `$NOTIFY_SOCKET` (a path, or an abstract
/// socket when it starts with `@`). Does nothing when the variable is unset.
public final class SystemdNotifier {
  private let fd: FileDescriptor?
  private var address = sockaddr_un()
  private var length: socklen_t = 0
  /// Half of `$WATCHDOG_USEC` in nanoseconds, when systemd asks for pings (and
  /// `$WATCHDOG_PID`, if set, is this process).
  public let watchdogInterval: UInt64?

  public init(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) {
    let usec = environment("WATCHDOG_USEC").flatMap { UInt64($0) }
    let forUs = environment("WATCHDOG_PID").map { Int32($0) == getpid() } ?? true
    // Half the period, in nanoseconds: saturates rather than trapping on a huge value, and
    // at least a millisecond, so a tiny value cannot make the timer a busy loop.
    watchdogInterval = usec.flatMap { usec in
      guard usec > 0 && forUs else { return nil }
      let (half, overflow) = usec.multipliedReportingOverflow(by: 500)
      return overflow ? UInt64.max : max(half, 1_000_000)
    }
    guard let path = environment("NOTIFY_SOCKET"), !path.isEmpty, path.utf8.count < 108 else {
      fd = nil
      return
    }
    fd = (try? systemCall("socket") { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) })
      .map(FileDescriptor.init)
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, b) in bytes.enumerated() { raw[i] = b }
      if bytes.first == UInt8(ascii: "@") { raw[0] = 0 }  // abstract namespace
    }
    length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == UInt8(ascii: "@") ? 0 : 1))
  }

  deinit { fd?.close() }

  /// `text` made safe as one field's value (`STATUS=`): control characters, newlines
  /// above all, are escaped so the text cannot end the field and add others.
  public static func fieldValue(_ text: String) -> String { Logger.escaped(text) }

  /// Sends `KEY=value` lines, e.g. `READY=1\nSTATUS=...`; values from outside go through
  /// `fieldValue`.
  public func notify(_ state: String) {
    guard let fd else { return }
    var bytes = Array(state.utf8)
    _ = withUnsafePointer(to: &address) { addr in
      addr.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
        try? systemCall("sendto") { sendto(fd.rawValue, &bytes, bytes.count, Int32(MSG_NOSIGNAL), sa, length) }
      }
    }
  }
}
