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

/// The surface port on sway 1.10 (the rig): a layer surface per head showing the placeholder,
/// read back with `grim` screenshots of each output; closed, unplugged, and the Wayland objects
/// counted in the glue back where they were. Every test is synchronous, so the per-thread
/// object count sees only its own objects.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandSurfacesTests {
  /// sway's desktop colour on every output, not any placeholder's.
  static let desktop: UInt32 = 0x203040
  static let green = RGBColor(red: 0x12, green: 0x9A, blue: 0x56)
  static let red: UInt32 = 0xE0_2010

  /// A solid patch of pixels, as the renderer's images are laid out (xRGB, 4 bytes a pixel).
  final class SolidImage: PixelImage {
    let width: Int
    let height: Int
    private var pixels: [UInt32]
    init(width: Int, height: Int, colour: UInt32) {
      self.width = width
      self.height = height
      pixels = Array(repeating: colour, count: width * height)
    }
    func withPixels<R>(_ body: (UnsafeRawPointer, Int) -> R) -> R {
      pixels.withUnsafeBytes { body($0.baseAddress!, width * 4) }
    }
  }

  /// A 1920x1080 placeholder: green, with a red 64x32 patch at 100, 200.
  static var picture: PlaceholderPicture {
    PlaceholderPicture(
      width: 1920, height: 1080, background: green,
      patches: [.init(x: 100, y: 200, image: SolidImage(width: 64, height: 32, colour: red))])
  }

  static func host(_ sway: SwayCompositor) throws -> WaylandSurfaces {
    try WaylandSurfaces(socket: sway.runtime + "/" + sway.waylandDisplay)
  }

  static func spec(_ head: String, level: WindowLevel = .normal) -> SurfaceSpec {
    SurfaceSpec(
      head: head, rect: Rect(x: 1280, y: 0, width: 1920, height: 1080), level: level,
      background: RGBColor(red: 0, green: 0, blue: 0xFF))
  }

  /// Dispatches the compositor's events until `condition` holds (poll on the socket).
  static func waitFor(_ host: WaylandSurfaces, within seconds: Double = 5, _ condition: () -> Bool) throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      var p = pollfd(fd: host.fileDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&p, 1, Int32(left * 1000) + 1)
      try host.dispatch()
    }
    return true
  }

  /// Screenshots `output` until `check` holds for it (the compositor draws at its next frame).
  static func screenshot(
    _ sway: SwayCompositor, _ output: String, cursor: Bool = false, until check: (RGBImage) -> Bool
  ) throws -> RGBImage {
    var last = try sway.screenshot(output, cursor: cursor)
    _ = try eventually(within: 5) {
      last = try sway.screenshot(output, cursor: cursor)
      return check(last)
    }
    return last
  }

  static func corners(_ image: RGBImage) -> [UInt32?] {
    [
      (0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1),
      (image.width / 2, image.height / 2),
    ].map { image.pixel(x: $0.0, y: $0.1) }
  }

  @Test func aPlaceholderCoversExactlyItsOutputAndClosingLeavesTheDesktopAndNoObjects() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    let host = try Self.host(sway)
    #expect(host.outputNames.sorted() == ["HEADLESS-1", name])
    let before = WaylandSurfaces.objectsOnThisThread
    let id = try host.open(Self.spec(name))
    try host.show(Self.picture, on: id)
    #expect(try Self.waitFor(host) { host.isConfigured(id) })
    #expect(WaylandSurfaces.objectsOnThisThread > before)

    let shot = try Self.screenshot(sway, name) { $0.pixel(x: 960, y: 540) == 0x129A56 }
    #expect(shot.width == 1920 && shot.height == 1080)
    #expect(Self.corners(shot) == Array(repeating: 0x129A56, count: 5))
    // The patch at its place, pixel for pixel: the buffer is the output's own size.
    #expect(shot.pixel(x: 100, y: 200) == Self.red && shot.pixel(x: 163, y: 231) == Self.red)
    #expect(shot.pixel(x: 99, y: 200) == 0x129A56 && shot.pixel(x: 164, y: 232) == 0x129A56)
    let other = try sway.screenshot("HEADLESS-1")
    #expect(Self.corners(other) == Array(repeating: Self.desktop, count: 5))

    host.close(id)
    try host.roundtrip()
    #expect(WaylandSurfaces.objectsOnThisThread == before)
    let after = try Self.screenshot(sway, name) { $0.pixel(x: 960, y: 540) == Self.desktop }
    #expect(Self.corners(after) == Array(repeating: Self.desktop, count: 5))
    #expect(host.takeEvents().isEmpty)
  }

  /// On a head at scale 2 (960x540 logical) the buffer is still the head's 1920x1080 pixels,
  /// the viewport making it the logical size: the patch lands pixel for pixel.
  @Test func atScale2ThePictureKeepsTheOutputsPixels() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    try #require(try sway.swaymsg(["output", name, "scale", "2"]).status == 0)
    #expect(try eventually(within: 5) { try sway.outputs().first { $0.name == name }?.rect.width == 960 })
    let host = try Self.host(sway)
    var spec = Self.spec(name)
    spec.rect = Rect(x: 1280, y: 0, width: 960, height: 540)
    let id = try host.open(spec)
    try host.show(Self.picture, on: id)
    #expect(try Self.waitFor(host) { host.isConfigured(id) })
    let shot = try Self.screenshot(sway, name) { $0.pixel(x: 100, y: 200) == Self.red }
    #expect(shot.width == 1920 && shot.height == 1080)
    #expect(Self.corners(shot) == Array(repeating: 0x129A56, count: 5))
    #expect(shot.pixel(x: 100, y: 200) == Self.red && shot.pixel(x: 163, y: 231) == Self.red)
    #expect(shot.pixel(x: 99, y: 199) == 0x129A56 && shot.pixel(x: 164, y: 232) == 0x129A56)
    host.close(id)
  }

  /// Before a picture, the surface shows its background (one pixel the viewport stretches).
  @Test func theBackgroundShowsBeforeAPicture() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    let host = try Self.host(sway)
    let id = try host.open(Self.spec(name, level: .overlay))
    #expect(try Self.waitFor(host) { host.isConfigured(id) })
    let shot = try Self.screenshot(sway, name) { $0.pixel(x: 960, y: 540) == 0x0000FF }
    #expect(Self.corners(shot) == Array(repeating: 0x0000FF, count: 5))
    host.close(id)
  }

  /// Unplugged under an open surface: the daemon hears the head went, and the surface and
  /// the output's objects are released (the count ends one below: the output's own proxy).
  @Test func unpluggingUnderAnOpenSurfaceSaysHeadGoneAndReleasesIt() throws {
    let sway = try SwayCompositor()
    let host = try Self.host(sway)
    let name = try sway.plug()
    #expect(try Self.waitFor(host) { host.outputNames.contains(name) })
    let before = WaylandSurfaces.objectsOnThisThread
    let id = try host.open(Self.spec(name))
    try host.show(Self.picture, on: id)
    #expect(try Self.waitFor(host) { host.isConfigured(id) })

    try sway.unplug(name)
    var events: [SurfaceEvent] = []
    #expect(
      try Self.waitFor(host) {
        events += host.takeEvents()
        return !events.isEmpty
      })
    #expect(events == [.headGone(id)])
    #expect(host.openSurfaces.isEmpty)
    #expect(!host.outputNames.contains(name))
    try host.roundtrip()
    #expect(WaylandSurfaces.objectsOnThisThread == before - 1)
    host.close(id)
    #expect(WaylandSurfaces.objectsOnThisThread == before - 1)
  }

  /// Moved to another head, the surface is made again there under the same id (a layer
  /// surface belongs to one output), showing its background until the next picture; the host
  /// gone, every object it made is gone.
  @Test func aSurfaceMovedToAnotherHeadShowsThereAndTheHostLeavesNothing() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    let before = WaylandSurfaces.objectsOnThisThread
    do {
      let host = try Self.host(sway)
      let id = try host.open(Self.spec(name))
      try host.show(Self.picture, on: id)
      #expect(try Self.waitFor(host) { host.isConfigured(id) })
      _ = try Self.screenshot(sway, name) { $0.pixel(x: 960, y: 540) == 0x129A56 }
      var moved = Self.spec("HEADLESS-1", level: .above)
      moved.rect = Rect(x: 0, y: 0, width: 1280, height: 720)
      host.move(id, to: moved)
      #expect(host.openSurfaces == [id])
      #expect(try Self.waitFor(host) { host.isConfigured(id) })
      let there = try Self.screenshot(sway, "HEADLESS-1") { $0.pixel(x: 640, y: 360) == 0x0000FF }
      #expect(Self.corners(there) == Array(repeating: 0x0000FF, count: 5))
      let left = try Self.screenshot(sway, name) { $0.pixel(x: 960, y: 540) == Self.desktop }
      #expect(Self.corners(left) == Array(repeating: Self.desktop, count: 5))
      #expect(host.takeEvents().isEmpty)
    }
    #expect(WaylandSurfaces.objectsOnThisThread == before)
  }

  /// A compositor whose wl_output is older than version 4 names its outputs through
  /// xdg-output: bound at version 3, the surface still finds and covers its head.
  @Test func outputsOlderThanVersion4AreNamedByXDGOutput() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    let before = WaylandSurfaces.objectsOnThisThread
    do {
      let host = try WaylandSurfaces(socket: sway.runtime + "/" + sway.waylandDisplay, outputVersion: 3)
      #expect(host.outputNames.sorted() == ["HEADLESS-1", name])
      let id = try host.open(Self.spec(name))
      #expect(try Self.waitFor(host) { host.isConfigured(id) })
      let shot = try Self.screenshot(sway, name) { $0.pixel(x: 960, y: 540) == 0x0000FF }
      #expect(Self.corners(shot) == Array(repeating: 0x0000FF, count: 5))
    }
    #expect(WaylandSurfaces.objectsOnThisThread == before)
  }

  /// A head turned off under a surface: sway closes the surface and withdraws the output's
  /// global, as for an unplug; the host says the head went and releases everything.
  @Test func aHeadTurnedOffUnderASurfaceEndsIt() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let host = try Self.host(sway)
    let before = WaylandSurfaces.objectsOnThisThread
    let id = try host.open(Self.spec(name))
    #expect(try Self.waitFor(host) { host.isConfigured(id) })
    try #require(try sway.swaymsg(["output", name, "disable"]).status == 0)
    var events: [SurfaceEvent] = []
    #expect(
      try Self.waitFor(host) {
        events += host.takeEvents()
        return !events.isEmpty
      })
    #expect(events == [.headGone(id)])
    #expect(host.openSurfaces.isEmpty && host.outputNames == ["HEADLESS-1"])
    // The surface's objects and the output's own proxy.
    #expect(WaylandSurfaces.objectsOnThisThread == before - 1)
  }

  @Test func aSurfaceOnAnOutputThatIsNotThereIsAClearError() throws {
    let sway = try SwayCompositor()
    let host = try Self.host(sway)
    #expect(throws: DisplayError.self) { try host.open(Self.spec("HEADLESS-9")) }
    #expect(throws: DisplayError.self) { try host.show(Self.picture, on: SurfaceID(rawValue: 77)) }
    #expect(host.openSurfaces.isEmpty)
  }

  /// labwc 0.8 (nested in the rig's sway): a surface on its second output covers it, and
  /// closing that output's window says headGone.
  @Test func onLabwcASurfaceCoversItsOutputAndGoesWithIt() throws {
    let labwc = try LabwcCompositor(outputs: 2)
    let host = try WaylandSurfaces(socket: labwc.host.runtime + "/" + labwc.waylandDisplay)
    #expect(host.outputNames.sorted() == ["WL-1", "WL-2"])
    let id = try host.open(Self.spec("WL-2"))
    try host.show(PlaceholderPicture(width: 64, height: 64, background: Self.green, patches: []), on: id)
    #expect(try Self.waitFor(host) { host.isConfigured(id) })
    func shot(_ output: String) throws -> RGBImage {
      let file = labwc.host.outputDirectory + "/labwc-\(output).ppm"
      let r = try labwc.client(["grim", "-t", "ppm", "-o", output, file])
      guard r.status == 0, let data = FileManager.default.contents(atPath: file) else {
        throw RigError("grim -o \(output) on labwc failed: \(r.err)")
      }
      return try RGBImage(ppm: Array(data))
    }
    var image = try shot("WL-2")
    _ = try eventually(within: 5) {
      image = try shot("WL-2")
      return image.pixel(x: image.width / 2, y: image.height / 2) == 0x129A56
    }
    #expect(Self.corners(image) == Array(repeating: 0x129A56, count: 5))
    let other = try shot("WL-1")
    #expect(other.pixel(x: other.width / 2, y: other.height / 2) != 0x129A56)

    try labwc.unplug("WL-2")
    var events: [SurfaceEvent] = []
    #expect(
      try Self.waitFor(host) {
        events += host.takeEvents()
        return !events.isEmpty
      })
    #expect(events == [.headGone(id)])
    #expect(host.openSurfaces.isEmpty)
  }
}
