import DisplayModel

/// One RandR output (a connector) and what is attached to it.
public struct Output: Hashable, Sendable {
  public var id: OutputID
  public var name: String
  public var connection: Connection
  /// The CRTC driving this output, nil when it is off.
  public var crtc: CrtcID?
  /// Physical size reported by the monitor, in millimetres.
  public var mmWidth: Int
  public var mmHeight: Int
  /// Modes the output supports, in the server's order; the first `preferredCount` are preferred.
  public var modes: [ModeID]
  public var preferredCount: Int
  public var possibleCrtcs: [CrtcID]
  /// Raw bytes of the `EDID` output property, nil when the output has none.
  public var edid: [UInt8]? { didSet { identity = Self.decode(edid) } }
  /// The monitor's EDID, decoded once when the bytes are set; nil when there are none or they
  /// are not an EDID.
  public private(set) var identity: EDID?
  /// The `non-desktop` property: a head-mounted display or similar, not for the desktop.
  public var nonDesktop: Bool

  public init(
    id: OutputID, name: String, connection: Connection, crtc: CrtcID? = nil,
    mmWidth: Int = 0, mmHeight: Int = 0, modes: [ModeID] = [], preferredCount: Int = 0,
    possibleCrtcs: [CrtcID] = [], edid: [UInt8]? = nil, nonDesktop: Bool = false
  ) {
    self.id = id
    self.name = name
    self.connection = connection
    self.crtc = crtc
    self.mmWidth = mmWidth
    self.mmHeight = mmHeight
    self.modes = modes
    self.preferredCount = preferredCount
    self.possibleCrtcs = possibleCrtcs
    self.edid = edid
    self.identity = Self.decode(edid)
    self.nonDesktop = nonDesktop
  }

  private static func decode(_ bytes: [UInt8]?) -> EDID? { bytes.flatMap { try? EDID(bytes: $0) } }

  public var isConnected: Bool { connection == .connected }

  /// The preferred modes (`npreferred` of the output info).
  public var preferredModes: ArraySlice<ModeID> { modes.prefix(max(0, min(preferredCount, modes.count))) }

  /// Whether this connector's name says it is a built-in panel.
  public var isInternalPanel: Bool {
    name.hasPrefix("eDP") || name.hasPrefix("LVDS") || name.hasPrefix("DSI")
  }
}

/// One RandR CRTC: a scan-out engine with a position, a mode and the outputs it drives.
public struct Crtc: Hashable, Sendable {
  public var id: CrtcID
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int
  /// nil when the CRTC is off.
  public var mode: ModeID?
  public var rotation: Rotation
  public var outputs: [OutputID]
  public var possibleOutputs: [OutputID]
  /// The rotations and reflections this CRTC can do (`XRRCrtcInfo.rotations`).
  public var rotations: Rotation
  /// What it shows its mode through (`xrandr --scale` or `--transform`), as the server holds
  /// it: the identity when it is off or nothing transforms it. A plan that moves it keeps it.
  public var transform = CrtcTransform.identity

  public init(
    id: CrtcID, x: Int = 0, y: Int = 0, width: Int = 0, height: Int = 0, mode: ModeID? = nil,
    rotation: Rotation = .normal, outputs: [OutputID] = [], possibleOutputs: [OutputID] = [],
    rotations: Rotation = .normal
  ) {
    self.id = id
    self.x = x
    self.y = y
    self.width = width
    self.height = height
    self.mode = mode
    self.rotation = rotation
    self.outputs = outputs
    self.possibleOutputs = possibleOutputs
    self.rotations = rotations
  }

  public var rect: Rect { Rect(x: x, y: y, width: width, height: height) }
  public var isActive: Bool { mode != nil }
}
