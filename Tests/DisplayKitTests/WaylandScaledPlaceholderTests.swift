import DisplayModel
import DisplayRender
import Testing
import XRig

/// The daemon's placeholder on a scaled sway head: the layer surface's buffer is the head's
/// pixels (1920x1080 at wlroots scale 2, config `scale: 0.5`) shown over its logical size, so
/// the picture must be drawn at those pixels to cover the head as it covers an unscaled one.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandScaledPlaceholderTests {
  static let background: UInt32 = 0x12AB34

  static let config = """
    {
      placeholder: { background: "#12ab34", foreground: "#ffffff", details: false, text: "PLACEHOLDER" },
      monitors: [{ match: { output: "HEADLESS-*" }, scale: 0.5 }],
    }
    """

  /// The smallest box holding every pixel that is not `background`: (x0, y0, x1, y1), x1 and
  /// y1 exclusive; nil when there is none.
  static func ink(width: Int, height: Int, _ pixel: (Int, Int) -> UInt32?) -> [Int]? {
    var box: [Int]?
    for y in 0..<height {
      for x in 0..<width where pixel(x, y) != background {
        if let b = box {
          box = [min(b[0], x), min(b[1], y), max(b[2], x + 1), max(b[3], y + 1)]
        } else {
          box = [x, y, x + 1, y + 1]
        }
      }
    }
    return box
  }

  /// The text is where the renderer puts it in a 1920x1080 picture (a logical-size picture
  /// centred in the buffer had it at half the size, in the middle).
  @Test func atScaleHalfThePlaceholderCoversTheWholeHead() throws {
    let sway = try SwayCompositor(background: WaylandDaemonTests.desktop)
    let runtime = try runtimeDirectory()
    let daemon = try WaylandDaemonTests.start(sway, config: Self.config, runtime: runtime)
    let name = try sway.plug()
    #expect(
      try eventually(within: 5) { try sway.outputs().first { $0.name == name }?.rect.width == 960 }, "\(daemon.log)")
    var shot = try sway.screenshot(name)
    _ = try eventually(within: 5) {
      shot = try sway.screenshot(name)
      return shot.pixel(x: 0, y: 0) == Self.background && shot.pixel(x: 1919, y: 1079) == Self.background
    }
    #expect(shot.width == 1920 && shot.height == 1080)
    var style = PlaceholderStyle()
    style.text = "PLACEHOLDER"
    style.background = RGBColor(red: 0x12, green: 0xAB, blue: 0x34)
    style.foreground = RGBColor(red: 255, green: 255, blue: 255)
    style.details = false
    let reference = try #require(
      PlaceholderRenderer.render(PlaceholderContent(style: style, details: nil, width: 1920, height: 1080)))
    let expected = try #require(Self.ink(width: 1920, height: 1080) { reference.pixel(x: $0, y: $1) })
    let drawn = try #require(Self.ink(width: shot.width, height: shot.height) { shot.pixel(x: $0, y: $1) })
    #expect(zip(drawn, expected).allSatisfy { abs($0 - $1) <= 2 }, "drawn \(drawn), rendered \(expected)")
    #expect(daemon.isRunning)
  }
}
