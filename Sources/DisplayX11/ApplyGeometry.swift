import DisplayModel

#if canImport(Glibc)
  import Glibc
#endif

/// A CRTC transform as RandR carries it: nine 16.16 fixed-point numbers, row-major, and the
/// filter's name ("" when the server has none set).
public struct FixedTransform: Hashable, Sendable {
  public var matrix: [Int32]
  public var filter: String

  public init(matrix: [Int32], filter: String) {
    self.matrix = matrix
    self.filter = filter
  }

  /// The identity, with no filter: what a CRTC has until a client sets a transform.
  public static let identity = FixedTransform(matrix: [65536, 0, 0, 0, 65536, 0, 0, 0, 65536], filter: "")

  /// `transform` in fixed point, each entry truncated towards zero as Xrender's
  /// `XDoubleToFixed` does (xrandr builds `--scale` and `--transform` that way); nil when an
  /// entry is not finite or does not fit 16.16. The identity is sent without a filter, as
  /// `xrandr --transform none` does.
  public init?(_ transform: CrtcTransform) {
    guard transform.matrix.count == 9 else { return nil }
    var fixed: [Int32] = []
    for value in transform.matrix {
      let scaled = (value * 65536).rounded(.towardZero)
      guard scaled.isFinite, let entry = Int32(exactly: scaled) else { return nil }
      fixed.append(entry)
    }
    matrix = fixed
    filter = fixed == Self.identity.matrix ? "" : transform.filter.rawValue
  }

  /// Whether the two show the same picture: two identities are the same whatever their filter.
  public func sameEffect(as other: FixedTransform) -> Bool {
    matrix == other.matrix && (filter == other.filter || matrix == Self.identity.matrix)
  }

  /// The transform as doubles, row-major.
  public var values: [Double] { matrix.map { Double($0) / 65536 } }
}

extension CrtcTransform {
  /// The model's value of a transform read from the server: each 16.16 entry exactly (a
  /// Double holds it), the filter by its name (a filter the model has no name for, or none,
  /// reads as bilinear, xrandr's for a scale).
  public init(_ fixed: FixedTransform) {
    self.init(matrix: fixed.values, filter: ScaleFilter(rawValue: fixed.filter) ?? .bilinear)
  }
}

/// The geometry an apply needs beyond where a CRTC lands (`CrtcTransform.footprint`): the
/// screen's physical size. Pure.
public enum ApplyGeometry {
  /// The millimetres for a screen of `width` x `height` pixels that keeps the DPI of a screen
  /// of `fromHeight` pixels and `fromMMHeight` millimetres, as xrandr does on a resize without
  /// `--dpi`: one DPI, the vertical one, for both sides, truncated. 96 dpi when the old size
  /// says nothing (0 mm). At least 1 mm: the server refuses 0.
  public static func keepingDPI(width: Int, height: Int, fromHeight: Int, fromMMHeight: Int) -> (
    width: Int, height: Int
  ) {
    let dpi = fromMMHeight > 0 && fromHeight > 0 ? 25.4 * Double(fromHeight) / Double(fromMMHeight) : 96
    let mm = { (px: Int) in max(1, Int(exactly: (25.4 * Double(px) / dpi).rounded(.towardZero)) ?? 1) }
    return (mm(width), mm(height))
  }
}
