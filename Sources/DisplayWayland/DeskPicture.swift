import DisplayModel
import DisplayPorts
import DisplayRender

/// A screenshot composed from outputs' captures, as `grim` composes one: each output's
/// buffer turned by its transform (and `y_invert`) into its logical rectangle, the desk the
/// rectangles' bounds, drawn at the largest output's pixels per logical pixel (1 where every
/// output is at scale 1: one screen pixel each, as on X). Pure: values in, pixels out.
public struct DeskPicture: Equatable, Sendable {
  /// One output's part: its capture, its transform and its logical rectangle.
  public struct Part: Sendable {
    public var pixels: OutputPixels
    public var transform: Transform
    public var rect: Rect

    public init(pixels: OutputPixels, transform: Transform, rect: Rect) {
      (self.pixels, self.transform, self.rect) = (pixels, transform, rect)
    }
  }

  /// The largest side composed (cairo's limit for the PNG).
  public static let maximumSide = 32767
  /// The most pixels composed (512 MiB of them: three 8K monitors fit), whatever places and
  /// sizes a compositor reports.
  public static let maximumPixels = 1 << 27

  /// The desk's area in logical coordinates.
  public var bounds: Rect
  /// Picture pixels per logical pixel.
  public var scale: Double
  public var width: Int
  public var height: Int
  /// 0xRRGGBB, rows top down; black where no output is.
  public var pixels: [UInt32]

  /// The parts composed; nil without a part of any size, or for a picture too large.
  public init?(_ parts: [Part]) {
    let parts = parts.filter {
      $0.rect.width > 0 && $0.rect.height > 0 && $0.pixels.width > 0 && $0.pixels.height > 0
        && $0.pixels.pixels.count == $0.pixels.width * $0.pixels.height
    }
    guard let first = parts.first else { return nil }
    let bounds = parts.dropFirst().reduce(first.rect) { Self.union($0, $1.rect) }
    let scale = parts.map(Self.density).max() ?? 1
    let w = (Double(bounds.width) * scale).rounded()
    let h = (Double(bounds.height) * scale).rounded()
    guard w >= 1, h >= 1, w <= Double(Self.maximumSide), h <= Double(Self.maximumSide),
      w * h <= Double(Self.maximumPixels)
    else { return nil }
    (self.bounds, self.scale, width, height) = (bounds, scale, Int(w), Int(h))
    pixels = Array(repeating: 0, count: width * height)
    for part in parts { draw(part) }
  }

  /// A part's buffer pixels per logical pixel along its logical width.
  static func density(_ part: Part) -> Double {
    let across = part.transform.swapsAxes ? part.pixels.height : part.pixels.width
    return Double(across) / Double(part.rect.width)
  }

  static func union(_ a: Rect, _ b: Rect) -> Rect {
    let x0 = min(a.x, b.x)
    let y0 = min(a.y, b.y)
    let x1 = max(a.x.addingReportingOverflow(a.width).partialValue, b.x.addingReportingOverflow(b.width).partialValue)
    let y1 = max(a.y.addingReportingOverflow(a.height).partialValue, b.y.addingReportingOverflow(b.height).partialValue)
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// Samples the part's buffer at the centre of each picture pixel its rectangle covers.
  private mutating func draw(_ part: Part) {
    let r = part.rect
    let left = Double(r.x - bounds.x)
    let top = Double(r.y - bounds.y)
    let x0 = max(0, Int((left * scale).rounded()))
    let x1 = min(width, Int(((left + Double(r.width)) * scale).rounded()))
    let y0 = max(0, Int((top * scale).rounded()))
    let y1 = min(height, Int(((top + Double(r.height)) * scale).rounded()))
    guard x1 > x0, y1 > y0 else { return }
    let map = BufferMap(part)
    let source = part.pixels
    let (width, scale) = (width, scale)
    // The common case, an unturned output at the picture's density, copies row by row.
    let plain =
      part.transform == .normal && !source.yInverted && map.perX == scale && map.perY == scale
      && x1 - x0 == source.width && y1 - y0 == source.height
    source.pixels.withUnsafeBufferPointer { from in
      pixels.withUnsafeMutableBufferPointer { to in
        for y in y0..<y1 {
          if plain {
            let row = (y - y0) * source.width
            (to.baseAddress! + y * width + x0).update(from: from.baseAddress! + row, count: source.width)
            continue
          }
          let v = (Double(y) + 0.5) / scale - top
          for x in x0..<x1 {
            let (bx, by) = map.point(u: (Double(x) + 0.5) / scale - left, v: v)
            to[y * width + x] = from[by * source.width + bx]
          }
        }
      }
    }
  }
}

extension DeskPicture {
  /// Writes the picture as a PNG file (with the renderer's cairo); false when it cannot.
  public func writePNG(to path: String) -> Bool {
    RenderedImage.of(pixels: pixels, width: width, height: height)?.writePNG(to: path) ?? false
  }
}

/// Where a point of an output's logical rectangle lies in its buffer: the transform's flip,
/// then its quarter turns undone about the centre, then the buffer's pixels per logical
/// pixel (and `y_invert`).
struct BufferMap {
  let part: DeskPicture.Part
  let turns: Int
  let flipped: Bool
  let perX: Double
  let perY: Double

  init(_ part: DeskPicture.Part) {
    self.part = part
    turns = part.transform.rawValue & 3
    flipped = part.transform.isFlipped
    // Buffer pixels per logical unit along the buffer's own axes.
    let (across, down) =
      part.transform.swapsAxes ? (part.rect.height, part.rect.width) : (part.rect.width, part.rect.height)
    perX = Double(part.pixels.width) / Double(max(1, across))
    perY = Double(part.pixels.height) / Double(max(1, down))
  }

  /// The buffer pixel under logical point `u`, `v` of the rectangle (clamped inside).
  func point(u: Double, v: Double) -> (x: Int, y: Int) {
    var a = u - Double(part.rect.width) / 2
    let b = v - Double(part.rect.height) / 2
    if flipped { a = -a }
    let (p, q): (Double, Double)
    switch turns {
    case 1: (p, q) = (b, -a)
    case 2: (p, q) = (-a, -b)
    case 3: (p, q) = (-b, a)
    default: (p, q) = (a, b)
    }
    let w = part.pixels.width
    let h = part.pixels.height
    let bx = p * perX + Double(w) / 2
    let by = (part.pixels.yInverted ? -q : q) * perY + Double(h) / 2
    return (min(max(Int(bx.rounded(.down)), 0), w - 1), min(max(Int(by.rounded(.down)), 0), h - 1))
  }
}
