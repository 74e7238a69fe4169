import DisplayModel
import DisplayPorts
import DisplaySupport

/// What the daemon keeps for mirrors: the surface host paces their frames, the daemon's
/// event loop owns the timer that wakes it for one.
struct MirrorRuntime {
  /// Whether the surface host can mirror: asked once.
  var supported: Bool?
  /// A one-shot timer, armed only while a frame waits; made with the first frame that
  /// waits, gone with the last mirror.
  var timer: DeadlineTimer?
}
