/// One of the eight ways a monitor shows its picture, as wlr-output-management and
/// `wl_output.transform` name them: quarter turns counter-clockwise, then flipped about the
/// vertical axis. `rotated90` is xrandr's `left`, `rotated270` its `right`.
public enum Transform: Int, Hashable, Sendable, CaseIterable {
  case normal = 0
  case rotated90 = 1
  case rotated180 = 2
  case rotated270 = 3
  case flipped = 4
  case flipped90 = 5
  case flipped180 = 6
  case flipped270 = 7

  /// Whether width and height trade places.
  public var swapsAxes: Bool { rawValue % 2 == 1 }
  /// Whether the picture is mirrored.
  public var isFlipped: Bool { rawValue >= 4 }
}

/// What a head's backend can do to it.
public struct HeadCapabilities: Hashable, Sendable {
  /// The transforms this head accepts (X: the rotations of what lights it; wlroots: all eight).
  public var transforms: Set<Transform>
  /// Whether `scale` other than 1 is possible (X: a scale transform; wlroots: always).
  public var scaling: Bool
  /// Whether the backend can add a mode the head does not list (X: a CVT mode or a
  /// modeline it creates; wlroots: `set_custom_mode`).
  public var customModes: Bool
  /// Whether the head shows any size it is asked for, so that a size it does not list is
  /// asked as it is instead of its preferred mode (wlroots' custom mode; X makes only
  /// the modes a rule's `custom` or `modeline` asks).
  public var anySize: Bool

  public init(
    transforms: Set<Transform> = [.normal], scaling: Bool = false, customModes: Bool = false,
    anySize: Bool = false
  ) {
    self.transforms = transforms
    self.scaling = scaling
    self.customModes = customModes
    self.anySize = anySize
  }
}

/// How a backend rounds the area a scaled head covers to whole pixels.
public enum ScaledArea: Hashable, Sendable {
  /// The scale in 16.16 fixed point (truncated, as the X library does), the turned mode's
  /// sides times it rounded up: the X server's extent of a scaled head under its scale
  /// transform (`Transform.footprint`).
  case fixedPoint
  /// The turned mode's sides divided by the logical scale (1/`scale`), rounded down: wlroots'
  /// effective resolution, the size sway and labwc lay a head out at.
  case logical

  /// The area a `width` x `height` mode covers turned by `transform`, then scaled; nil for a
  /// scale that is not positive and finite or an area beyond `Int`.
  public func size(width: Int, height: Int, transform: Transform, scale: Double) -> (width: Int, height: Int)? {
    switch self {
    case .fixedPoint:
      return transform.footprint(width: width, height: height, scale: scale, quantum: ScaleQuantum.fixedPoint)
    case .logical:
      guard scale.isFinite, scale > 0 else { return nil }
      let (w, h) = transform.swapsAxes ? (height, width) : (width, height)
      let logical = 1 / scale
      // The logical scale is read in 1/256 steps: a side that divides by it exactly must not
      // lose a pixel to the error of the reciprocal, and no other side is within 1e-6 of a
      // whole number.
      let side = { (n: Int) in Int(exactly: (Double(n) / logical + 1e-6).rounded(.towardZero)) }
      guard let sw = side(w), let sh = side(h) else { return nil }
      return (sw, sh)
    }
  }

  /// The area a planner places a `width` x `height` mode at: turned by `transform`, scaled
  /// by `scale` across and down, rounded as this backend rounds it; nil when it covers none.
  /// X scales each side in its 16.16 steps; wlroots has one scale per head, the first.
  public func footprint(
    width: Int, height: Int, transform: Transform, scale: (x: Double, y: Double)
  ) -> (width: Int, height: Int)? {
    var size: (width: Int, height: Int)?
    if self == .logical || scale.x == scale.y {
      size = self.size(width: width, height: height, transform: transform, scale: scale.x)
    } else if let sx = Transform.quantized(scale.x, ScaleQuantum.fixedPoint),
      let sy = Transform.quantized(scale.y, ScaleQuantum.fixedPoint)
    {
      let (w, h) = transform.swapsAxes ? (height, width) : (width, height)
      size = Footprint.scaledSize(width: w, height: h, sx: sx, sy: sy)
    }
    guard let size, size.width > 0, size.height > 0 else { return nil }
    return size
  }

