import CRender
import DisplayModel
import DisplayPorts

#if canImport(Glibc)
  import Glibc
#endif

/// Draws placeholders with one pango context, layout and font description, made once and
/// reused for every picture (the font map behind them is cairo's shared one): a daemon keeps
/// one for its whole life. Not to be used from two threads at once.
public final class PlaceholderPainter {
  private let context: OpaquePointer
  private let layout: OpaquePointer
  private let font: OpaquePointer

  /// One line of text as laid out: the font size it is drawn at, where the layout's origin
  /// goes and the pixels its ink may touch, in picture coordinates.
  struct Line {
    var text: String
    var pixelSize: Double
    var x: Double
    var y: Double
    var box: PixelBox
  }

  public init?() {
    guard cr_load() != 0, let map = pango_cairo_font_map_get_default(), let context = pango_font_map_create_context(map)
    else {
      return nil
    }
    guard let layout = pango_layout_new(context),
      let font = pango_font_description_from_string(PlaceholderRenderer.fontFamilies)
    else {
      g_object_unref(UnsafeMutableRawPointer(context))
      return nil
    }
    // The font options and transformation of an image surface: those of every picture.
    if let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1) {
      if let cr = cairo_create(surface) {
        pango_cairo_update_context(cr, context)
        cairo_destroy(cr)
      }
      cairo_surface_destroy(surface)
    }
    self.context = context
    self.layout = layout
    self.font = font
  }

  deinit {
    pango_font_description_free(font)
    g_object_unref(UnsafeMutableRawPointer(layout))
    g_object_unref(UnsafeMutableRawPointer(context))
  }

  /// The picture for `content` as the server is to show it: the text lines as patches over
  /// the background colour; with `image` (the style's PNG) the whole picture is one patch.
  public func picture(_ content: PlaceholderContent, image: PlaceholderImage? = nil) -> PlaceholderPicture? {
    let size = PlaceholderRenderer.drawnSize(width: content.width, height: content.height)
    let background = content.style.background
    if image != nil {
      return render(content, image: image).map { PlaceholderPicture(image: $0, background: background) }
    }
    var groups: [(box: PixelBox, lines: [Line])] = []
    for line in lines(content, width: size.width, height: size.height) where !line.box.isEmpty {
      if let i = groups.firstIndex(where: { $0.box.intersects(line.box) }) {
        groups[i] = (groups[i].box.union(line.box), groups[i].lines + [line])
      } else {
        groups.append((line.box, [line]))
      }
    }
    var patches: [PlaceholderPicture.Patch] = []
    for group in groups {
      let b = group.box
      guard let image = RenderedImage(width: b.x1 - b.x0, height: b.y1 - b.y0), let cr = cairo_create(image.surface)
      else { return nil }
      defer { cairo_destroy(cr) }
      paintBackground(cr, background)
      PlaceholderRenderer.setColour(cr, content.style.foreground)
      for line in group.lines { draw(line, cr, originX: b.x0, originY: b.y0) }
      patches.append(.init(x: b.x0, y: b.y0, image: image))
    }
    return PlaceholderPicture(width: size.width, height: size.height, background: background, patches: patches)
  }

  /// The whole picture for `content` in one image, `image` scaled behind the text.
  public func render(_ content: PlaceholderContent, image picture: PlaceholderImage? = nil) -> RenderedImage? {
    let size = PlaceholderRenderer.drawnSize(width: content.width, height: content.height)
    guard let image = RenderedImage(width: size.width, height: size.height), let cr = cairo_create(image.surface)
    else { return nil }
    defer { cairo_destroy(cr) }
    paintBackground(cr, content.style.background)
    if let picture { PlaceholderRenderer.drawImage(cr, picture, width: size.width, height: size.height) }
    PlaceholderRenderer.setColour(cr, content.style.foreground)
    for line in lines(content, width: size.width, height: size.height) { draw(line, cr, originX: 0, originY: 0) }
    return image
  }

  private func paintBackground(_ cr: OpaquePointer, _ colour: RGBColor) {
    PlaceholderRenderer.setColour(cr, colour)
    cairo_paint(cr)
  }

  /// The text, centred and scaled to the picture, and the details line near the bottom.
  private func lines(_ content: PlaceholderContent, width: Int, height: Int) -> [Line] {
    let w = Double(width)
    let h = Double(height)
    var result: [Line] = []
    if let line = lay(content.style.text, size: h / 9, maxWidth: w * 0.9, centreY: h / 2, width: width, height: height)
    {
      result.append(line)
    }
    if let details = content.details,
      let line = lay(
        details, size: max(10, h / 36), maxWidth: w * 0.95, centreY: h - h / 18, width: width, height: height)
    {
      result.append(line)
    }
    return result
  }

  /// Lays out one line centred at `centreY`, shrinking the font until it fits `maxWidth`.
  private func lay(_ text: String, size: Double, maxWidth: Double, centreY: Double, width: Int, height: Int) -> Line? {
    guard !text.isEmpty else { return nil }
    pango_layout_set_text(layout, text, -1)
    var px = size
    var applied = size
    var w: Int32 = 0
    var h: Int32 = 0
    for _ in 0..<4 {
      applied = px
      setSize(px)
      pango_layout_get_pixel_size(layout, &w, &h)
      guard Double(w) > maxWidth, w > 0 else { break }
      px *= maxWidth / Double(w)
    }
    let x = (Double(width) - Double(w)) / 2
    let y = centreY - Double(h) / 2
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_pixel_extents(layout, &ink, &logical)
    // A pixel of margin: antialiasing may touch the pixel beyond the ink's rounded box.
    let box = PixelBox(
      x0: Self.floor(x + Double(ink.x)) - 1, y0: Self.floor(y + Double(ink.y)) - 1,
      x1: Self.floor(x + Double(ink.x) + Double(ink.width)) + 2,
      y1: Self.floor(y + Double(ink.y) + Double(ink.height)) + 2)
    return Line(text: text, pixelSize: applied, x: x, y: y, box: box.clamped(width: width, height: height))
  }

  private func setSize(_ px: Double) {
    pango_font_description_set_absolute_size(font, px * Double(PANGO_SCALE))
    pango_layout_set_font_description(layout, font)
  }

  /// Draws `line` into a surface whose top-left corner is the picture's (`originX`, `originY`):
  /// the same fractions of a pixel as in the whole picture, so the same pixels.
  private func draw(_ line: Line, _ cr: OpaquePointer, originX: Int, originY: Int) {
    pango_layout_set_text(layout, line.text, -1)
    setSize(line.pixelSize)
    cairo_move_to(cr, line.x - Double(originX), line.y - Double(originY))
    pango_cairo_show_layout(cr, layout)
  }

  /// Draws `text` centred horizontally in a `width` x `height` picture at `centreY`, `size`
  /// pixels high, shrunk until it fits `maxWidth` (for `IdentifyRenderer`'s cards).
  func drawText(
    _ cr: OpaquePointer, _ text: String, size: Double, maxWidth: Double, centreY: Double, width: Int, height: Int
  ) {
    guard let line = lay(text, size: size, maxWidth: maxWidth, centreY: centreY, width: width, height: height) else {
      return
    }
    draw(line, cr, originX: 0, originY: 0)
  }

  /// `value` rounded down to an integer, saturating (a hostile size never traps).
  static func floor(_ value: Double) -> Int {
    guard value.isFinite else { return 0 }
    return Int(exactly: value.rounded(.down)) ?? (value < 0 ? Int.min / 2 : Int.max / 2)
  }
}
