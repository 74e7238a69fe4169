/// A rectangle of whole pixels, `x0..<x1` by `y0..<y1`.
struct PixelBox: Equatable {
  var x0, y0, x1, y1: Int

  var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

  func union(_ other: PixelBox) -> PixelBox {
    PixelBox(x0: min(x0, other.x0), y0: min(y0, other.y0), x1: max(x1, other.x1), y1: max(y1, other.y1))
  }

  func intersects(_ other: PixelBox) -> Bool {
    x0 < other.x1 && other.x0 < x1 && y0 < other.y1 && other.y0 < y1
  }

  /// The part inside a `width` x `height` picture.
  func clamped(width: Int, height: Int) -> PixelBox {
    PixelBox(x0: max(0, x0), y0: max(0, y0), x1: min(width, x1), y1: min(height, y1))
  }
}