  /// Whether the backend is asked the same scale for `a` as for `b`: the same 16.16 value
  /// on X, the same `wl_fixed` logical scale (1/scale in 1/256 steps, rounded) on wlroots.
  public func sameScale(_ a: Double, _ b: Double) -> Bool {
    switch self {
    case .fixedPoint:
      return Transform.quantized(a, ScaleQuantum.fixedPoint) == Transform.quantized(b, ScaleQuantum.fixedPoint)
    case .logical:
      let fixed = { (s: Double) in Int(exactly: (Double(ScaleQuantum.wlFixed) / s).rounded()) }
      return fixed(a) == fixed(b)
    }
  }
}

/// One monitor connector as every display server describes it: what is attached, what it
/// can show, and what it shows now.
public struct Head: Hashable, Sendable {
  /// The connector's name (`DP-1`, `HEADLESS-2`): unique within a snapshot.
  public var name: String
  /// A human description (wlroots' `description`, or the EDID's product name).
  public var description: String
  public var make: String
  public var model: String
  public var serial: String
  /// The EDID, when the backend gives it (X does, wlroots does not).
  public var edid: [UInt8]?
  /// Physical size in millimetres; both 0 when unknown (made so from any size no monitor
  /// has: `PhysicalSize(reportedWidth:height:)`).
  public var mmWidth: Int
  public var mmHeight: Int
  /// Whether a monitor is attached (wlroots lists only attached heads).
  public var connected: Bool
  /// Whether the server cannot tell if a monitor is attached (X's `unknown`, which a
  /// head not `connected` says): shown on the wire only.
  public var connectionUnknown = false
  /// The server's handle for the connector (on X, its id), shown on the wire
  /// only; nil where the backend has none, and the wire shows the id the heads bridge makes
  /// from the name (`HeadWireIDs.outputID`).
  public var serverID: UInt64? = nil
  /// Whether it is lit.
  public var enabled: Bool
  public var modes: [HeadMode]
  /// Index into `modes` of what it shows; nil when off.
  public var currentMode: Int?
  /// Top-left corner in the desktop's (logical) coordinates.
  public var x: Int
  public var y: Int
  public var transform: Transform
  /// How the server's bits spell `transform` now (`TransformSpelling`): what keeps a head the
  /// rules do not turn as it is; `.turned` where the backend has no spelling.
  public var spelling: TransformSpelling
  /// The config's meaning on every backend: the head shows an area `scale` times its
  /// mode (as `xrandr --scale`); wlroots' logical scale is 1/scale. Made 1 from one that is
  /// not positive and finite, as the backends read such a scale.
  public var scale: Double
  /// How `rect` rounds a scaled head's area, as its backend does (16.16 fixed point unless it says).
  public var scaledArea: ScaledArea
  /// Marked as a built-in panel (eDP, LVDS, DSI) or the backend says so.
  public var isInternalPanel: Bool
  /// `non-desktop` (a VR headset): never arranged.
  public var nonDesktop: Bool
  public var capabilities: HeadCapabilities
  /// Which of the backend's objects for this connector it is: a new one each time a monitor
  /// is attached (wlroots makes a new head object), 0 where the backend keeps one object a
  /// connector (X). A monitor unplugged and back before anyone looked is another
  /// instance, not a head another client turned off.
  public var instance: UInt64 = 0

