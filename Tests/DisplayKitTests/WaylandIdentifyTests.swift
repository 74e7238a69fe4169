import CRender
import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import Foundation
import Testing
import XRig

@testable import DisplayRender
@testable import DisplayService
@testable import DisplayWayland

#if canImport(Glibc)
  import Glibc
#endif

/// `identify` and `screenshot` on the rig's sway 1.10: the daemon's cards as overlay layer
/// surfaces placed like the X cards (read back with `grim`), gone with the timer and with them
/// every Wayland object; screenshots through screencopy equal to grim's, turned outputs
/// included, and the desk composed at the outputs' logical places.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandIdentifyTests {
  static let card: UInt32 = 0x1F4E9A
  static let white: UInt32 = 0xFF_FFFF
  static let desktop: UInt32 = 0x203040

  /// Whether `image` shows a card at `rect`: the white border at its inner corners, the
  /// card's blue inside them, and neither just outside.
  static func showsCard(_ image: RGBImage, at r: Rect) -> Bool {
    let border = [(r.x + 1, r.y + 1), (r.x + r.width - 2, r.y + r.height - 2)].map { image.pixel(x: $0.0, y: $0.1) }
    let inside = [(r.x + 20, r.y + 20), (r.x + r.width - 21, r.y + r.height - 21)].map { image.pixel(x: $0.0, y: $0.1) }
    let outside = [(r.x - 2, r.y - 2), (r.x + r.width + 1, r.y + r.height + 1)].map { image.pixel(x: $0.0, y: $0.1) }
    return border == [white, white] && inside == [card, card] && !outside.contains { $0 == card || $0 == white }
  }

  @Test func identifyThroughTheDaemonShowsACardOnEachHeadUntilTheTimerAndThenHoldsNothing() throws {
    let sway = try SwayCompositor(background: "#203040")
    let second = try sway.plug()
    let runtime = try runtimeDirectory()
    let daemon = try WaylandDaemonTests.start(sway, config: WaylandDaemonTests.config, runtime: runtime)
    // Settled: the placeholder covers the plugged head (below the main one), and the
    // daemon's objects stay where they are.
    var objects: [Int?] = []
    let settled = try eventually(within: 10) {
      let shot = try sway.screenshot(second)
      objects.append(WaylandDaemonTests.objects(try WaylandDaemonTests.status(sway, runtime: runtime)))
      return shot.pixel(x: 0, y: 0) == WaylandDaemonTests.placeholder && objects.suffix(2).count == 2
        && objects.suffix(2).allSatisfy { $0 != nil && $0 == objects.last! }
    }
    try #require(settled, "\(objects) \(daemon.log.suffix(10))")
    let before = try #require(objects.last ?? nil)
    let heads = [("HEADLESS-1", 1280, 720), (second, 1920, 1080)]
    let cards = heads.map { IdentifyCard.cardRect(in: Rect(x: 0, y: 0, width: $0.1, height: $0.2)) }
    #expect(cards[0] == Rect(x: 128, y: 144, width: 1024, height: 432))

    let identify = try ChildProcess(
      [displaydPath, "identify", "--seconds", "2", "--display", WaylandDaemonTests.socket(sway)],
      environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
    var seen = [false, false]
    _ = try eventually(within: 2) {
      for (i, head) in heads.enumerated() where !seen[i] {
        seen[i] = Self.showsCard(try sway.screenshot(head.0), at: cards[i])
      }
      return seen == [true, true]
    }
    #expect(seen == [true, true], "\(daemon.log.suffix(10))")
    #expect(identify.wait(timeout: 10) == 0)
    let lines = identify.drainOutput().out.split(separator: "\n").map(String.init)
    #expect(lines.map { $0.split(separator: " ").first.map(String.init) } == ["HEADLESS-1", second], "\(lines)")

    // The timer took them away: the desktop and the placeholder again, and every object.
    #expect(
      try eventually(within: 5) {
        let main = try sway.screenshot("HEADLESS-1")
        let plugged = try sway.screenshot(second)
        return main.pixel(x: 148, y: 164) == Self.desktop
          && plugged.pixel(x: 212, y: 236) == WaylandDaemonTests.placeholder
      })
    var after: Int?
    #expect(
      try eventually(within: 5) {
        after = WaylandDaemonTests.objects(try WaylandDaemonTests.status(sway, runtime: runtime))
        return after == before
      }, "before \(before), after \(String(describing: after))")
    #expect(daemon.isRunning)
  }

  /// Without a daemon the command shows the cards itself, as layer surfaces of its own.
  @Test func identifyWithoutADaemonShowsTheCardsItself() throws {
    let sway = try SwayCompositor(background: "#203040")
    let environment = sway.waylandEnvironment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
    let identify = try ChildProcess([displaydPath, "identify", "--seconds", "2"], environment: environment)
    let rect = IdentifyCard.cardRect(in: Rect(x: 0, y: 0, width: 1280, height: 720))
    #expect(try eventually(within: 2) { Self.showsCard(try sway.screenshot("HEADLESS-1"), at: rect) })
    #expect(identify.wait(timeout: 10) == 0)
    #expect(identify.drainOutput().out.hasPrefix("HEADLESS-1"))
  }
}

