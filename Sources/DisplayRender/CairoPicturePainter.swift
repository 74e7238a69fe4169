import DisplayModel
import DisplayPorts

/// The picture port over cairo and pango: one `PlaceholderPainter` for the painter's life,
/// made with the first picture, since making it maps cairo, pango and what they pull in,
/// which a daemon showing no placeholder never needs. Not to be used from two threads at once.
public final class CairoPicturePainter: PicturePainter {
  /// nil when cairo or pango cannot be loaded; not tried again.
  private lazy var painter: PlaceholderPainter? = PlaceholderPainter()

  public init() {}

  /// The style's PNG, read within `ImageError`'s limits and decoded.
  public func image(for style: PlaceholderStyle) -> Result<(any StyleImage)?, ImageError> {
    guard let path = style.image else { return .success(nil) }
    return PlaceholderImage.load(path).map { $0 }
  }

  /// The picture as `PlaceholderPainter.picture` draws it; an image this painter did not
  /// decode is left out.
  public func picture(_ content: PlaceholderContent, image: (any StyleImage)?) -> PlaceholderPicture? {
    painter?.picture(content, image: image as? PlaceholderImage)
  }
}
