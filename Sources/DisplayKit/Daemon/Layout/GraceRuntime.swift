import DisplayModel
import DisplayPorts
import DisplaySupport

/// The disconnects waiting for their grace, and the one timer that serves them.
struct GraceRuntime {
  /// By head name.
  var pending: [String: PendingDisconnect] = [:]
  /// Heads whose grace just ended: handled by the next snapshot, not held again.
  var releasing: Set<String> = []
  /// Armed only while something is pending; made with the first disconnect held.
  var timer: DeadlineTimer?
  /// Makes that timer: nil when the system has none to give (descriptors exhausted).
  var makeTimer: () -> DeadlineTimer? = { try? DeadlineTimer() }
  /// While the screen is blanked, how often it is asked whether it is on again.
  static let blankedRecheck: UInt64 = 1_000_000_000
}

/// A monitor that disconnected and may come back within the grace (a monitor going to sleep,
/// a dock's hiccup): until then the daemon acts as if it were still there.
struct PendingDisconnect {
  /// Its head as it was while connected: its monitor, and what the events about the
  /// disconnect show.
  var head: Head
  /// What it showed then, to tell whether it comes back as it was.
  var geometry: Rect?
  var mode: HeadMode?
  /// Monotonic time the grace ends.
  var deadline: UInt64
  /// Held past its grace while the screen was blanked: once it is on, the grace runs again
  /// (monitors take seconds to wake and assert their hot-plug signal).
  var heldByBlank = false
}