extension WaylandIdentifyTests {
  /// At scale 2 the head is 640x360 logical: the card is 512x216 there, but drawn at the
  /// head's pixels, so the screen shows exactly the card the renderer draws for 1280x720
  /// pixels, where a card drawn at the logical size would come out stretched and blurred.
  @Test func onAScaledHeadTheCardIsDrawnAtTheHeadsPixels() throws {
    let sway = try SwayCompositor(background: "#203040")
    try #require(try sway.swaymsg(["output", "HEADLESS-1", "scale", "2"]).status == 0)
    #expect(try eventually(within: 5) { try sway.outputs().first?.rect.width == 640 })
    let environment = sway.waylandEnvironment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
    let identify = try ChildProcess([displaydPath, "identify", "--seconds", "2"], environment: environment)
    let summary = try #require(identify.readLine(timeout: 5))
    let words = summary.components(separatedBy: "  ")
    #expect(words.first == "HEADLESS-1", "\(summary)")
    let card = try #require(
      IdentifyRenderer.render(
        title: "HEADLESS-1", lines: Array(words.dropFirst()), width: 1024, height: 432, titleHeight: 144))
    var differing = -1
    _ = try eventually(within: 2) {
      let shot = try sway.screenshot("HEADLESS-1")
      differing = 0
      for y in 0..<432 {
        for x in 0..<1024 where shot.pixel(x: 128 + x, y: 144 + y) != card.pixel(x: x, y: y) { differing += 1 }
      }
      return differing == 0
    }
    #expect(differing == 0, "\(differing) pixels differ from the renderer's card")
    #expect(identify.wait(timeout: 10) == 0)
  }
}

/// A PNG's pixels (0xRRGGBB), decoded with the renderer's cairo.
struct PNGPixels {
  let width: Int
  let height: Int
  let pixels: [UInt32]

  init(path: String) throws {
    guard case .success(let image) = PlaceholderImage.load(path) else { throw RigError("\(path) is no PNG") }
    cairo_surface_flush(image.surface)
    let stride = Int(cairo_image_surface_get_stride(image.surface))
    guard let data = cairo_image_surface_get_data(image.surface) else { throw RigError("\(path): no pixels") }
    var pixels: [UInt32] = []
    pixels.reserveCapacity(image.width * image.height)
    for y in 0..<image.height {
      let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
      for x in 0..<image.width { pixels.append(row[x] & 0xFF_FFFF) }
    }
    (width, height, self.pixels) = (image.width, image.height, pixels)
  }

  func pixel(x: Int, y: Int) -> UInt32? {
    guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
    return pixels[y * width + x]
  }

