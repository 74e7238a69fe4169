import CRender
import DisplayModel

/// Draws `displayd identify`'s card: the output's name large, then the monitor's name and
/// mode, centred on a plain background with a border, with the placeholder's fonts.
public enum IdentifyRenderer {
  /// The card's colours: a strong blue no desktop is likely to match, white text.
  public static let background = RGBColor(red: 0x1F, green: 0x4E, blue: 0x9A)
  public static let foreground = RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF)

  /// The card for `title` and `lines`, `width` x `height` (capped like the placeholder),
  /// with the title `titleHeight` pixels high at full size.
  public static func render(title: String, lines: [String], width: Int, height: Int, titleHeight: Double)
    -> RenderedImage?
  {
    let size = PlaceholderRenderer.drawnSize(width: width, height: height)
    guard let painter = PlaceholderPainter(), let image = RenderedImage(width: size.width, height: size.height),
      let cr = cairo_create(image.surface)
    else { return nil }
    defer { cairo_destroy(cr) }
    // Everything scales with the cap, so a capped card looks the same, only smaller.
    let k = Double(size.height) / Double(max(1, height))
    let w = Double(size.width)
    let h = Double(size.height)
    PlaceholderRenderer.setColour(cr, background)
    cairo_paint(cr)
    PlaceholderRenderer.setColour(cr, foreground)
    let border = max(2, h / 60)
    cairo_set_line_width(cr, border)
    cairo_rectangle(cr, border / 2, border / 2, w - border, h - border)
    cairo_stroke(cr)
    let big = titleHeight * k
    let small = big / 3
    // The title and the lines as one block, centred.
    let step = small * 1.5
    var y = (h - big - step * Double(lines.count)) / 2 + big / 2
    painter.drawText(cr, title, size: big, maxWidth: w * 0.9, centreY: y, width: size.width, height: size.height)
    y += big / 2 + step / 2 + small * 0.2
    for line in lines {
      painter.drawText(cr, line, size: small, maxWidth: w * 0.9, centreY: y, width: size.width, height: size.height)
      y += step
    }
    return image
  }
}
