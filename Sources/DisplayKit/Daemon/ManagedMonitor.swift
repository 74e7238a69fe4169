import DisplayModel
import DisplayPorts

/// A monitor the daemon covers with a surface, and what it put there.
public struct ManagedMonitor: Sendable {
  /// Its head's name: what the daemon keeps it by.
  public var name: String
  public var surface: SurfaceID
  public var rect: Rect
  public var level: WindowLevel
  public var content: ContentKind
  /// The picture's inputs; nil until drawn.
  public var drawn: PlaceholderContent?
  /// What it was asked to mirror; nil until then, and for a picture.
  public var mirror: MirrorRequest?
  /// The host's frame count when its mirror last stopped with its source still listed (a
  /// failed capture); a second stop with no frame shown since is not tried again.
  public var mirrorStopped: Int?
  /// Wall-clock time the window was created.
  public var since: String
}

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
