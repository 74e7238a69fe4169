import DisplayModel
import DisplayPorts

/// Counters a test (and `status`) reads to see what the daemon did.
public struct DaemonCounters: Sendable {
  /// Reconciles run, for any reason.
  public var reconciles = 0
  /// Reconciles that changed the server's configuration.
  public var reconcilesChanged = 0
  public var windowsCreated = 0
  public var windowsDestroyed = 0
  public var redraws = 0
  /// Mirror frames: paced composites of damaged areas and the pointer, all mirrors at once
  /// (plus one full composite whenever a mirror is set up).
  public var composites = 0
  /// Snapshots that re-probed the connectors on request: a resume from suspend (logind's
  /// `PrepareForSleep(false)`) or `SIGUSR1`. (Not the one at start-up, nor those the
  /// event path takes to explain an output lit but disconnected.)
  public var probes = 0
}
