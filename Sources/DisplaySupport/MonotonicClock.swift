#if canImport(Glibc)
  import Glibc
#endif

/// Wall-clock time as RFC 3339 UTC with milliseconds, e.g. `2026-11-29T19:20:01.123Z`.
public func timestampNow() -> String {
  var ts = timespec()
  clock_gettime(CLOCK_REALTIME, &ts)
  var seconds = ts.tv_sec
  var parts = tm()
  gmtime_r(&seconds, &parts)
  func pad(_ v: Int32, _ width: Int) -> String {
    let s = String(v)
    return String(repeating: "0", count: max(0, width - s.count)) + s
  }
  let ms = Int32(ts.tv_nsec / 1_000_000)
  return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
    + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(ms, 3))Z"
}

/// Monotonic time in nanoseconds, for measuring intervals.
public func monotonicNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(clamping: ts.tv_sec) * 1_000_000_000 + UInt64(clamping: ts.tv_nsec)
}

/// The monotonic time the daemon paces mirror frames by: the system's, or a test's manual one.
public protocol MonotonicClock: AnyObject {
  /// Nanoseconds since an arbitrary start; never goes back.
  var nanoseconds: UInt64 { get }
}

/// `CLOCK_MONOTONIC`.
public final class SystemClock: MonotonicClock {
  public init() {}
  public var nanoseconds: UInt64 { monotonicNanoseconds() }
}
