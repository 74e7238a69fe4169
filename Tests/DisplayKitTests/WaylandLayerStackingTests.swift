import DisplayModel
import DisplayPorts
import Foundation
import Testing
import XRig

@testable import DisplayWayland

#if canImport(Glibc)
  import Glibc
#endif

/// The layer each `level` puts a surface on, and that no surface ever takes the keyboard,
/// against sway 1.10 with a real full-screen client (the rig's own xdg toplevel, one solid
/// colour) on the external output and real key presses (Debian's `wtype`, a virtual keyboard).
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandLayerStackingTests {
  /// The full-screen client's colour.
  static let client: UInt32 = 0xC0_3080
  static let green: UInt32 = 0x129A56
  /// Debian 12's wtype (0.4) speaks zwp_virtual_keyboard_v1 to sway 1.10 as it is.
  let wtype = "/usr/bin/wtype"

  static func fullscreen(_ sway: SwayCompositor, on output: String) throws -> FullscreenClient {
    let client = try FullscreenClient(
      socket: sway.runtime + "/" + sway.waylandDisplay, output: output, colour: Self.client)
    #expect(try client.wait { client.isFullscreen && client.drawnSize.map { $0 == (1920, 1080) } == true })
    #expect(try sway.windows().contains { $0.title == client.appID && $0.output == output })
    _ = try WaylandSurfacesTests.screenshot(sway, output) {
      WaylandSurfacesTests.corners($0) == Array(repeating: Self.client, count: 5)
    }
    return client
  }

  /// Opens a placeholder at `level` on `output` and waits until the compositor has configured
  /// it and handled its picture.
  static func open(_ host: WaylandSurfaces, _ output: String, _ level: WindowLevel) throws -> SurfaceID {
    let id = try host.open(WaylandSurfacesTests.spec(output, level: level))
    try host.show(WaylandSurfacesTests.picture, on: id)
    #expect(try WaylandSurfacesTests.waitFor(host) { host.isConfigured(id) })
    try host.roundtrip()
    return id
  }

  static func covered(by colour: UInt32) -> (RGBImage) -> Bool {
    { WaylandSurfacesTests.corners($0) == Array(repeating: colour, count: 5) }
  }

  /// `above` and `overlay` are sway's overlay layer: over a full-screen view. `normal` is the
  /// top layer, which sway draws under a full-screen view (over tiled and floating ones): the
  /// surface is there all the same, and shows as soon as the view leaves full-screen.
  @Test func aboveAndOverlayShowOverAFullScreenClientAndNormalUnderIt() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    let client = try Self.fullscreen(sway, on: name)
    let host = try WaylandSurfacesTests.host(sway)
    for level in [WindowLevel.above, .overlay] {
      let id = try Self.open(host, name, level)
      let shot = try WaylandSurfacesTests.screenshot(sway, name, until: Self.covered(by: Self.green))
      #expect(Self.covered(by: Self.green)(shot), "\(level)")
      #expect(shot.pixel(x: 100, y: 200) == WaylandSurfacesTests.red, "\(level)")
      host.close(id)
      try host.roundtrip()
      let after = try WaylandSurfacesTests.screenshot(sway, name, until: Self.covered(by: Self.client))
      #expect(Self.covered(by: Self.client)(after), "\(level)")
    }

    let id = try Self.open(host, name, .normal)
    // Drawn and handled (the roundtrip above): a frame now would show it if sway put it on top.
    let under = try sway.screenshot(name)
    #expect(Self.covered(by: Self.client)(under))
    try #require(try sway.swaymsg(["[app_id=\(client.appID)]", "fullscreen", "disable"]).status == 0)
    #expect(try client.wait { !client.isFullscreen })
    let tiled = try WaylandSurfacesTests.screenshot(sway, name, until: Self.covered(by: Self.green))
    #expect(Self.covered(by: Self.green)(tiled))
    try #require(try sway.swaymsg(["[app_id=\(client.appID)]", "fullscreen", "enable"]).status == 0)
    #expect(try client.wait { client.isFullscreen })
    let again = try WaylandSurfacesTests.screenshot(sway, name, until: Self.covered(by: Self.client))
    #expect(Self.covered(by: Self.client)(again), "\(WaylandSurfacesTests.corners(again))")
    host.close(id)
  }

  /// With the client's toplevel focused, surfaces at every level open and close over it: the
  /// client never hears `leave`, and keys typed meanwhile still reach it.
  @Test func noSurfaceTakesTheKeyboardFromAFocusedClient() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    try #require(
      FileManager.default.isExecutableFile(atPath: wtype), "no \(wtype): apt-get install wtype (TEST_PACKAGES)")
    let client = try Self.fullscreen(sway, on: name)
    try #require(try sway.swaymsg(["[app_id=\(client.appID)]", "focus"]).status == 0)
    // One virtual keyboard for the whole test (its key comes after the test ends), so that
    // the seat keeps a keyboard while the typing ones come and go.
    let holder = try sway.startClient([wtype, "-s", "300000", "h"], name: "keyboard")
    defer { holder.stop() }
    #expect(
      try client.wait(within: 10) { client.seatHasKeyboard && client.hasKeyboardFocus }, "\(sway.log.suffix(1500))")
    var typed = 0
    func type() throws {
      try #require(try sway.client([wtype, "k"]).status == 0)
      typed += 1
      let want = typed
      #expect(
        try client.wait { client.keyboardEvents.filter { if case .key = $0 { true } else { false } }.count == want })
    }
    try type()
    let host = try WaylandSurfacesTests.host(sway)
    for level in [WindowLevel.normal, .above, .overlay] {
      let id = try Self.open(host, name, level)
      try type()
      host.close(id)
      try host.roundtrip()
      try type()
    }
    #expect(!client.keyboardEvents.contains(.leave), "\(client.keyboardEvents)")
    #expect(client.hasKeyboardFocus)
    #expect(typed == 7)
  }

  /// labwc 0.8 (nested in the rig's sway, its outputs windows there) stacks the levels the
  /// same way: the overlay layer over a full-screen window, the top layer under it.
  @Test func onLabwcAboveAndOverlayShowOverAFullScreenClientAndNormalUnderIt() throws {
    let labwc = try LabwcCompositor(outputs: 2)
    let socket = labwc.host.runtime + "/" + labwc.waylandDisplay
    let client = try FullscreenClient(socket: socket, output: "WL-2", colour: Self.client)
    func shot(until check: (RGBImage) -> Bool = { _ in true }) throws -> RGBImage {
      let file = labwc.host.outputDirectory + "/labwc-WL-2.ppm"
      var image: RGBImage?
      _ = try eventually(within: 5) {
        let r = try labwc.client(["grim", "-t", "ppm", "-o", "WL-2", file])
        guard r.status == 0, let data = FileManager.default.contents(atPath: file) else {
          throw RigError("grim -o WL-2 on labwc failed: \(r.err)")
        }
        image = try RGBImage(ppm: Array(data))
        return image.map(check) ?? false
      }
      return try #require(image)
    }
    #expect(try client.wait { client.isFullscreen && client.drawnSize != nil })
    let full = try shot(until: Self.covered(by: Self.client))
    #expect(Self.covered(by: Self.client)(full))
    #expect(client.drawnSize.map { $0 == (full.width, full.height) } == true)
    let host = try WaylandSurfaces(socket: socket)
    for level in [WindowLevel.above, .overlay] {
      let id = try Self.open(host, "WL-2", level)
      #expect(Self.covered(by: Self.green)(try shot(until: Self.covered(by: Self.green))), "\(level)")
      host.close(id)
      try host.roundtrip()
      #expect(Self.covered(by: Self.client)(try shot(until: Self.covered(by: Self.client))), "\(level)")
    }
    let id = try Self.open(host, "WL-2", .normal)
    #expect(Self.covered(by: Self.client)(try shot()))
    client.setFullscreen(false)
    #expect(try client.wait { !client.isFullscreen })
    #expect(Self.covered(by: Self.green)(try shot(until: Self.covered(by: Self.green))))
    host.close(id)
  }
}
