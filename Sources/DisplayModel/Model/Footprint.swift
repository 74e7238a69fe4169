#if canImport(Glibc)
  import Glibc
#endif

extension Rotation {
  /// Whether the picture is turned a quarter (left or right): the mode's sides swap on the screen.
  public var isQuarterTurn: Bool { contains(.left) || contains(.right) }

  /// `width` x `height` as a CRTC turned by this rotation shows them: swapped for a quarter turn.
  public func turned(_ width: Int, _ height: Int) -> (width: Int, height: Int) {
    isQuarterTurn ? (height, width) : (width, height)
  }
}

extension CrtcTransform {
  /// The one footprint computation: the screen area a CRTC at (`x`, `y`) covers with a mode
  /// of `width` x `height`, the mode turned by `rotation` (left and right swap the sides),
  /// then mapped by this transform (its projective bounding box, rounded outwards), as the
  /// server computes a CRTC's extent. For a `scale` it is xrandr's arithmetic: the turned
  /// sides times the 16.16 scale, rounded up. Nil when the transform sends a corner to
  /// infinity or beyond `Int`.
  public func footprint(x: Int = 0, y: Int = 0, width: Int, height: Int, rotation: Rotation) -> Rect? {
    let (tw, th) = rotation.turned(width, height)
    let (w, h) = (Double(tw), Double(th))
    let t = matrix
    guard t.count == 9 else { return nil }
    var xs: [Double] = []
    var ys: [Double] = []
    for (cx, cy) in [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)] {
      let d = t[6] * cx + t[7] * cy + t[8]
      guard d != 0 else { return nil }
      xs.append((t[0] * cx + t[1] * cy + t[2]) / d)
      ys.append((t[3] * cx + t[4] * cy + t[5]) / d)
    }
    guard let x1 = xs.min(), let x2 = xs.max(), let y1 = ys.min(), let y2 = ys.max(),
      let left = Int(exactly: floor(x1)), let right = Int(exactly: ceil(x2)),
      let top = Int(exactly: floor(y1)), let bottom = Int(exactly: ceil(y2))
    else { return nil }
    let (width, widthOverflow) = right.subtractingReportingOverflow(left)
    let (height, heightOverflow) = bottom.subtractingReportingOverflow(top)
    guard !widthOverflow, !heightOverflow else { return nil }
    return Rect(
      x: x.addingReportingOverflow(left).partialValue, y: y.addingReportingOverflow(top).partialValue,
      width: width, height: height)
  }
}

extension Mode {
  /// The size of the screen area this mode covers on a CRTC turned by `rotation` under
  /// `transform` (`CrtcTransform.footprint`); nil when the transform has no finite one.
  public func footprint(_ rotation: Rotation, _ transform: CrtcTransform = .identity) -> (width: Int, height: Int)? {
    transform.footprint(width: width, height: height, rotation: rotation).map { ($0.width, $0.height) }
  }
}

extension ScreenSize {
  /// The largest screen the server takes, within the X protocol's 16-bit coordinates.
  public var largest: (width: Int, height: Int) { (min(maxWidth, Int(Int16.max)), min(maxHeight, Int(Int16.max))) }

  /// Whether a screen of `width` x `height` is within `largest`.
  public func holds(_ width: Int, _ height: Int) -> Bool { width <= largest.width && height <= largest.height }
}

/// `xrandr --scale`'s arithmetic: the matrix holds 16.16 fixed-point numbers
/// (`XDoubleToFixed` truncates); `CrtcTransform.footprint` gives the area it covers.
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
