import CLinux

#if canImport(Glibc)
  import Glibc
#endif

/// A timer as a descriptor (timerfd) for the event loop's `poll()`, one-shot or periodic: the
/// one place the daemon's timers (mirror frames, hook deadlines, the watchdog) are armed.
/// Times saturate; none can trap.
public final class DeadlineTimer {
  public let fileDescriptor: FileDescriptor
  /// Whether it will fire: armed and not yet acknowledged (one-shot), or periodic.
  public private(set) var isArmed = false
  private var periodic = false

  public init() throws(SystemError) {
    fileDescriptor = FileDescriptor(
      rawValue: try systemCall("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK)) })
  }

  deinit { fileDescriptor.close() }

  /// Fires once, `nanoseconds` from now (at least 1 ns: 0 would disarm it).
  public func arm(after nanoseconds: UInt64) {
    set(value: Self.timespec(max(1, nanoseconds)), interval: Glibc.timespec())
    periodic = false
  }

  /// Fires every `nanoseconds` (at least 1 ms), from `nanoseconds` from now.
  public func arm(every nanoseconds: UInt64) {
    let t = Self.timespec(max(1_000_000, nanoseconds))
    set(value: t, interval: t)
    periodic = true
  }

  public func disarm() {
    set(value: Glibc.timespec(), interval: Glibc.timespec())
    isArmed = false
  }

  /// Consumes the expirations (a one-shot timer is then no longer armed); returns how many.
  @discardableResult
  public func acknowledge() -> UInt64 {
    var count: UInt64 = 0
    let read = fileDescriptor.read(into: &count)
    if !periodic { isArmed = false }
    return read ? count : 0
  }

  private func set(value: Glibc.timespec, interval: Glibc.timespec) {
    var spec = itimerspec(it_interval: interval, it_value: value)
    let set = (try? systemCall("timerfd_settime") { timerfd_settime(fileDescriptor.rawValue, 0, &spec, nil) }) != nil
    isArmed = set && (value.tv_sec != 0 || value.tv_nsec != 0)
  }

  private static func timespec(_ nanoseconds: UInt64) -> Glibc.timespec {
    Glibc.timespec(
      tv_sec: Int(clamping: nanoseconds / 1_000_000_000), tv_nsec: Int(clamping: nanoseconds % 1_000_000_000))
  }
}
