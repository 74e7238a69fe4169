import DisplayModel
import DisplayPorts
import Foundation
import Testing
import XRig

@testable import DisplayRender
@testable import DisplayWayland

#if canImport(Glibc)
  import Glibc
#endif

/// `content: "mirror"` through the daemon on sway 1.10: a 4:3 main head (1600x1200) showing
/// a pattern of coloured blocks (a layer surface of the test's own), mirrored onto plugged
/// 16:9 heads, one fitted (bars left and right), one stretched; a change on main shows on the
/// mirror; nothing is copied and the daemon does not wake while main is still; unplugging the
/// mirrors, and then main itself under a mirror, gives every Wayland object back.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandDaemonMirrorTests {
  typealias D = WaylandDaemonTests
  typealias T = WaylandSurfacesTests

  static let side = 80
  static let background: UInt32 = 0x12AB34

  /// Blocks of 80 pixels, each its own colour, far from its neighbours' and the bars'.
  static func colour(_ bx: Int, _ by: Int) -> UInt32 {
    let r = UInt32((bx * 67 + by * 29) % 8 * 32 + 16)
    let g = UInt32((bx * 41 + by * 83) % 8 * 32 + 16)
    let b = UInt32((bx * 13 + by * 59 + 3) % 8 * 32 + 16)
    return r << 16 | g << 8 | b
  }

  final class Blocks: PixelImage {
    let width = 1600
    let height = 1200
    private var pixels: [UInt32]
    init() {
      var p = [UInt32](repeating: 0, count: 1600 * 1200)
      for y in 0..<1200 {
        for x in 0..<1600 { p[y * 1600 + x] = WaylandDaemonMirrorTests.colour(x / 80, y / 80) }
      }
      pixels = p
    }
    func withPixels<R>(_ body: (UnsafeRawPointer, Int) -> R) -> R {
      pixels.withUnsafeBytes { body($0.baseAddress!, width * 4) }
    }
  }

  static let config = """
    {
      placeholder: { background: "#12ab34", details: false, text: "" },
      defaults: { content: "mirror", mirror: { source: "main", scale: "fit", cursor: false } },
      monitors: [{
        match: { output: "HEADLESS-3" }, content: "mirror",
        mirror: { source: "main", scale: "stretch", cursor: false },
      }],
    }
    """

  /// Whether two colours are alike channel by channel (the compositor filters when it scales).
  static func near(_ a: UInt32?, _ b: UInt32, by tolerance: Int = 12) -> Bool {
    guard let a else { return false }
    return [16, 8, 0].allSatisfy { abs(Int(a >> UInt32($0) & 0xFF) - Int(b >> UInt32($0) & 0xFF)) <= tolerance }
  }

  /// The blocks whose centres, mapped into `content` of the mirror, do not show their colour.
  static func wrongBlocks(_ mirror: RGBImage, content: Rect) -> [(Int, Int)] {
    var wrong: [(Int, Int)] = []
    for by in 0..<(1200 / side) {
      for bx in 0..<(1600 / side) {
        let x = content.x + (bx * side + side / 2) * content.width / 1600
        let y = content.y + (by * side + side / 2) * content.height / 1200
        if !near(mirror.pixel(x: x, y: y), colour(bx, by)) { wrong.append((bx, by)) }
      }
    }
    return wrong
  }

  /// PSNR in dB of the mirror's content against the source mapped into it (nearest), RGB.
  static func psnr(_ mirror: RGBImage, _ source: RGBImage, content: Rect) -> Double {
    var (sum, count) = (0.0, 0)
    for y in stride(from: content.y, to: content.y + content.height, by: 3) {
      for x in stride(from: content.x, to: content.x + content.width, by: 3) {
        let a = mirror.pixel(x: x, y: y) ?? 0
        let b =
          source.pixel(
            x: (x - content.x) * source.width / content.width, y: (y - content.y) * source.height / content.height)
          ?? 0
        for shift in [16, 8, 0] {
          let d = Double(Int(a >> UInt32(shift) & 0xFF) - Int(b >> UInt32(shift) & 0xFF))
          sum += d * d
        }
        count += 3
      }
    }
    guard sum > 0 else { return .infinity }
    return 10 * log10(255 * 255 / (sum / Double(count)))
  }

  static func monitors(_ status: [String: Any]) -> [String: String] {
    let list = status["monitors"] as? [[String: Any]] ?? []
    return Dictionary(list.map { ($0["output"] as? String ?? "", $0["content"] as? String ?? "") }) { a, _ in a }
  }

  static func composites(_ status: [String: Any]) -> Int? {
    (status["counters"] as? [String: Any])?["composites"] as? Int
  }

  @Test func mainMirroredOntoPluggedHeadsFitAndStretchFollowsChangesIdlesWhenStillAndLeavesNothing() throws {
    let sway = try SwayCompositor(background: D.desktop, config: "output HEADLESS-1 mode 1600x1200")
    try #require(try sway.outputs().first?.rect == XInspector.Rect(x: 0, y: 0, width: 1600, height: 1200))
    let host = try T.host(sway)
    let pattern = try host.open(
      SurfaceSpec(
        head: "HEADLESS-1", rect: Rect(x: 0, y: 0, width: 1600, height: 1200), level: .normal,
        background: RGBColor(red: 0, green: 0, blue: 0)))
    try host.show(PlaceholderPicture(image: Blocks(), background: RGBColor(red: 0, green: 0, blue: 0)), on: pattern)
    #expect(try T.waitFor(host) { host.isConfigured(pattern) })
    let original = try T.screenshot(sway, "HEADLESS-1") {
      Self.wrongBlocks($0, content: Rect(x: 0, y: 0, width: 1600, height: 1200)).isEmpty
    }
    try #require(Self.wrongBlocks(original, content: Rect(x: 0, y: 0, width: 1600, height: 1200)).isEmpty)

    let runtime = try runtimeDirectory()
    let daemon = try D.start(sway, config: Self.config, runtime: runtime)
    let objectsBefore = try #require(D.objects(try D.status(sway, runtime: runtime)))
    let fitted = try sway.plug()
    let stretched = try sway.plug()
    try #require([fitted, stretched] == ["HEADLESS-2", "HEADLESS-3"])
    var status: [String: Any] = [:]
    #expect(
      try eventually(within: 5) {
        status = try D.status(sway, runtime: runtime)
        return Self.monitors(status) == [fitted: "mirror", stretched: "mirror"]
      }, "\(status) \(daemon.log.suffix(20))")

    // fit: 1600x1200 into 1920x1080 at 0.9, 1440x1080 between bars of 240 in the background.
    let fit = Rect(x: 240, y: 0, width: 1440, height: 1080)
    let fitShot = try T.screenshot(sway, fitted) { Self.wrongBlocks($0, content: fit).isEmpty }
    #expect(fitShot.width == 1920 && fitShot.height == 1080)
    #expect(Self.wrongBlocks(fitShot, content: fit).isEmpty, "\(Self.wrongBlocks(fitShot, content: fit).prefix(8))")
    for (x, y) in [(0, 0), (239, 540), (1680, 0), (1919, 1079)] {
      #expect(fitShot.pixel(x: x, y: y) == Self.background, "bar at \(x), \(y)")
    }
    // stretch: the whole source over the whole head, 1.2 across and 0.9 down (sway's filter
    // darkens the outermost pixel row and column: its samples there reach past the buffer).
    let all = Rect(x: 0, y: 0, width: 1920, height: 1080)
    let stretchShot = try T.screenshot(sway, stretched) { Self.wrongBlocks($0, content: all).isEmpty }
    #expect(Self.wrongBlocks(stretchShot, content: all).isEmpty)
    #expect(Self.near(stretchShot.pixel(x: 3, y: 3), Self.colour(0, 0)))
    #expect(Self.near(stretchShot.pixel(x: 1916, y: 1076), Self.colour(19, 14)))
    let scores = (Self.psnr(fitShot, original, content: fit), Self.psnr(stretchShot, original, content: all))
    print("daemon mirror on sway, PSNR against main mapped: fit \(scores.0) dB, stretch \(scores.1) dB")
    #expect(scores.0 > 20 && scores.1 > 20)

    // Still: once the count stops moving, a second passes with no copy and no wake-up.
    var last = -1
    #expect(
      eventually(within: 3) {
        let now = (try? D.status(sway, runtime: runtime)).flatMap(Self.composites) ?? -2
        defer { last = now }
        return now == last && now > 0
      })
    let still = try #require(Self.composites(try D.status(sway, runtime: runtime)))
    let pid = daemon.child.pid
    #expect(eventually(within: 2) { allThreadsIdle(pid) })
    let before = try wakeups(pid)
    _ = pollFDs([], timeoutMs: 1_000)  // the observation window: main is still
    #expect(try wakeups(pid) == before, "no wake-up in 1 s of a still main")
    #expect(Self.composites(try D.status(sway, runtime: runtime)) == still, "no frame copied while main is still")

    // A change on main reaches both mirrors.
    let white = RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    try host.show(PlaceholderPicture(width: 1600, height: 1200, background: white, patches: []), on: pattern)
    try host.roundtrip()
    let changed = try T.screenshot(sway, fitted) { $0.pixel(x: 960, y: 540) == 0xFFFFFF }
    #expect(changed.pixel(x: 960, y: 540) == 0xFFFFFF && changed.pixel(x: 250, y: 10) == 0xFFFFFF)
    #expect(changed.pixel(x: 100, y: 540) == Self.background, "the bars stay")
    let stretchedWhite = try T.screenshot(sway, stretched) { $0.pixel(x: 960, y: 540) == 0xFFFFFF }
    #expect(
      [(3, 3), (960, 540), (1916, 1076)].allSatisfy { Self.near(stretchedWhite.pixel(x: $0.0, y: $0.1), 0xFFFFFF) })
    #expect(try #require(Self.composites(try D.status(sway, runtime: runtime))) > still)

    // The mirrors unplugged: every object of their surfaces and captures is given back.
    try sway.unplug(stretched)
    try sway.unplug(fitted)
    #expect(
      try eventually(within: 5) {
        status = try D.status(sway, runtime: runtime)
        return Self.monitors(status).isEmpty && D.objects(status) == objectsBefore
      }, "before \(objectsBefore), after \(String(describing: D.objects(status))) \(daemon.log.suffix(20))")

    // Main unplugged under a mirror: the capture stops and the head left (the new main) has
    // no surface; what the daemon holds is one head's objects, as at the start.
    let last1 = try sway.plug()
    #expect(
      try eventually(within: 5) { Self.monitors(try D.status(sway, runtime: runtime)) == [last1: "mirror"] })
    _ = try T.screenshot(sway, last1) { $0.pixel(x: 960, y: 540) == 0xFFFFFF }
    try sway.unplug("HEADLESS-1")
    #expect(
      try eventually(within: 5) {
        status = try D.status(sway, runtime: runtime)
        return Self.monitors(status).isEmpty && D.objects(status) == objectsBefore
      }, "before \(objectsBefore), after \(String(describing: D.objects(status))) \(daemon.log.suffix(20))")
    let left = try T.screenshot(sway, last1) { $0.pixel(x: 960, y: 540) != 0xFFFFFF }
    #expect(left.pixel(x: 960, y: 540) != 0xFFFFFF, "no mirror left on the new main")
    #expect(daemon.isRunning)
  }
}
