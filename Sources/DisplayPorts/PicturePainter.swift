import DisplayModel

/// A placeholder style's image, read and decoded by the painter that draws it: opaque to the
/// daemon, which keeps one for a config and hands it back with every picture.
public protocol StyleImage: AnyObject {
  /// Equal for equal file contents (within one process): a reload redraws only on a change.
  var fingerprint: Int { get }
}

/// The picture port: turns what a monitor is to show (`PlaceholderContent`: the style, the
/// details line, the size) into the picture a `SurfaceHost` shows. Reading and decoding the
/// style's image is the painter's too, so the daemon does neither I/O nor drawing. A painter
/// loads what it draws with (fonts, libraries) when first asked for a picture, not when made:
/// a daemon whose monitors show nothing or a mirror never loads it.
public protocol PicturePainter: AnyObject {
  /// The style's image, read and decoded; nil when the style names none.
  func image(for style: PlaceholderStyle) -> Result<(any StyleImage)?, ImageError>
  /// The picture for `content`, with `image` (from `image(for:)`) behind the text; nil when
  /// it cannot be drawn.
  func picture(_ content: PlaceholderContent, image: (any StyleImage)?) -> PlaceholderPicture?
}

/// Why a placeholder image cannot be used.
public enum ImageError: Error, Equatable, CustomStringConvertible {
  case unreadable(String, String)
  case notRegular(String)
  case notPNG(String)
  /// Larger than `maxPixels` (or, with no width and height, a file over `maxBytes`).
  case tooLarge(String, width: Int, height: Int)

  /// The largest image file read: a bigger one is refused before any of it is decoded.
  public static let maxBytes = 32 << 20
  /// The most pixels an image may decode to.
  public static let maxPixels = 16 << 20

  public var description: String {
    switch self {
    case .unreadable(let p, let why): return "placeholder image \(p): \(why)"
    case .notRegular(let p): return "placeholder image \(p): not a regular file"
    case .notPNG(let p): return "placeholder image \(p): not a PNG cairo can decode"
    case .tooLarge(let p, let w, let h) where w == 0 && h == 0:
      return "placeholder image \(p): larger than \(Self.maxBytes >> 20) MiB"
    case .tooLarge(let p, let w, let h):
      return "placeholder image \(p): \(w)x\(h) is more than \(Self.maxPixels >> 20) M pixels"
    }
  }
}
