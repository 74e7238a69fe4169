import DisplayModel

/// A RandR CRTC transform: a 3x3 projective matrix, row-major, mapping the CRTC's mode
/// coordinates to screen coordinates (as `xrandr --transform` and `--scale` give it), and the
/// filter the server samples with. `scale: s` is `[s,0,0, 0,s,0, 0,0,1]`.
public struct CrtcTransform: Hashable, Sendable {
  public var matrix: [Double]
  public var filter: ScaleFilter

  public init(matrix: [Double], filter: ScaleFilter = .bilinear) {
    self.matrix = matrix
    self.filter = filter
  }

  public static let identity = CrtcTransform(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1])

  public var isIdentity: Bool { matrix == Self.identity.matrix }
}

extension CrtcTransform {
  /// The screen area a CRTC at (`x`, `y`) covers with a mode of `width` x `height`, the mode
  /// turned by `rotation` (left and right swap the sides), then mapped by this transform
  /// (`Footprint.extent`), as the server computes a CRTC's extent. For a `scale` it is
  /// xrandr's arithmetic: the turned sides times the 16.16 scale, rounded up. Nil when the
  /// transform sends a corner to infinity or beyond `Int`.
  public func footprint(x: Int = 0, y: Int = 0, width: Int, height: Int, rotation: Rotation) -> Rect? {
    let (tw, th) = rotation.turned(width, height)
    return Footprint.extent(x: x, y: y, width: tw, height: th, matrix: matrix)
  }
}

/// One CRTC's new configuration. `mode == nil` turns it off.
public struct CrtcChange: Hashable, Sendable {
  public var crtc: CrtcID
  public var mode: ModeID?
  public var x: Int
  public var y: Int
  public var rotation: Rotation
  public var outputs: [OutputID]
  /// Modes to try, in order, if the server refuses `mode`.
  public var fallbacks: [ModeID]
  /// The output named in logs.
  public var outputName: String
  /// The CRTC's transform afterwards; `.identity` unless a monitor has a `scale`.
  public var transform: CrtcTransform = .identity

  public init(
    crtc: CrtcID, mode: ModeID?, x: Int, y: Int, rotation: Rotation, outputs: [OutputID], fallbacks: [ModeID],
    outputName: String, transform: CrtcTransform = .identity
  ) {
    self.crtc = crtc
    self.mode = mode
    self.x = x
    self.y = y
    self.rotation = rotation
    self.outputs = outputs
    self.fallbacks = fallbacks
    self.outputName = outputName
    self.transform = transform
  }
}

/// What reconciling would change: the CRTC changes and the screen size they need.
public struct Plan: Sendable {
  public var changes: [CrtcChange] = []
  /// The screen size afterwards, nil to leave it.
  public var screen: (width: Int, height: Int)?
  /// Outputs this plan configures: the daemon leaves them alone afterwards.
  public var configures: Set<OutputID> = []
  /// The RandR primary output afterwards, nil to leave it.
  public var primary: OutputID?
  /// The screen's physical size afterwards in millimetres (for a profile's `dpi`), nil to
  /// leave it.
  public var screenMillimetres: (width: Int, height: Int)?
  /// Modes the apply creates (`XRRCreateMode`, `XRRAddOutputMode`) before it sets the CRTCs
  /// naming them, by the virtual id the changes use (`CustomModes.virtualBase`).
  public var customModes: [ModeID: Mode] = [:]
  public init() {}

  /// A mode the plan names: the topology's, else one it creates.
  public func mode(_ id: ModeID, in topology: Topology) -> Mode? { topology.modes[id] ?? customModes[id] }

  /// Nothing to send: no CRTC, screen size, primary or physical size to change.
  public var isEmpty: Bool { changes.isEmpty && screen == nil && primary == nil && screenMillimetres == nil }
}
