#if canImport(Glibc)
  import Glibc
#endif

/// The one footprint computation, for every backend's heads and the pictures a server scans out.
public enum Footprint {
  /// The area a picture of `width` x `height` (already turned) at (`x`, `y`) covers mapped by
  /// the 3x3 projective `matrix` (row-major): its bounding box, rounded outwards. Nil when
  /// the matrix sends a corner to infinity or beyond `Int`.
  public static func extent(x: Int, y: Int, width: Int, height: Int, matrix t: [Double]) -> Rect? {
    let (w, h) = (Double(width), Double(height))
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

  /// The size `extent` gives for the scale matrix `[sx, 0, 0, 0, sy, 0, 0, 0, 1]`, by the
  /// same arithmetic without the matrix and corner arrays: a head's area is asked for
  /// many times per event.
  public static func scaledSize(width: Int, height: Int, sx: Double, sy: Double) -> (width: Int, height: Int)? {
    let (x, y) = (sx * Double(width), sy * Double(height))
    guard let left = Int(exactly: floor(min(0, x))), let right = Int(exactly: ceil(max(0, x))),
      let top = Int(exactly: floor(min(0, y))), let bottom = Int(exactly: ceil(max(0, y)))
    else { return nil }
    let (w, widthOverflow) = right.subtractingReportingOverflow(left)
    let (h, heightOverflow) = bottom.subtractingReportingOverflow(top)
    guard !widthOverflow, !heightOverflow else { return nil }
    return (w, h)
  }
}

/// The steps a backend keeps a scale in: 16.16 fixed point (the X server's), `wl_fixed`'s 24.8.
public enum ScaleQuantum {
  public static let fixedPoint = 65536
  public static let wlFixed = 256
}

extension Transform {
  /// The size of the area a `width` x `height` mode covers turned by this transform, then
  /// scaled by the config's `scale` in the backend's steps of 1/`quantum` (`Footprint`), so
  /// that a head is placed as the server will show it. Nil for a scale that is not positive
  /// and finite.
  public func footprint(width: Int, height: Int, scale: Double, quantum: Int = ScaleQuantum.fixedPoint) -> (
    width: Int, height: Int
  )? {
    guard let s = Self.quantized(scale, quantum) else { return nil }
    let (tw, th) = swapsAxes ? (height, width) : (width, height)
    return Footprint.scaledSize(width: tw, height: th, sx: s, sy: s)
  }

  /// `scale` in steps of 1/`quantum`, truncated (as the X library does); nil when it is not a
  /// positive, finite number of steps.
  public static func quantized(_ scale: Double, _ quantum: Int) -> Double? {
    let q = Double(max(1, quantum))
    guard scale.isFinite, scale > 0, let steps = Int(exactly: (scale * q).rounded(.towardZero)), steps > 0 else {
      return nil
    }
    return Double(steps) / q
  }
}

extension ScreenSize {
  /// The largest screen the server takes, within the X protocol's 16-bit coordinates.
  public var largest: (width: Int, height: Int) { (min(maxWidth, Int(Int16.max)), min(maxHeight, Int(Int16.max))) }

  /// Whether a screen of `width` x `height` is within `largest`.
  public func holds(_ width: Int, _ height: Int) -> Bool { width <= largest.width && height <= largest.height }
}
