/// How a mirror is drawn: zero or more passes into intermediate levels, then one sampling
/// pass into the window; pure.
///
/// `auto` below 0.5 first resamples the source by a ratio r in [0.5, 1) (as one bilinear
/// pass would from 0.5 to 0.75), then halves: a halving samples bilinearly at the shared
/// corner of four pixels, which is exactly their average, so each one is a 2x2 box at
/// bilinear cost; the last halving writes the window.
public struct MirrorPasses: Hashable, Sendable {
  /// An intermediate level: its size and the 3×3 matrix (row-major) taking its coordinates
  /// to the level below's (the root's, for the first).
  public struct Level: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public var transform: [Double]
  }

  /// Levels 1...n; level 0 is the root.
  public var levels: [Level]
  /// The last pass's filter ("bilinear", "nearest" or "convolution") and box kernel.
  public var filter: String
  public var kernel: Int
  /// Window coordinates to the top level's (the root's when there are no levels).
  public var transform: [Double]

  /// For a window rectangle, the rectangle of each level that the last pass reads through
  /// it, down the chain (each rounded out to what the pass above reads) and clipped to the
  /// level; empty when it reads nothing.
  public func levelRects(forWindow r: Rect) -> [Rect] {
    guard !levels.isEmpty, r.width > 0, r.height > 0 else { return [] }
    var rects: [Rect] = []
    var (area, matrix) = (r, transform)
    for level in levels.reversed() {
      guard let xs = Self.reach(area.x, area.width, matrix[0], matrix[2], level.width),
        let ys = Self.reach(area.y, area.height, matrix[4], matrix[5], level.height)
      else { return [] }
      area = Rect(x: xs.lo, y: ys.lo, width: xs.hi - xs.lo, height: ys.hi - ys.lo)
      rects.insert(area, at: 0)
      matrix = level.transform
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

  /// The passes that draw this mirror with `choice`; only `auto` has levels.
  public func passes(_ choice: MirrorFilter) -> MirrorPasses {
    let (name, kernel) = filter(choice)
    guard choice == .auto else { return MirrorPasses(levels: [], filter: name, kernel: kernel, transform: transform) }
    let (kx, ky) = (Self.halvings(scaleX), Self.halvings(scaleY))
    let n = max(kx, ky)
    let x = Self.axis(scaleX, halvings: kx, steps: n, origin: originX, source: source.x, size: source.width)
    let y = Self.axis(scaleY, halvings: ky, steps: n, origin: originY, source: source.y, size: source.height)
    let levels = zip(x.levels, y.levels).map {
      MirrorPasses.Level(width: $0.size, height: $1.size, transform: [$0.a, 0, $0.b, 0, $1.a, $1.b, 0, 0, 1])
    }
    return MirrorPasses(
      levels: levels, filter: name, kernel: kernel, transform: [x.last.a, 0, x.last.b, 0, y.last.a, y.last.b, 0, 0, 1])
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

  /// One axis of the passes, each sampling at `(p + 0.5) * a + b` of the level below:
  /// `steps` levels (the first resamples by r = scale × 2^halvings, then `halvings` halve, then
  /// copies) and the last pass into the window.
  ///
  /// A ratio r from 0.5 to 0.75 moves its samples (by under a third of a pixel) so the first
  /// lands on a pixel corner, as every sample does at 0.5: there they average two pixels or
  /// take one, as a box that wide does; the first halving moves back by as much, so at r =
  /// 2/3 its 2:1 weights make exact 3-pixel boxes.
  static func axis(_ scale: Double, halvings k: Int, steps n: Int, origin: Double, source: Int, size: Int)
    -> (levels: [(size: Int, a: Double, b: Double)], last: (a: Double, b: Double))
  {
    let r = scale * Double(1 << k)
    let corner = r >= 0.5 && r < 0.75 ? 1 - 0.5 / r : 0
    let back = corner > 0 ? 0.5 - r : 0
    guard n > 0 else { return ([], (1 / r, Double(source) - origin / r + corner)) }
    var levels = [(size: max(1, Int((Double(size) * r).rounded(.up))), a: 1 / r, b: Double(source) + corner)]
    for step in stride(from: 2, through: n, by: 1) {
      let below = levels[levels.count - 1].size
      levels.append(step <= k + 1 ? ((below + 1) / 2, 2, step == 2 ? back : 0) : (below, 1, 0))
    }
    let a: Double = k == n ? 2 : 1
    return (levels, (a, -origin * a + (k == 1 && n == 1 ? back : 0)))
  }
}
