/// The mode asked of a head: one it lists, or one to make.
public enum HeadModeRequest: Hashable, Sendable {
  /// A listed mode (refresh 0: any, the backend picks its first match).
  case listed(width: Int, height: Int, refreshMilliHz: Int)
  /// A mode the head does not list (CVT or a modeline on X, `set_custom_mode` on
  /// wlroots); only where `HeadCapabilities.customModes`.
  case custom(ModeLine)
}

/// What one head is to become.
public struct HeadConfiguration: Hashable, Sendable {
  public var name: String
  public var enabled: Bool
  public var mode: HeadModeRequest?
  /// Further modes to try, in order, when the server refuses `mode` (X tries each under
  /// its grab; a backend that cannot try modes one after another uses `mode` alone). Modes
  /// the head cannot have, and modes wider or taller than `mode` (the desk is sized for
  /// `mode`), are skipped. Empty: `mode` or nothing.
  public var fallbackModes: [HeadModeRequest]
  public var x: Int
  public var y: Int
  public var transform: Transform
  /// How the transform is spelled: X's bits; other backends ignore it. X sets this
  /// spelling where the head can take it, else the other (`TransformSpelling`).
  public var spelling: TransformSpelling
  /// The config's meaning: the head shows an area `scale` times its mode (horizontally, and
  /// vertically too unless `scaleY` says otherwise).
  public var scale: Double
  /// The vertical scale when it differs from `scale` (a profile's `scale: {x, y}`); nil: the
  /// same as `scale`. A backend with one scale per head (wlroots) uses `scale`.
  public var scaleY: Double?
  public var scaleFilter: ScaleFilter
  /// The name of a head this one shows the same as (a profile's `same-as`): on X both
  /// share one scan-out when it can drive both and this head lists the other's mode; then this
  /// head takes the other's mode, place, transform and scale. Where they cannot share (or a
  /// backend has no clones) this head is lit as its own fields say, which the planners set
  /// to the other's place. Nil: a head of its own.
  public var sameAs: String?
  /// Whether `mode` is the planner's default choice, the entry (a profile's, a rule's) having
  /// asked none: a backend that knows a limit the planner does not (X: the server's
  /// largest screen) may give the head a smaller mode of its own instead, with a warning. A
  /// mode asked explicitly is never changed.
  public var modeIsDefault: Bool

  public init(
    name: String, enabled: Bool, mode: HeadModeRequest? = nil, fallbackModes: [HeadModeRequest] = [], x: Int = 0,
    y: Int = 0, transform: Transform = .normal, spelling: TransformSpelling = .turned, scale: Double = 1,
    scaleY: Double? = nil, scaleFilter: ScaleFilter = .bilinear, sameAs: String? = nil,
    modeIsDefault: Bool = false
  ) {
    self.name = name
    self.enabled = enabled
    self.mode = mode
    self.fallbackModes = fallbackModes
    self.x = x
    self.y = y
    self.transform = transform
    self.spelling = spelling
    self.scale = scale
    self.scaleY = scaleY
    self.scaleFilter = scaleFilter
    self.sameAs = sameAs
    self.modeIsDefault = modeIsDefault
  }

  /// Off.
  public static func off(_ name: String) -> HeadConfiguration { HeadConfiguration(name: name, enabled: false) }

  /// The vertical scale: `scaleY`, else `scale`.
  public var verticalScale: Double { scaleY ?? scale }
}

/// A physical size in millimetres.
public struct PhysicalSize: Hashable, Sendable {
  public var width: Int
  public var height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The sides a monitor can have, in millimetres: from 1 mm to 10 m.
  public static let plausibleSide = 1...10_000

  /// A monitor's size as a server or an EDID reports it; nil ("unknown") unless both sides
  /// are plausible. Servers report 0 for no size, compositors -1 (KWin, which an X client
  /// reads through Xwayland as the unsigned 4294967295), and hostile ones anything.
  public init?(reportedWidth width: Int, height: Int) {
    guard Self.plausibleSide.contains(width), Self.plausibleSide.contains(height) else { return nil }
    self.init(width: width, height: height)
  }
}

/// A whole desk's wanted state, planned from the snapshot of `generation`. Heads it does not
/// name stay as they are.
public struct OutputConfiguration: Hashable, Sendable {
  public var generation: UInt64
  /// The heads to change. X lights them in this order (after every lit head has kept
  /// what lights it): where two heads could use the same free scan-out, the first gets it.
  public var heads: [HeadConfiguration]
  /// The primary head (X only; reported as not applicable elsewhere).
  public var primary: String?
  /// The desk's physical size in millimetres, what a profile's `dpi` sets (X: the
  /// screen's millimetres, which clients read the DPI from); nil leaves it (X keeps the
  /// vertical DPI when the screen's size changes). X only; reported as not applicable
  /// elsewhere.
  public var physicalSize: PhysicalSize?

  public init(
    generation: UInt64, heads: [HeadConfiguration], primary: String? = nil, physicalSize: PhysicalSize? = nil
  ) {
    self.generation = generation
    self.heads = heads
    self.primary = primary
    self.physicalSize = physicalSize
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
