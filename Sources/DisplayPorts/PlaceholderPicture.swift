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

    /// `image`, to be put at `x`, `y`.
    public init(x: Int, y: Int, image: any PixelImage) {
      self.x = x
      self.y = y
      self.image = image
    }
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
