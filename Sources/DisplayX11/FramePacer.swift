/// When a mirror frame is drawn: at once when the last one is a frame interval old, else once
/// at the next frame for all the work that arrived meanwhile. Pure: the caller gives the
/// time, and arms a timer only while a frame waits (`due`).
public struct FramePacer: Hashable, Sendable {
  /// Nanoseconds between frames: one frame of the fastest mirroring monitor.
  public var interval: UInt64 = 16_666_667
  /// When the last frame drew something.
  public var lastFrame: UInt64 = 0
  /// Work waiting for the next frame: damage to composite, a pointer to move.
  public var damagePending = false
  public var cursorPending = false
  /// When the waiting frame is due; nil while none waits.
  public private(set) var due: UInt64?

  public init() {}

  /// Work arrived at `now`: true when the frame is to be drawn now; otherwise it waits for
  /// `due` (the first waiting work sets it, later work joins that frame).
  public mutating func request(at now: UInt64) -> Bool {
    let next = lastFrame.addingReportingOverflow(interval)
    let at = next.overflow ? UInt64.max : next.partialValue
    if now >= at { return true }
    if due == nil { due = at }
    return false
  }

  /// The frame was drawn (or nothing is left to draw): nothing waits.
  public mutating func settle() { due = nil }

  /// Nothing is left to pace: the last mirror went.
  public mutating func reset() {
    (damagePending, cursorPending, due) = (false, false, nil)
  }

  /// The fastest monitor's frame time, 60 Hz when none reports a refresh; at least 1 ms, as a
  /// mode's timings may claim any rate (4 GHz would mean a composite per event).
  public static func interval(refreshHz: [Double]) -> UInt64 {
    let hz = refreshHz.filter { $0 > 1 && $0.isFinite }.max() ?? 60
    return max(1_000_000, UInt64(1e9 / hz))
  }
}
