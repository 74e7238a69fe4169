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
