import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import Testing

/// The placeholder as patches over a colour the server fills: the same pixels as the whole
/// picture drawn at once, for far fewer uploaded.
@Suite struct PlaceholderPictureTests {
  func style(_ text: String) -> PlaceholderStyle {
    var s = PlaceholderStyle()
    s.text = text
    s.background = RGBColor(red: 0x20, green: 0x40, blue: 0x80)
    s.foreground = RGBColor(red: 0xff, green: 0xcc, blue: 0)
    return s
  }

  /// What the server shows: the background, then each patch put at its place.
  func composed(_ picture: PlaceholderPicture) -> [UInt32] {
    var pixels = [UInt32](repeating: picture.background.pixel, count: picture.width * picture.height)
    for patch in picture.patches {
      for y in 0..<patch.image.height {
        for x in 0..<patch.image.width {
          pixels[(patch.y + y) * picture.width + patch.x + x] = patch.image.pixel(x: x, y: y)
        }
      }
    }
    return pixels
  }

  func pixels(_ image: RenderedImage) -> [UInt32] {
    (0..<image.height).flatMap { y in (0..<image.width).map { image.pixel(x: $0, y: y) } }
  }

  @Test(
    arguments: [
      ("HELLO 你好", "VNC-1  ·  1280x1024@60.00", 1280, 1024),
      (String(repeating: "very long placeholder text ", count: 8), "HDMI-1 · 1920x1080@60.00", 640, 480),
      ("<no content>", nil, 1024, 768),
      ("外接显示器", "DP-2", 40, 30),
    ] as [(String, String?, Int, Int)])
  func patchesOverTheBackgroundAreTheWholePicture(text: String, details: String?, width: Int, height: Int) throws {
    let painter = try #require(PlaceholderPainter())
    let content = PlaceholderContent(style: style(text), details: details, width: width, height: height)
    let picture = try #require(painter.picture(content))
    let whole = try #require(painter.render(content))
    #expect((picture.width, picture.height) == (whole.width, whole.height))
    #expect(!picture.patches.isEmpty, "the text is uploaded")
    #expect(composed(picture) == pixels(whole), "the same pixels as the whole picture")
    if width >= 640 {
      #expect(picture.uploadedPixels * 3 < width * height, "\(picture.uploadedPixels) of \(width * height) uploaded")
    }
  }

  @Test func aPainterDrawsTheSamePictureAgainAndAfterOthers() throws {
    let painter = try #require(PlaceholderPainter())
    let first = PlaceholderContent(style: style("ONE"), details: "a", width: 800, height: 600)
    let before = pixels(try #require(painter.render(first)))
    _ = painter.picture(PlaceholderContent(style: style("外接显示器 TWO"), details: nil, width: 1920, height: 1080))
    #expect(pixels(try #require(painter.render(first))) == before, "no state carried from one picture to the next")
  }
}