  /// The pixels that differ from `image`'s, with `image` at `x`, `y` of this picture.
  func differences(from image: RGBImage, atX x: Int = 0, y: Int = 0) -> Int {
    var count = 0
    for row in 0..<image.height {
      for column in 0..<image.width where pixel(x: x + column, y: y + row) != image.pixel(x: column, y: row) {
        count += 1
      }
    }
    return count
  }
}

/// `identify` through the surface port, against the fake host: each card a surface that
/// covers only the card, at the overlay level, showing the renderer's card; a card whose head
/// went (the host released it, the daemon passes the event on) is never closed again.
@Suite struct IdentifyOnTheSurfacePortTests {
  let quiet = Logger(level: .error) { _ in }

  static var cards: [IdentifyCard] {
    [("eDP-1", Rect(x: 0, y: 0, width: 1920, height: 1080)), ("DP-1", Rect(x: 1920, y: 0, width: 1280, height: 1024))]
      .map {
        IdentifyCard(
          output: $0.0, monitor: nil, mode: "\($0.1.width)x\($0.1.height)", area: $0.1,
          rect: IdentifyCard.cardRect(in: $0.1))
      }
  }

  @Test func eachCardIsAnOverlaySurfaceOfTheCardsRectShowingTheCard() throws {
    let host = FakeSurfaceHost()
    let overlays = try IdentifyOverlays(surfaces: host)
    let (shown, failures) = overlays.show(Self.cards, seconds: 3)
    #expect(shown == Self.cards && failures.isEmpty)
    let surfaces = host.surfaces.values.sorted { $0.spec.rect.x < $1.spec.rect.x }
    #expect(surfaces.map(\.spec.head) == ["eDP-1", "DP-1"])
    #expect(surfaces.map(\.spec.rect) == Self.cards.map(\.rect))
    #expect(surfaces.allSatisfy { $0.spec.level == .overlay && !$0.spec.coversHead })
    #expect(surfaces.allSatisfy { $0.spec.background == IdentifyRenderer.background })
    let sizes = surfaces.compactMap { $0.picture.map { [$0.width, $0.height] } }
    #expect(sizes == [[1536, 648], [1024, 614]])
    #expect(overlays.isShowing && overlays.timer.isArmed)
    overlays.remove()
    #expect(host.held == 0 && host.closed == 2 && host.misuses == 0 && !overlays.timer.isArmed)
  }

  @Test func aCardThatCannotOpenIsReportedAndTheOthersShow() throws {
    let host = FakeSurfaceHost()
    host.failOpen(1)
    let overlays = try IdentifyOverlays(surfaces: host)
    let (shown, failures) = overlays.show(Self.cards, seconds: 3)
    #expect(shown.map(\.output) == ["DP-1"])
    #expect(failures.count == 1 && failures[0].hasPrefix("eDP-1: "), "\(failures)")
    overlays.remove()
    #expect(host.held == 0 && host.misuses == 0)
  }

  @Test func aCardWhoseHeadWentIsForgottenThroughTheDaemon() throws {
    let server = FakeDisplayServer(TopologyBuilder.topology(["eDP-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let host = FakeSurfaceHost()
    let daemon = try Daemon(
      server: server, surfaces: host, painter: CairoPicturePainter(), config: Config(), log: quiet)
    try daemon.start()
    let monitors = host.held
    let overlays = try IdentifyOverlays(surfaces: host)
    daemon.onOtherSurfaceEvent = { overlays.forget($0) }
    overlays.show(Self.cards, seconds: 3)
    let card = try #require(host.surfaces.first { !$0.value.spec.coversHead }?.key)
    host.headGoneFromOutside(card)
    try daemon.handleServerEvents()
    #expect(daemon.monitors.count == monitors, "the daemon's own monitors are untouched")
    overlays.remove()
    #expect(host.held == monitors && host.misuses == 0, "the released card is never closed again")
  }
}
