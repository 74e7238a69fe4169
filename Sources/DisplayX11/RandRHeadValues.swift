import DisplayModel
import DisplayPorts

/// The conversions between RandR's values and the output-management port's. Pure.
///
/// Transforms: RandR turns a CRTC by one of four rotation bits and may reflect it in X, in Y
/// or both; the port has four quarter turns, each plain or flipped. `flippedN` is RandR's
/// rotation N with `reflect x`. Because a half turn is minus the identity, it commutes with
/// every other transform, so `reflect y` is exactly a half turn more with `reflect x`, and both
/// reflections together are a half turn: every one of RandR's sixteen combinations is one of
/// the eight head transforms, and each head transform has two RandR spellings.
public enum RandRHeadValues {
  /// The refresh in millihertz, as `Mode.refreshHz` computes it (xrandr's arithmetic),
  /// rounded to the nearest; 0 when the mode's totals say nothing.
  public static func refreshMilliHz(_ mode: Mode) -> Int {
    Int(exactly: (mode.refreshHz * 1000).rounded()) ?? 0
  }

  /// A RandR mode as a head lists it: its size, refresh in mHz, interlace, whether displayd
  /// made it (its name's prefix), and for the wire the server's id, name, dot clock and
  /// double scan; its timings, which `profile save` writes for a mode displayd made.
  public static func headMode(_ mode: Mode, preferred: Bool) -> HeadMode {
    HeadMode(
      width: mode.width, height: mode.height, refreshMilliHz: refreshMilliHz(mode), preferred: preferred,
      interlaced: mode.isInterlaced, custom: mode.name.hasPrefix(CustomModes.prefix),
      server: ServerModeFacts(
        serverID: UInt64(exactly: mode.id.rawValue), name: mode.name, dotClockHz: mode.dotClock,
        doubleScan: mode.isDoubleScan, timedRefreshHz: mode.refreshHz, timings: ModeLine(mode)))
  }

  /// The head transform a CRTC's rotation and reflection bits make.
  public static func transform(_ rotation: Rotation) -> Transform { rotation.transform }

  /// RandR's two spellings of a head transform, the plainer first: the rotation (with
  /// `reflect x` when flipped), then the half turn more with both reflections (with `reflect
  /// y` alone when flipped), for CRTCs that reflect but do not turn.
  public static func rotations(_ transform: Transform) -> [Rotation] {
    TransformSpelling.allCases.map { Rotation(transform, $0) }
  }

  /// The RandR rotation for a head transform on a CRTC that can do `allowed`: `spelling`
  /// when it can do that, else the other; nil when it can do neither.
  public static func rotation(
    _ transform: Transform, allowed: Rotation, spelling: TransformSpelling = .turned
  ) -> Rotation? {
    let asked = Rotation(transform, spelling)
    return allowed.contains(asked) ? asked : rotations(transform).first { allowed.contains($0) }
  }

  /// The head transforms a CRTC that can do `allowed` offers.
  public static func transforms(allowed: Rotation) -> Set<Transform> {
    // Asked for every head of every snapshot: looked up. Only the six rotation and
    // reflection bits can make a spelling allowed.
    transformsByBits[Int(allowed.rawValue & 0x3f)]
  }

  /// `transforms(allowed:)` for each combination of the six bits.
  private static let transformsByBits: [Set<Transform>] = (0..<64).map { bits in
    let allowed = Rotation(rawValue: UInt16(bits))
    return Set(Transform.allCases.filter { rotation($0, allowed: allowed) != nil })
  }

  /// The CRTC transform for the port's `scale` (the head shows an area `scale` times its
  /// mode, as `xrandr --scale`): the identity for 1.
  public static func crtcTransform(scale: Double, filter: ScaleFilter) -> CrtcTransform {
    crtcTransform(scaleX: scale, scaleY: scale, filter: filter)
  }

  /// The CRTC transform for a scale each way (`xrandr --scale XxY`): the identity for 1 both
  /// ways.
  public static func crtcTransform(scaleX: Double, scaleY: Double, filter: ScaleFilter) -> CrtcTransform {
    guard scaleX != 1 || scaleY != 1 else { return .identity }
    return CrtcTransform(matrix: [scaleX, 0, 0, 0, scaleY, 0, 0, 0, 1], filter: filter)
  }

  /// The port's `scale` a CRTC transform read from the server means: the matrix's scale when
  /// it is a uniform scale (as `xrandr --scale s` or the config's `scale` sets), else 1 (a
  /// shear, a projection or unequal sides have no one scale). The reader keeps the server's
  /// 16.16 entries exactly, so this is the scale the server applies, not one its area suggests.
  public static func scale(_ transform: CrtcTransform) -> Double {
    let v = transform.matrix
    guard v.count == 9, v[1] == 0, v[2] == 0, v[3] == 0, v[5] == 0, v[6] == 0, v[7] == 0, v[8] == 1,
      v[0] == v[4], v[0] > 0
    else { return 1 }
    return v[0]
  }

  /// The nearest of `modes` to a listed request: the same size, then the refresh closest in
  /// mHz (the first such for refresh 0 or a tie); nil when none has the size.
  public static func nearest(_ modes: [Mode], width: Int, height: Int, refreshMilliHz: Int) -> Mode? {
    let sized = modes.filter { $0.width == width && $0.height == height }
    guard refreshMilliHz > 0 else { return sized.first }
    return sized.min { a, b in
      distance(Self.refreshMilliHz(a), refreshMilliHz) < distance(Self.refreshMilliHz(b), refreshMilliHz)
    }
  }

  private static func distance(_ a: Int, _ b: Int) -> Int { a > b ? a - b : b - a }
}
