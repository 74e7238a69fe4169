import DisplayModel

/// A placeholder as the server is to show it: a colour the server fills by itself, and the
/// few patches that differ from it (the text lines, or the whole picture when a PNG is
/// behind the text), so that only those pixels travel to the server.
public struct PlaceholderPicture {
  /// Pixels (drawn by cairo, or any other image), to be put at `x`, `y` of the picture.
  public struct Patch {
    public let x: Int
    public let y: Int
    public let image: any PixelImage
  }

  public let width: Int
  public let height: Int
  public let background: RGBColor
  public let patches: [Patch]

  /// A picture made of `patches` over `background`.
  public init(width: Int, height: Int, background: RGBColor, patches: [Patch]) {
    self.width = width
    self.height = height
    self.background = background
    self.patches = patches
  }

  /// A picture that is one image, all of it drawn.
  public init(image: any PixelImage, background: RGBColor) {
    self.init(
      width: image.width, height: image.height, background: background, patches: [Patch(x: 0, y: 0, image: image)])
  }

  /// Whether one patch covers the whole picture, so that no background is left to fill.
  public var patchesCoverAll: Bool {
    patches.contains { $0.x <= 0 && $0.y <= 0 && $0.x + $0.image.width >= width && $0.y + $0.image.height >= height }
  }

  /// Pixels uploaded to show it.
  public var uploadedPixels: Int { patches.reduce(0) { $0 + $1.image.width * $1.image.height } }
}

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
