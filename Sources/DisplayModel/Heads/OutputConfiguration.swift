/// The mode asked of a head: one it lists, or one to make.
public enum HeadModeRequest: Hashable, Sendable {
  /// A listed mode (refresh 0: any, the backend picks its first match).
  case listed(width: Int, height: Int, refreshMilliHz: Int)
  /// A mode the head does not list (CVT or a modeline on RandR, `set_custom_mode` on
  /// wlroots); only where `HeadCapabilities.customModes`.
  case custom(ModeLine)
}

/// What one head is to become.
public struct HeadConfiguration: Hashable, Sendable {
  public var name: String
  public var enabled: Bool
  public var mode: HeadModeRequest?
  public var x: Int
  public var y: Int
  public var transform: HeadTransform
  /// The config's meaning: the head shows an area `scale` times its mode.
  public var scale: Double
  public var scaleFilter: ScaleFilter

  public init(
    name: String, enabled: Bool, mode: HeadModeRequest? = nil, x: Int = 0, y: Int = 0,
    transform: HeadTransform = .normal, scale: Double = 1, scaleFilter: ScaleFilter = .bilinear
  ) {
    self.name = name
    self.enabled = enabled
    self.mode = mode
    self.x = x
    self.y = y
    self.transform = transform
    self.scale = scale
    self.scaleFilter = scaleFilter
  }

  /// Off.
  public static func off(_ name: String) -> HeadConfiguration { HeadConfiguration(name: name, enabled: false) }
}

/// A whole desk's wanted state, planned from the snapshot of `generation`. Heads it does not
/// name stay as they are.
public struct OutputConfiguration: Hashable, Sendable {
  public var generation: UInt64
  public var heads: [HeadConfiguration]
  /// The primary head (RandR only; reported as not applicable elsewhere).
  public var primary: String?

  public init(generation: UInt64, heads: [HeadConfiguration], primary: String? = nil) {
    self.generation = generation
    self.heads = heads
    self.primary = primary
  }
}

/// What the server made of a configuration.
public enum ApplyResult: Hashable, Sendable {
  /// In force (for `test`: it would be accepted).
  case applied
  /// The server's configuration changed since the snapshot it was planned from: nothing
  /// changed; wait for the next change event, snapshot and plan again.
  case stale
  /// Not in force; the desk is as it was (the backend rolled back and read it back).
  case refused(ApplyRefusal)
}

/// Why a configuration was refused, with what the daemon needs to plan again.
public struct ApplyRefusal: Hashable, Sendable, Error {
  public var reason: String
  /// Heads whose transform the server refused (RandR: the CRTC cannot scale or rotate so).
  public var transformRefused: Set<String>
  /// What a rollback did not restore, as read back; empty when it did.
  public var notRestored: [String]

  public init(reason: String, transformRefused: Set<String> = [], notRestored: [String] = []) {
    self.reason = reason
    self.transformRefused = transformRefused
    self.notRestored = notRestored
  }
}
