/// Everything a placeholder picture depends on: equal values draw equal pictures, so a window
/// is redrawn only when this changes.
public struct PlaceholderContent: Hashable, Sendable {
  public var style: PlaceholderStyle
  /// The details line (output, monitor name, mode), nil when `details` is off.
  public var details: String?
  public var width: Int
  public var height: Int
  /// The output's pixels per unit of `width` and `height`: 1 where they are its pixels (X,
  /// an unscaled head); on a scaled Wayland head (a logical size) the picture is drawn at
  /// this many, so that the compositor shows it pixel for pixel over the whole head.
  public var density: Double

  public init(style: PlaceholderStyle, details: String?, width: Int, height: Int, density: Double = 1) {
    self.style = style
    self.details = details
    self.width = width
    self.height = height
    self.density = density
  }

  /// The same picture at the output's pixels: `width` and `height` times `density`,
  /// saturating; itself where the density is 1.
  public var atDensity: PlaceholderContent {
    guard density != 1 else { return self }
    func scaled(_ n: Int) -> Int {
      let v = (Double(n) * density).rounded()
      return v.isFinite ? Int(exactly: min(max(v, 1), Double(1 << 20))) ?? n : n
    }
    return PlaceholderContent(style: style, details: details, width: scaled(width), height: scaled(height))
  }
}
