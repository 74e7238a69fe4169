import DisplayX11

@testable import DisplayModel

/// `xrandr --scale`'s arithmetic: the matrix holds 16.16 fixed-point numbers
/// (`XDoubleToFixed` truncates); `Mode.footprint` gives the area it covers.
enum FixedScale {
  static let one = 65536

  /// `XDoubleToFixed(s)`: s × 65536, truncated (the scale is bounded, so it fits).
  static func fixed(_ s: Double) -> Int { Int(s * Double(one)) }

  static func transform(_ fx: Int, _ fy: Int, _ filter: ScaleFilter = .bilinear) -> CrtcTransform {
    guard fx != one || fy != one else { return .identity }
    let (sx, sy) = (Double(fx) / Double(one), Double(fy) / Double(one))
    return CrtcTransform(matrix: [sx, 0, 0, 0, sy, 0, 0, 0, 1], filter: filter)
  }
}
