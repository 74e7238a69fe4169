import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplayService
import DisplaySupport
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

@Suite struct PlaceholderRendererTests {
  func style(_ text: String, image: String? = nil) -> PlaceholderStyle {
    var s = PlaceholderStyle()
    s.text = text
    s.background = RGBColor(red: 0x20, green: 0x40, blue: 0x80)
    s.foreground = RGBColor(red: 0xff, green: 0xcc, blue: 0)
    s.image = image
    return s
  }

  func foregroundPixels(_ image: RenderedImage, row y: Int) -> Int {
    (0..<image.width).filter { image.pixel(x: $0, y: y) == 0xffcc00 }.count
  }

  @Test func cjkTextHasAFontForEveryGlyph() {
    for text in ["外接显示器", "HELLO 你好", "외부 모니터", "外部モニター", "<no content>"] {
      #expect(PlaceholderRenderer.unknownGlyphs(in: text) == 0, "\(text)")
    }
    #expect(
      PlaceholderRenderer.unknownGlyphs(in: "\u{E000}") == 1, "a private-use character has no glyph: the count works")
  }

  @Test func textIsCentredAndCJKRenders() throws {
    for text in ["<no content>", "外接显示器"] {
      let image = try #require(
        PlaceholderRenderer.render(.init(style: style(text), details: nil, width: 640, height: 480)))
      #expect(image.pixel(x: 0, y: 0) == 0x204080 && image.pixel(x: 639, y: 479) == 0x204080)
      let rows = (200..<280).map { foregroundPixels(image, row: $0) }
      #expect(rows.reduce(0, +) > 200, "\(text): glyph pixels around the centre")
      #expect((0..<100).allSatisfy { foregroundPixels(image, row: $0) == 0 }, "\(text): nothing near the top")
    }
  }

  @Test func longTextShrinksToFitAndDetailsGoNearTheBottom() throws {
    let long = String(repeating: "very long placeholder text ", count: 8)
    let image = try #require(
      PlaceholderRenderer.render(
        .init(style: style(long), details: "HDMI-1 · 1920x1080@60.00", width: 640, height: 480)))
    for y in 0..<480 {
      #expect(
        image.pixel(x: 0, y: y) == 0x204080 && image.pixel(x: 639, y: y) == 0x204080, "text stays inside at row \(y)")
    }
    #expect((440..<470).map { foregroundPixels(image, row: $0) }.reduce(0, +) > 20, "details line near the bottom")
  }

  @Test func aPNGIsScaledToFitBehindTheText() throws {
    let dir = try makeTempDirectory("displayd-png")
    let red = try #require(RenderedImage.blank(width: 100, height: 100))
    red.withMutablePixels { data, stride in
      for y in 0..<100 {
        for x in 0..<100 { data.storeBytes(of: UInt32(0xff0000), toByteOffset: y * stride + x * 4, as: UInt32.self) }
      }
    }
    #expect(red.writePNG(to: dir + "/red.png"))
    let png = try PlaceholderImage.load(dir + "/red.png").get()
    let image = try #require(
      PlaceholderRenderer.render(
        .init(style: style("", image: dir + "/red.png"), details: nil, width: 640, height: 480), image: png))
    // A square into 640x480: 480x480 centred, bars of 80 px left and right.
    #expect(image.pixel(x: 320, y: 10) == 0xff0000 && image.pixel(x: 85, y: 240) == 0xff0000)
    #expect(image.pixel(x: 40, y: 240) == 0x204080 && image.pixel(x: 600, y: 240) == 0x204080)
    guard case .failure(.unreadable(let path, _)) = PlaceholderImage.load(dir + "/none.png") else {
      Issue.record("a missing image is an error that names it")
      return
    }
    #expect(path == dir + "/none.png")
  }

  @Test func anImageThatIsNotARegularFileOrClaimsToBeHugeIsRefusedUndecoded() throws {
    let dir = try makeTempDirectory("displayd-png")
    #expect(mkfifo(dir + "/fifo.png", 0o600) == 0)
    #expect(PlaceholderImage.load(dir + "/fifo.png").failure == .notRegular(dir + "/fifo.png"))
    #expect(PlaceholderImage.load("/dev/zero").failure == .notRegular("/dev/zero"))
    try Data(pngHeader(width: 32767, height: 32767)).write(to: URL(fileURLWithPath: dir + "/huge.png"))
    #expect(
      PlaceholderImage.load(dir + "/huge.png").failure == .tooLarge(dir + "/huge.png", width: 32767, height: 32767))
    try Data([0x89, 0x50, 0x4E]).write(to: URL(fileURLWithPath: dir + "/short.png"))
    #expect(PlaceholderImage.load(dir + "/short.png").failure == .notPNG(dir + "/short.png"))
  }

  @Test func aHugeMonitorIsDrawnAtMostAt4KPixels() throws {
    #expect(PlaceholderRenderer.drawnSize(width: 1920, height: 1080) == (1920, 1080))
    #expect(PlaceholderRenderer.drawnSize(width: 3840, height: 2160) == (3840, 2160))
    let big = PlaceholderRenderer.drawnSize(width: 16384, height: 16384)
    #expect(big.width * big.height <= PlaceholderRenderer.maxPixels && big.width == big.height && big.width > 2000)
    let wide = PlaceholderRenderer.drawnSize(width: 32767, height: 1)
    #expect(wide.height == 1 && wide.width <= PlaceholderRenderer.maxPixels)
    #expect(PlaceholderRenderer.drawnSize(width: 0, height: 0) == (1, 1))
    #expect(PlaceholderRenderer.drawnSize(width: Int.max, height: Int.max).width >= 1)
    let image = try #require(
      PlaceholderRenderer.render(.init(style: style("big"), details: nil, width: 16384, height: 16384)))
    #expect(image.width * image.height <= PlaceholderRenderer.maxPixels)
  }
}

@Suite struct LoggerTests {
  @Test func journalGetsPriorityPrefixesAndLevelsFilter() {
    final class Lines: @unchecked Sendable { var all: [String] = [] }
    let lines = Lines()
    let journal = Logger(level: .info, journal: true) { lines.all.append($0) }
    journal.error("bad")
    journal.warning("hm")
    journal.info("ok")
    journal.debug("noise")
    #expect(lines.all == ["<3>bad\n", "<4>hm\n", "<6>ok\n"])
    lines.all = []
    let plain = Logger(level: .debug, journal: false) { lines.all.append($0) }
    plain.debug("x")
    #expect(lines.all == ["displayd[debug]: x\n"])
    #expect(LogLevel(name: "warn") == .warning && LogLevel(name: "loud") == nil)
  }
}

extension Result {
  /// The error, nil on success.
  var failure: Failure? {
    if case .failure(let e) = self { return e }
    return nil
  }
}
