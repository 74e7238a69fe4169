import DisplayModel
import DisplayPorts
import Foundation
import Testing
import XRig

@testable import DisplayRender
@testable import DisplayWayland

/// The `cursor` key: the rig's seat gets a pointer (a virtual one: the rigs have no input
/// device), held over a flat grey source, and the mirror shows it (screencopy's
/// `overlay_cursor` 1) or not. On headless sway the pointer is a software cursor drawn into
/// the output's own frames, so it is in every copy whatever `overlay_cursor` says; labwc
/// nested in sway shows its pointer as the host's cursor (a hardware cursor to wlroots), out
/// of its frames unless asked (over its bare desktop: over a client's surface that set no
/// cursor image it too draws the pointer into the frame): there `false` is seen to leave it out.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandMirrorCursorTests {
  typealias T = WaylandSurfacesTests
  typealias L = WaylandDaemonLabwcTests
  static let grey: UInt32 = 0x606060
  static let black = RGBColor(red: 0, green: 0, blue: 0)

  /// Pixels in the `side` x `side` square from (x, y) that are not `flat`.
  static func marks(_ image: RGBImage, _ x: Int, _ y: Int, side: Int, flat: UInt32 = grey) -> Int {
    var count = 0
    for py in y..<(y + side) {
      for px in x..<(x + side) where image.pixel(x: px, y: py).map({ $0 != flat }) ?? false { count += 1 }
    }
    return count
  }

  /// A grey surface over `head` (its rect in the layout), shown.
  static func greySource(_ host: WaylandSurfaces, _ head: String, _ rect: Rect) throws -> SurfaceID {
    let spec = SurfaceSpec(
      head: head, rect: rect, level: .normal, background: RGBColor(red: 0x60, green: 0x60, blue: 0x60))
    let source = try host.open(spec)
    #expect(try T.waitFor(host) { host.isConfigured(source) })
    return source
  }

  /// Mirrors `source` (its layout rect) fitted onto the 1920x1080 `target` with `cursor`,
  /// and returns `shoot()` once the mirror shows there (`flat`, not the purple background)
  /// and, with the cursor, once the pointer at `at` of the source is in it; with where it is.
  static func mirrored(
    _ host: WaylandSurfaces, _ source: (name: String, rect: Rect), onto target: String, cursor: Bool,
    pointer at: (x: Int, y: Int), flat: UInt32 = grey, _ shoot: () throws -> RGBImage
  ) throws -> (shot: RGBImage, x: Int, y: Int, content: Rect) {
    let purple = RGBColor(red: 0x80, green: 0, blue: 0x80)
    let spec = SurfaceSpec(
      head: target, rect: Rect(x: 0, y: 0, width: 1920, height: 1080), level: .normal, background: purple)
    let geometry = MirrorGeometry(source: source.rect, width: 1920, height: 1080, scale: .fit)
    let (x, y) = (
      Int(geometry.originX + Double(at.x - source.rect.x) * geometry.scaleX),
      Int(geometry.originY + Double(at.y - source.rect.y) * geometry.scaleY)
    )
    let c = geometry.content
    let mirror = try host.open(spec)
    defer { host.close(mirror) }
    let frames = host.frames
    let request = MirrorRequest(source: source.name, geometry: geometry, filter: .auto, cursor: cursor)
    #expect(host.mirror(request, on: mirror))
    #expect(try T.waitFor(host) { host.isConfigured(mirror) && host.frames > frames })
    var shot = try shoot()
    _ = try eventually(within: 5) {
      shot = try shoot()
      return shot.pixel(x: c.x + 5, y: c.y + 5) == flat
        && (!cursor || marks(shot, x - 20, y - 20, side: 100, flat: flat) > 0)
    }
    return (shot, x, y, c)
  }

  @Test func onSwayAMirrorWithTheCursorShowsThePointer() throws {
    let sway = try SwayCompositor(background: "#203040")
    let target = try sway.plug()
    let host = try T.host(sway)
    let main = Rect(x: 0, y: 0, width: 1280, height: 720)
    let source = try Self.greySource(host, "HEADLESS-1", main)
    _ = try T.screenshot(sway, "HEADLESS-1") { $0.pixel(x: 640, y: 360) == Self.grey }
    // The layout: HEADLESS-1 (1280x720), the target (1920x1080) to its right.
    let pointer = try VirtualPointer(socket: sway.runtime + "/" + sway.waylandDisplay)
    try pointer.move(x: 640, y: 360, width: 3200, height: 1080)
    let drawn = try T.screenshot(sway, "HEADLESS-1", cursor: true) { Self.marks($0, 620, 340, side: 100) > 0 }
    let plain = try sway.screenshot("HEADLESS-1")
    print(
      "sway: the pointer on HEADLESS-1 is \(Self.marks(drawn, 620, 340, side: 100)) pixels with overlay_cursor,"
        + " \(Self.marks(plain, 620, 340, side: 100)) without (a software cursor, in the frame itself)")
    try #require(Self.marks(drawn, 620, 340, side: 100) > 0, "sway drew no pointer: \(sway.log.suffix(1500))")

    let m = try Self.mirrored(host, ("HEADLESS-1", main), onto: target, cursor: true, pointer: (640, 360)) {
      try sway.screenshot(target)
    }
    #expect(Self.marks(m.shot, m.x - 20, m.y - 20, side: 100) > 0, "cursor true: the pointer")
    #expect(Self.marks(m.shot, m.content.x + 10, m.content.y + 10, side: 300) == 0, "away from it, the grey")
    host.close(source)
  }

  /// The flat area is labwc's bare desktop (black, nothing drawn on it).
  @Test func onLabwcTheCursorKeyShowsOrLeavesOutThePointer() throws {
    let labwc = try LabwcCompositor(outputs: 1)
    let target = try labwc.plug()
    let rects = try L.rects(labwc)
    let m = try #require(rects["WL-1"])
    let t = try #require(rects[target])
    let main = Rect(x: m.x, y: m.y, width: m.width, height: m.height)
    let host = try WaylandSurfaces(socket: L.socket(labwc))
    let centre = (x: main.x + main.width / 2, y: main.y + main.height / 2)
    let pointer = try VirtualPointer(socket: L.socket(labwc))
    try pointer.move(
      x: centre.x, y: centre.y, width: max(m.x + m.width, t.x + t.width), height: max(m.y + m.height, t.y + t.height))
    let (cx, cy, desk) = (main.width / 2 - 20, main.height / 2 - 20, UInt32(0))
    // Without overlay_cursor first: a capture with it locks wlroots to software cursors on
    // the output, and the pointer stays drawn into the frames until its image is next set.
    #expect(Self.marks(try labwc.screenshot("WL-1"), cx, cy, side: 100, flat: desk) == 0, "not in the frame itself")
    let shoot = { try labwc.screenshot(target) }
    let without = try Self.mirrored(
      host, ("WL-1", main), onto: target, cursor: false, pointer: centre, flat: desk, shoot)
    #expect(without.shot.pixel(x: without.content.x + 5, y: without.content.y + 5) == desk, "the mirror shows")
    #expect(
      Self.marks(without.shot, without.x - 20, without.y - 20, side: 100, flat: desk) == 0, "cursor false: no pointer")

    // The pointer was there all along: with overlay_cursor grim sees it where it was moved.
    var drawn = try labwc.screenshot("WL-1", cursor: true)
    _ = try eventually(within: 5) {
      drawn = try labwc.screenshot("WL-1", cursor: true)
      return Self.marks(drawn, cx, cy, side: 100, flat: desk) > 0
    }
    try #require(
      Self.marks(drawn, cx, cy, side: 100, flat: desk) > 0, "labwc drew no pointer: \(labwc.log.suffix(1500))")
    let with = try Self.mirrored(host, ("WL-1", main), onto: target, cursor: true, pointer: centre, flat: desk, shoot)
    let shown = Self.marks(with.shot, with.x - 20, with.y - 20, side: 100, flat: desk)
    print("labwc: the mirror with the cursor shows \(shown) pixels of the pointer, without it none")
    #expect(shown > 0, "cursor true: the pointer")
    #expect(Self.marks(with.shot, with.content.x + 10, with.content.y + 10, side: 300, flat: desk) == 0)
  }

  /// Through the daemon: `cursor: true` in the config puts labwc's pointer, over main's bare
  /// desktop, into the mirror on a plugged head.
  @Test func theDaemonsMirrorWithTheCursorKeyShowsThePointer() throws {
    let labwc = try LabwcCompositor(outputs: 1)
    let runtime = try runtimeDirectory()
    let config = """
      {
        main: "WL-1",
        defaults: { content: "mirror", mirror: { source: "main", scale: "fit", cursor: true } },
        monitors: [{ match: { output: "HEADLESS-*" }, position: "below main" }],
      }
      """
    let daemon = try DaemonProcess(
      display: L.socket(labwc), config: config, extra: ["--backend", "wayland"],
      environment: ["XDG_RUNTIME_DIR": runtime])
    let plugged = try labwc.plug()
    var rects: [String: XInspector.Rect] = [:]
    #expect(
      try eventually(within: 5) {
        rects = try L.rects(labwc)
        return rects[plugged]?.y == rects["WL-1"]?.height
      }, "\(rects)")
    let m = try #require(rects["WL-1"])
    let t = try #require(rects[plugged])
    let pointer = try VirtualPointer(socket: L.socket(labwc))
    let centre = (x: m.x + m.width / 2, y: m.y + m.height / 2)
    try pointer.move(
      x: centre.x, y: centre.y, width: max(m.x + m.width, t.x + t.width), height: max(m.y + m.height, t.y + t.height))
    let g = MirrorGeometry(
      source: Rect(x: m.x, y: m.y, width: m.width, height: m.height), width: 1920, height: 1080, scale: .fit)
    let (x, y) = (Int(g.originX + Double(m.width / 2) * g.scaleX), Int(g.originY + Double(m.height / 2) * g.scaleY))
    var shot = try labwc.screenshot(plugged)
    #expect(
      try eventually(within: 5) {
        shot = try labwc.screenshot(plugged)
        return Self.marks(shot, x - 20, y - 20, side: 100, flat: 0) > 0
      }, "no pointer in the mirror: \(daemon.log.suffix(20))")
    #expect(shot.pixel(x: g.content.x + 5, y: g.content.y + 5) == 0, "main's desktop, mirrored")
    #expect(Self.marks(shot, g.content.x + 10, g.content.y + 10, side: 300, flat: 0) == 0, "away from it, the desktop")
  }
}