  public init(
    name: String, description: String = "", make: String = "", model: String = "", serial: String = "",
    edid: [UInt8]? = nil, mmWidth: Int = 0, mmHeight: Int = 0, connected: Bool = true, enabled: Bool = false,
    modes: [HeadMode] = [], currentMode: Int? = nil, x: Int = 0, y: Int = 0, transform: Transform = .normal,
    spelling: TransformSpelling = .turned, scale: Double = 1, scaledArea: ScaledArea = .fixedPoint,
    isInternalPanel: Bool = false, nonDesktop: Bool = false,
    capabilities: HeadCapabilities = HeadCapabilities()
  ) {
    self.name = name
    self.description = description
    self.make = make
    self.model = model
    self.serial = serial
    self.edid = edid
    let size = PhysicalSize(reportedWidth: mmWidth, height: mmHeight)
    self.mmWidth = size?.width ?? 0
    self.mmHeight = size?.height ?? 0
    self.connected = connected
    self.enabled = enabled
    self.modes = modes
    self.currentMode = currentMode
    self.x = x
    self.y = y
    self.transform = transform
    self.spelling = spelling
    self.scale = scale.isFinite && scale > 0 ? scale : 1
    self.scaledArea = scaledArea
    self.isInternalPanel = isInternalPanel
    self.nonDesktop = nonDesktop
    self.capabilities = capabilities
  }

  /// The monitor's size; nil when unknown (what reports print as 0 mm and JSON as null).
  public var physicalSize: PhysicalSize? { PhysicalSize(reportedWidth: mmWidth, height: mmHeight) }

  /// X's word for the connection: `connected`, else `unknown` or `disconnected`.
  public var connection: Connection { connected ? .connected : connectionUnknown ? .unknown : .disconnected }

  /// The mode shown now.
  public var mode: HeadMode? { currentMode.flatMap { modes.indices.contains($0) ? modes[$0] : nil } }

  /// The area it covers in desktop coordinates: the mode turned, then scaled, rounded as
  /// its backend rounds it (`scaledArea`); nil when off or when the scale gives no area.
  public var rect: Rect? {
    guard enabled, let mode,
      let size = scaledArea.size(width: mode.width, height: mode.height, transform: transform, scale: scale)
    else { return nil }
    return Rect(x: x, y: y, width: size.width, height: size.height)
  }
}

/// Every head at one moment. `generation` changes whenever the server's configuration does,
/// so that a configuration planned from an older snapshot is answered `stale`.
public struct HeadSnapshot: Hashable, Sendable {
  public var heads: [Head]
  /// The primary head's name (X only; wlroots has no primary).
  public var primary: String?
  /// Opaque to the daemon: the X server's config timestamp, the wlroots serial.
  public var generation: UInt64
  /// The desk's screen: on X the root window's size, the limits the server allows it and its
  /// millimetres; on a compositor the lit heads' bounding box within the limits the backend
  /// states (no millimetres). Nil where the snapshot does not say (a bare output manager).
  public var screen: ScreenSize?

  public init(heads: [Head], primary: String? = nil, generation: UInt64 = 0, screen: ScreenSize? = nil) {
    self.heads = heads
    self.primary = primary
    self.generation = generation
    self.screen = screen
  }

  /// Every field equal; the cheap ones first: the daemon compares each read with the last,
  /// and two reads a change apart differ by generation.
  public static func == (a: HeadSnapshot, b: HeadSnapshot) -> Bool {
    a.generation == b.generation && a.primary == b.primary && a.screen == b.screen && a.heads == b.heads
  }

  public func head(named name: String) -> Head? { heads.first { $0.name == name } }

  /// The heads `names` names, in that order; every connected head when there are none.
  public func heads(named names: [String]) throws(DisplayError) -> [Head] {
    guard !names.isEmpty else { return heads.filter(\.connected) }
    var result: [Head] = []
    for name in names {
      guard let head = head(named: name) else { throw .unknownOutput(name: name, available: heads.map(\.name)) }
      result.append(head)
    }
    return result
  }

  /// The lit heads' bounding box from the origin, with no limits: the screen of a desk whose
  /// server has none (wlroots), as a screen of the X shape.
  public var litBounds: ScreenSize {
    let lit = heads.compactMap(\.rect)
    let width = lit.map { $0.x.addingReportingOverflow($0.width).partialValue }.max() ?? 0
    let height = lit.map { $0.y.addingReportingOverflow($0.height).partialValue }.max() ?? 0
    return ScreenSize(
      width: max(0, width), height: max(0, height), minWidth: 0, minHeight: 0, maxWidth: 0, maxHeight: 0)
  }
}
