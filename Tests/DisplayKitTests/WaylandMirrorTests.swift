import DisplayModel
import DisplayPorts
import Foundation
import Testing
import XRig

@testable import DisplayRender
@testable import DisplayWayland

/// Mirrors on sway 1.10 through screencopy: the pixels of the source scaled onto another
/// output (PSNR against the source's own screenshot scaled), no frames while the source is
/// still, one when it changes, and the source unplugged under a mirror.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandMirrorTests {
  typealias T = WaylandSurfacesTests

  /// Grey blocks of 40 pixels, each its own level, over the whole of a 1280x720 head.
  final class BlocksImage: PixelImage {
    let width = 1280
    let height = 720
    private var pixels: [UInt32]
    init() {
      var p = [UInt32](repeating: 0, count: 1280 * 720)
      for y in 0..<720 {
        for x in 0..<1280 {
          let level = UInt32((x / 40 * 37 + y / 40 * 91) % 256)
          p[y * 1280 + x] = level * 0x010101
        }
      }
      pixels = p
    }
    func withPixels<R>(_ body: (UnsafeRawPointer, Int) -> R) -> R {
      pixels.withUnsafeBytes { body($0.baseAddress!, width * 4) }
    }
  }

  static func spec(_ head: String, _ rect: Rect) -> SurfaceSpec {
    SurfaceSpec(head: head, rect: rect, level: .normal, background: RGBColor(red: 0, green: 0, blue: 0))
  }

  static func request(_ source: String, from rect: Rect, to width: Int, _ height: Int, _ scale: MirrorScale)
    -> MirrorRequest
  {
    MirrorRequest(
      source: source, geometry: MirrorGeometry(source: rect, width: width, height: height, scale: scale),
      filter: .auto, cursor: false)
  }

  /// PSNR in dB of `mirror` against `source` scaled to it by nearest neighbour, on grey.
  static func psnr(_ mirror: RGBImage, _ source: RGBImage) -> Double {
    var (sum, count) = (0.0, 0)
    let grey = { (p: UInt32?) in Double((p ?? 0) & 0xFF) }
    for y in stride(from: 0, to: mirror.height, by: 2) {
      for x in stride(from: 0, to: mirror.width, by: 2) {
        let d =
          grey(mirror.pixel(x: x, y: y))
          - grey(source.pixel(x: x * source.width / mirror.width, y: y * source.height / mirror.height))
        sum += d * d
        count += 1
      }
    }
    guard sum > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(count)))
  }

  @Test func aMirrorShowsTheSourceScaledAndCopiesNothingWhileItIsStill() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    let host = try T.host(sway)
    #expect(host.canMirror)
    let source = try host.open(Self.spec("HEADLESS-1", Rect(x: 0, y: 0, width: 1280, height: 720)))
    try host.show(PlaceholderPicture(image: BlocksImage(), background: RGBColor(red: 0, green: 0, blue: 0)), on: source)
    #expect(try T.waitFor(host) { host.isConfigured(source) })
    let original = try T.screenshot(sway, "HEADLESS-1") { $0.pixel(x: 40, y: 0) == 0x252525 }
    #expect(original.pixel(x: 40, y: 0) == 0x252525)

    let before = WaylandSurfaces.objectsOnThisThread
    let mirror = try host.open(Self.spec(name, Rect(x: 1280, y: 0, width: 1920, height: 1080)))
    let wanted = Self.request("HEADLESS-1", from: Rect(x: 0, y: 0, width: 1280, height: 720), to: 1920, 1080, .fit)
    #expect(host.mirror(wanted, on: mirror))
    #expect(try T.waitFor(host) { host.frames >= 1 })
    let shot = try T.screenshot(sway, name) { Self.psnr($0, original) > 30 }
    let score = Self.psnr(shot, original)
    // sway's pixman renderer scales this 1.5x by nearest neighbour: equal pixels, infinite.
    print("mirror PSNR against the source scaled: \(score) dB")
    #expect(score > 30)

    // Still: the compositor answers copy_with_damage only on damage.
    let still = host.frames
    #expect(try !T.waitFor(host, within: 1) { host.frames != still })
    #expect(host.frames == still)

    let white = RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    try host.show(PlaceholderPicture(width: 1280, height: 720, background: white, patches: []), on: source)
    #expect(try T.waitFor(host) { host.frames > still })
    let changed = try T.screenshot(sway, name) { $0.pixel(x: 960, y: 540) == 0xFFFFFF }
    #expect(T.corners(changed) == Array(repeating: 0xFFFFFF, count: 5))

    host.close(mirror)
    try host.roundtrip()
    #expect(WaylandSurfaces.objectsOnThisThread == before)
    host.close(source)
  }

  /// The source unplugged under a mirror: the mirror stops and says so, its surface stays
  /// (showing its background), and only the output's own proxy is gone from the count.
  @Test func theSourceUnpluggedUnderAMirrorStopsIt() throws {
    let sway = try SwayCompositor()
    let target = try sway.plug()
    let gone = try sway.plug()
    let host = try T.host(sway)
    let before = WaylandSurfaces.objectsOnThisThread
    let mirror = try host.open(Self.spec(target, Rect(x: 1280, y: 0, width: 1920, height: 1080)))
    let wanted = Self.request(gone, from: Rect(x: 3200, y: 0, width: 1920, height: 1080), to: 1920, 1080, .stretch)
    #expect(host.mirror(wanted, on: mirror))
    #expect(try T.waitFor(host) { host.frames >= 1 })
    try sway.unplug(gone)
    var events: [SurfaceEvent] = []
    #expect(
      try T.waitFor(host) {
        events += host.takeEvents()
        return !events.isEmpty
      })
    #expect(events == [.mirrorSourceLost(mirror)])
    #expect(host.openSurfaces == [mirror])
    host.close(mirror)
    try host.roundtrip()
    #expect(WaylandSurfaces.objectsOnThisThread == before - 1)
  }

  @Test func aMirrorOfAnOutputThatIsNotThereIsRefused() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let host = try T.host(sway)
    let mirror = try host.open(Self.spec(name, Rect(x: 1280, y: 0, width: 1920, height: 1080)))
    let wanted = Self.request("HEADLESS-9", from: Rect(x: 0, y: 0, width: 1280, height: 720), to: 1920, 1080, .fit)
    #expect(!host.mirror(wanted, on: mirror))
    #expect(!host.mirror(wanted, on: SurfaceID(rawValue: 999)))
    host.close(mirror)
  }

  /// `fill` shows the middle of the source (1280x1024 into 16:9: 720 rows from row 152);
  /// `fit` and `stretch` all of it; the crop never leaves the buffer.
  @Test func theViewportCropsForFillOnly() {
    let source = Rect(x: 0, y: 0, width: 1280, height: 1024)
    let fill = MirrorStream.crop(
      MirrorGeometry(source: source, width: 1920, height: 1080, scale: .fill), bufferWidth: 1280, bufferHeight: 1024)
    #expect(fill.x == 0 && fill.y == 152 * 256 && fill.width == 1280 * 256 && fill.height == 720 * 256)
    for scale in [MirrorScale.fit, .stretch] {
      let all = MirrorStream.crop(
        MirrorGeometry(source: source, width: 1920, height: 1080, scale: scale), bufferWidth: 1280, bufferHeight: 1024)
      #expect(all.x == 0 && all.y == 0 && all.width == 1280 * 256 && all.height == 1024 * 256, "\(scale)")
    }
    // A source scaled 2x (buffer pixels twice the layout's): the crop is in buffer pixels.
    let hidpi = MirrorStream.crop(
      MirrorGeometry(source: source, width: 1920, height: 1080, scale: .fill), bufferWidth: 2560, bufferHeight: 2048)
    #expect(hidpi.y == 304 * 256 && hidpi.height == 1440 * 256)
    let degenerate = MirrorStream.crop(
      MirrorGeometry(source: Rect(x: 0, y: 0, width: 0, height: 0), width: 0, height: 0, scale: .fill),
      bufferWidth: 1, bufferHeight: 1)
    #expect(degenerate.width >= 1 && degenerate.height >= 1 && degenerate.x >= 0 && degenerate.x <= 256)
  }
}
