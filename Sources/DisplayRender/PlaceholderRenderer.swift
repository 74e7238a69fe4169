import CRender
import DisplayModel

/// The placeholder's geometry and what its drawing shares: the background colour, the
/// optional PNG scaled to fit, the text centred and scaled to the monitor, and the details
/// line near the bottom (drawn by `PlaceholderPainter`).
public enum PlaceholderRenderer {
  /// Fonts tried in order; Noto CJK draws Chinese, Japanese and Korean text.
  static let fontFamilies = "DejaVu Sans, Noto Sans CJK SC, sans-serif"

  /// The most pixels a placeholder is drawn with (a 4K monitor's): a larger monitor gets the
  /// picture scaled down to this, centred on its background colour, so that no client
  /// surface, upload or pixmap grows with whatever size a client asks a CRTC to be.
  public static let maxPixels = 3840 * 2160

  /// The size the picture for a `width` x `height` monitor is drawn at.
  public static func drawnSize(width: Int, height: Int) -> (width: Int, height: Int) {
    let w = max(1, width)
    let h = max(1, height)
    let (area, overflow) = w.multipliedReportingOverflow(by: h)
    guard overflow || area > maxPixels else { return (w, h) }
    let k = (Double(maxPixels) / (Double(w) * Double(h))).squareRoot()
    return (max(1, Int(Double(w) * k)), max(1, Int(Double(h) * k)))
  }

  /// Draws the whole picture for `content`, with `image` (the style's PNG, decoded once)
  /// behind the text; at most `maxPixels` large. A daemon's `CairoPicturePainter` keeps one
  /// `PlaceholderPainter` instead of making one for every picture, as this does.
  public static func render(_ content: PlaceholderContent, image picture: PlaceholderImage? = nil) -> RenderedImage? {
    PlaceholderPainter()?.render(content, image: picture)
  }

  /// Why drawing is impossible (cairo or pango could not be loaded), or nil when it is not.
  public static var unavailable: String {
    cr_load() != 0 ? "" : cr_load_error().map { String(cString: $0) } ?? "cannot load the renderer"
  }

  /// How many glyphs of `text` the placeholder's fonts lack (drawn as boxes): 0 when every
  /// character, CJK included, has a font.
  public static func unknownGlyphs(in text: String) -> Int {
    guard cr_load() != 0, let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1) else { return -1 }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { return -1 }
    defer { cairo_destroy(cr) }
    guard let layout = pango_cairo_create_layout(cr) else { return -1 }
    defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
    guard let font = pango_font_description_from_string(fontFamilies) else { return -1 }
    defer { pango_font_description_free(font) }
    pango_layout_set_font_description(layout, font)
    pango_layout_set_text(layout, text, -1)
    return Int(pango_layout_get_unknown_glyphs_count(layout))
  }

  static func setColour(_ cr: OpaquePointer, _ c: RGBColor) {
    cairo_set_source_rgb(cr, Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255)
  }

  /// Paints the image scaled to fit the monitor, keeping its aspect ratio.
  static func drawImage(_ cr: OpaquePointer, _ picture: PlaceholderImage, width: Int, height: Int) {
    let png = picture.surface
    let iw = Double(picture.width)
    let ih = Double(picture.height)
    guard iw > 0, ih > 0 else { return }
    let scale = min(Double(width) / iw, Double(height) / ih)
    cairo_save(cr)
    cairo_translate(cr, (Double(width) - iw * scale) / 2, (Double(height) - ih * scale) / 2)
    cairo_scale(cr, scale, scale)
    cairo_set_source_surface(cr, png, 0, 0)
    cairo_paint(cr)
    cairo_restore(cr)
  }
}
