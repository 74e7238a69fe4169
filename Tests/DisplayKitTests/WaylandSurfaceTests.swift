import DisplayModel
import DisplayPorts
import DisplayRender
import DisplayWayland
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// A layer-shell surface per head on the rig's sway 1.10, read back with `grim` (screencopy):
/// it covers exactly its head, shows the picture drawn into shared memory, and goes (with
/// every Wayland object behind it) when closed or when its head is unplugged.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandSurfaceTests {
  static let background = "#3366cc"
  static let red = RGBColor(red: 0xcc, green: 0x22, blue: 0x11)

  static func host(_ sway: SwayCompositor) throws -> WaylandSurfaceHost {
    try WaylandSurfaceHost(socket: sway.runtime + "/" + sway.waylandDisplay)
  }

  /// A picture of `red` with a 100x50 white box at 200,100, drawn as one image.
  static func picture(width: Int, height: Int) throws -> PlaceholderPicture {
    let image = try #require(
      RenderedImage.blank(width: width, height: height), "no renderer: \(PlaceholderRenderer.unavailable)")
    image.withMutablePixels { data, stride in
      for y in 0..<height {
        let row = data.advanced(by: y * stride).bindMemory(to: UInt32.self, capacity: width)
        for x in 0..<width { row[x] = (200..<300).contains(x) && (100..<150).contains(y) ? 0xffffff : 0xcc2211 }
      }
    }
    return PlaceholderPicture(image: image, background: red)
  }

  /// Waits (screenshots, with a deadline) until the middle of `output` is `colour`.
  static func shows(_ sway: SwayCompositor, _ output: String, _ colour: UInt32) throws -> RGBImage? {
    var shot: RGBImage?
    let seen = try eventually(within: 5) {
      shot = try sway.screenshot(output)
      return shot.map { $0.pixel(x: $0.width / 2, y: $0.height / 2) == colour } ?? false
    }
    return seen ? shot : nil
  }

  @Test func aSurfaceCoversItsHeadWithThePictureAndClosingItShowsTheDesktopAgain() throws {
    let sway = try SwayCompositor(background: Self.background)
    let name = try sway.plug()
    #expect(try Self.shows(sway, name, 0x3366cc) != nil, "swaybg never drew")
    let host = try Self.host(sway)
    let id = try host.open(
      SurfaceSpec(
        head: name, rect: Rect(x: 1280, y: 0, width: 1920, height: 1080), level: .overlay, background: Self.red))
    #expect(host.size(of: id).map { [$0.width, $0.height] } == [1920, 1080])
    let plain = try #require(try Self.shows(sway, name, 0xcc2211), "the surface's background never showed")
    let corners = [(0, 0), (1919, 0), (0, 1079), (1919, 1079)].map { plain.pixel(x: $0.0, y: $0.1) }
    #expect(corners == Array(repeating: 0xcc2211, count: 4), "it covers the whole head")
    #expect(try sway.screenshot("HEADLESS-1").pixel(x: 640, y: 360) == 0x3366cc, "and no other head")

    try host.show(Self.picture(width: 1920, height: 1080), on: id)
    var shot: RGBImage?
    #expect(
      try eventually(within: 5) {
        shot = try sway.screenshot(name)
        return shot?.pixel(x: 250, y: 125) == 0xffffff
      }, "the patch never showed")
    #expect(shot?.pixel(x: 199, y: 125) == 0xcc2211 && shot?.pixel(x: 300, y: 125) == 0xcc2211)
    #expect(shot?.pixel(x: 250, y: 99) == 0xcc2211 && shot?.pixel(x: 250, y: 150) == 0xcc2211)

    host.close(id)
    #expect(try Self.shows(sway, name, 0x3366cc) != nil, "the desktop is back after close")
    #expect(host.objectCount == 0)
  }

  /// On a head at the config's scale 0.5 (wlroots' 2) the surface is 960x540 logical, but the
  /// picture is drawn at the head's 1920x1080 pixels and shown 1:1 through wp_viewporter.
  @Test func onAScaledHeadThePictureIsDrawnAtTheHeadsPixels() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let manager = try WaylandOutputManager(socket: sway.runtime + "/" + sway.waylandDisplay)
    let snapshot = try manager.heads(probe: true)
    let scaled = OutputConfiguration(
      generation: snapshot.generation, heads: [HeadConfiguration(name: name, enabled: true, x: 1280, y: 0, scale: 0.5)])
    try #require(try manager.apply(scaled) == .applied)
    let host = try Self.host(sway)
    let id = try host.open(
      SurfaceSpec(head: name, rect: Rect(x: 1280, y: 0, width: 960, height: 540), level: .overlay, background: Self.red)
    )
    #expect(host.size(of: id).map { [$0.width, $0.height] } == [960, 540])
    #expect(host.pictureSize(of: id).map { [$0.width, $0.height] } == [1920, 1080])
    try host.show(Self.picture(width: 1920, height: 1080), on: id)
    var shot: RGBImage?
    #expect(
      try eventually(within: 5) {
        shot = try sway.screenshot(name)
        return shot?.pixel(x: 250, y: 125) == 0xffffff
      }, "the box is not at its pixels: \(String(describing: shot?.pixel(x: 500, y: 250)))")
    #expect(shot?.width == 1920 && shot?.pixel(x: 210, y: 110) == 0xffffff && shot?.pixel(x: 290, y: 140) == 0xffffff)
    #expect(shot?.pixel(x: 190, y: 125) == 0xcc2211 && shot?.pixel(x: 310, y: 125) == 0xcc2211)
  }

  /// Unplugging the head: its `wl_output` goes (sway 1.10 sends the layer surface no
  /// `closed`), the host releases the surface and reports `headGone`.
  @Test func unpluggingTheHeadClosesAndReleasesItsSurface() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let host = try Self.host(sway)
    let id = try host.open(
      SurfaceSpec(
        head: name, rect: Rect(x: 1280, y: 0, width: 1920, height: 1080), level: .normal, background: Self.red))
    #expect(host.objectCount == 4, "surface, layer surface, viewport, buffer")
    try sway.unplug(name)
    var events: [SurfaceEvent] = []
    let deadline = Deadline(seconds: 5)
    while events.isEmpty, !deadline.passed {
      var p = pollfd(fd: host.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
      _ = poll(&p, 1, deadline.remainingMs)
      try host.dispatch()
      events += host.takeEvents()
    }
    #expect(events == [.headGone(id)])
    #expect(host.objectCount == 0)
    #expect(throws: DisplayError.self) {
      try host.open(
        SurfaceSpec(head: name, rect: Rect(x: 0, y: 0, width: 1, height: 1), level: .normal, background: Self.red))
    }
  }
}
