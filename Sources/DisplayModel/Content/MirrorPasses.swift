/// How a mirror is drawn: zero or more 2x2 reductions of the source into intermediate
/// levels (a mip chain), then one sampling pass into the window; pure.
///
/// A halving samples bilinearly at the shared corner of four pixels, which is exactly their
/// average, so each level is a box filter of the one below at bilinear cost.
public struct MirrorPasses: Hashable, Sendable {
  /// The source rectangle on the root window (level 0).
  public var source: Rect
  /// Halvings per axis: the step to level `j` halves an axis while `j` ≤ its count.
  public var halvingsX: Int
  public var halvingsY: Int
  /// The last pass's filter ("bilinear", "nearest" or "convolution") and box kernel.
  public var filter: String
  public var kernel: Int
  /// The 3×3 matrix (row-major) taking window coordinates to the top level's (the root's
  /// when there are no halvings).
  public var transform: [Double]

  /// The intermediate levels, 1...levels; 0 is the root.
  public var levels: Int { max(halvingsX, halvingsY) }

  /// Level `j`'s size: each halving rounds up, so an odd last column is kept.
  public func size(ofLevel j: Int) -> (width: Int, height: Int) {
    var (w, h) = (max(1, source.width), max(1, source.height))
    for step in stride(from: 1, through: j, by: 1) {
      if step <= halvingsX { w = (w + 1) / 2 }
      if step <= halvingsY { h = (h + 1) / 2 }
    }
    return (w, h)
  }

  /// The matrix the step to level `j` samples level `j - 1` with: ×2 on a halved axis, so
  /// each destination pixel's centre lands on the corner its four source pixels share; level
  /// 1 also moves to the source's place on the root.
  public func halving(toLevel j: Int) -> [Double] {
    let (sx, sy) = (j <= halvingsX ? 2.0 : 1.0, j <= halvingsY ? 2.0 : 1.0)
    let (tx, ty) = j == 1 ? (Double(source.x), Double(source.y)) : (0, 0)
    return [sx, 0, tx, 0, sy, ty, 0, 0, 1]
  }

  /// For a window rectangle, the rectangle of each level 1...levels that the last pass reads
  /// through it, rounded out to every halving's alignment and clipped to the level; empty
  /// when it reads nothing.
  public func levelRects(forWindow r: Rect) -> [Rect] {
    guard levels > 0, r.width > 0, r.height > 0 else { return [] }
    let top = size(ofLevel: levels)
    guard var xs = Self.reach(r.x, r.width, transform[0], transform[2], top.width),
      var ys = Self.reach(r.y, r.height, transform[4], transform[5], top.height)
    else { return [] }
    var rects = [Rect(x: xs.lo, y: ys.lo, width: xs.hi - xs.lo, height: ys.hi - ys.lo)]
    for j in stride(from: levels - 1, through: 1, by: -1) {
      let size = size(ofLevel: j)
      if j + 1 <= halvingsX { xs = (min(size.width, xs.lo * 2), min(size.width, xs.hi * 2)) }
      if j + 1 <= halvingsY { ys = (min(size.height, ys.lo * 2), min(size.height, ys.hi * 2)) }
      rects.insert(Rect(x: xs.lo, y: ys.lo, width: xs.hi - xs.lo, height: ys.hi - ys.lo), at: 0)
    }
    return rects
  }

  /// The pixels `[lo, hi)` of a level of `size` that bilinear samples at `(p + 0.5) * a + b`
  /// read for `p` in `[start, start + count)`, a pixel wider each side for rounding.
  static func reach(_ start: Int, _ count: Int, _ a: Double, _ b: Double, _ size: Int) -> (lo: Int, hi: Int)? {
    let u0 = (Double(start) + 0.5) * a + b - 0.5
    let u1 = (Double(start + count) - 0.5) * a + b - 0.5
    let lo = max(0, saturated(min(u0, u1).rounded(.down)) - 1)
    let hi = min(size, saturated(max(u0, u1).rounded(.down)) + 3)
    return lo < hi ? (lo, hi) : nil
  }

  /// `v` as an Int, bounded well inside X's coordinate range (NaN is 0).
  static func saturated(_ v: Double) -> Int {
    guard !v.isNaN else { return 0 }
    return Int(min(max(v, -1e9), 1e9))
  }
}

extension MirrorGeometry {
  /// The most halvings `auto` makes: a 1/256 mirror is already a thumbnail.
  public static let maxHalvings = 8

  /// The passes that draw this mirror with `choice`; only `auto` halves.
  public func passes(_ choice: MirrorFilter) -> MirrorPasses {
    let (name, kernel) = filter(choice)
    guard choice == .auto else {
      return MirrorPasses(
        source: source, halvingsX: 0, halvingsY: 0, filter: name, kernel: kernel, transform: transform)
    }
    let (kx, ky) = (Self.halvings(scaleX), Self.halvings(scaleY))
    let onRoot = max(kx, ky) == 0
    let x = Self.axis(scaleX, kx, origin: originX, source: onRoot ? source.x : 0)
    let y = Self.axis(scaleY, ky, origin: originY, source: onRoot ? source.y : 0)
    return MirrorPasses(
      source: source, halvingsX: kx, halvingsY: ky, filter: name, kernel: kernel,
      transform: [x.a, 0, x.b, 0, y.a, y.b, 0, 0, 1])
  }

  /// How many halvings bring `scale` to 0.5 or more.
  static func halvings(_ scale: Double) -> Int {
    var (k, s) = (0, scale)
    while s < 0.5, k < maxHalvings, s > 0 {
      k += 1
      s *= 2
    }
    return k
  }

  /// One axis of the last pass: window `p` samples the level at `(p + 0.5) * a + b`. Straight
  /// from the root between 0.5 and 0.75 the samples move (by under a third of a source pixel)
  /// so the first lands on a pixel corner, as every sample does at exactly 0.5: there they
  /// average two pixels or take one, as a box that wide does.
  static func axis(_ scale: Double, _ k: Int, origin: Double, source: Int) -> (a: Double, b: Double) {
    let level = scale * Double(1 << k)
    let a = 1 / level
    let corner = k == 0 && level >= 0.5 && level < 0.75 ? 1 - 0.5 * a : 0
    return (a, Double(source) - origin * a + corner)
  }
}
