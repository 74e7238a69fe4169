import DisplayModel
import DisplayPorts
import DisplayService
import Foundation
import Testing
import XRig

@testable import DisplayRender
@testable import DisplayWayland

/// `displayd run --backend wayland` on labwc 0.8.3 (nested in the rig's sway) through real
/// hot-plugs: a nested output (a window of the outer sway) closed under its placeholder, and
/// a headless output added and removed at run time by labwc's own `VirtualOutputAdd` and
/// `VirtualOutputRemove` actions (pressed on a virtual keyboard). The plugged head gets its
/// rule's place and a placeholder covering exactly it (read back with `wlr-randr` and
/// `grim` on labwc); each unplug takes the surface away and the daemon's objects back.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandDaemonLabwcTests {
  typealias D = WaylandDaemonTests

  static let config = """
    {
      main: "WL-1",
      placeholder: { background: "#12ab34", details: false, text: "" },
      monitors: [{ match: { output: "HEADLESS-*" }, position: "below main" }],
    }
    """

  static func socket(_ labwc: LabwcCompositor) -> String { labwc.host.runtime + "/" + labwc.waylandDisplay }

  static func status(_ labwc: LabwcCompositor, runtime: String) throws -> [String: Any] {
    let r = try runCommand(
      [displaydPath, "status", "--json", "--display", socket(labwc)],
      environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
    try #require(r.status == 0, "\(r.err)")
    return try jsonObject(r.out)
  }

  static func monitors(_ status: [String: Any]) -> [String] {
    (status["monitors"] as? [[String: Any]] ?? []).compactMap { $0["output"] as? String }.sorted()
  }

  /// Each lit head's place and current mode, as labwc reports them to `wlr-randr --json`.
  static func rects(_ labwc: LabwcCompositor) throws -> [String: XInspector.Rect] {
    let r = try labwc.client(["wlr-randr", "--json"])
    guard r.status == 0, let list = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]] else {
      throw RigError("wlr-randr on labwc failed: \(r.err)")
    }
    var found: [String: XInspector.Rect] = [:]
    for head in list where head["enabled"] as? Bool == true {
      let int = { (d: [String: Any]?, k: String) in (d?[k] as? NSNumber)?.intValue ?? 0 }
      let position = head["position"] as? [String: Any]
      let mode = (head["modes"] as? [[String: Any]])?.first { $0["current"] as? Bool == true }
      found[head["name"] as? String ?? ""] = XInspector.Rect(
        x: int(position, "x"), y: int(position, "y"), width: int(mode, "width"), height: int(mode, "height"))
    }
    return found
  }

  /// The corners and the middle of `image`.
  static func corners(_ image: RGBImage) -> [UInt32?] {
    [(0, 0), (image.width - 1, 0), (0, image.height - 1), (image.width - 1, image.height - 1)].map {
      image.pixel(x: $0.0, y: $0.1)
    } + [image.pixel(x: image.width / 2, y: image.height / 2)]
  }

  @Test func labwcsOutputsPluggedAndUnpluggedGetAndLoseTheirPlaceholderThroughTheDaemon() throws {
    let labwc = try LabwcCompositor(outputs: 2)
    let runtime = try runtimeDirectory()
    let daemon = try DaemonProcess(
      display: Self.socket(labwc), config: Self.config, extra: ["--backend", "wayland"],
      environment: ["XDG_RUNTIME_DIR": runtime])
    let placeholder = Array(repeating: Optional(D.placeholder), count: 5)
    // At start the nested second output gets its placeholder.
    var status: [String: Any] = [:]
    #expect(
      try eventually(within: 5) {
        status = try Self.status(labwc, runtime: runtime)
        return Self.monitors(status) == ["WL-2"]
      }, "\(status) \(daemon.log.suffix(20))")
    #expect(status["compositor"] as? String == "labwc")
    var shot = try labwc.screenshot("WL-2")
    #expect(
      try eventually(within: 5) {
        shot = try labwc.screenshot("WL-2")
        return Self.corners(shot) == placeholder
      }, "\(Self.corners(shot))")
    let withSecond = try #require(D.objects(status))

    // Its window closed in the outer sway: the output goes, and the surface with it.
    try labwc.unplug("WL-2")
    #expect(
      try eventually(within: 5) {
        status = try Self.status(labwc, runtime: runtime)
        return Self.monitors(status).isEmpty
      }, "\(status) \(daemon.log.suffix(20))")
    let alone = try #require(D.objects(status))
    #expect(alone < withSecond, "the second output's surface and head released: \(alone) vs \(withSecond)")

    // A headless output added at run time: below main, as the rule says, with a placeholder.
    let plugged = try labwc.plug()
    #expect(plugged.hasPrefix("HEADLESS-"))
    var rects: [String: XInspector.Rect] = [:]
    #expect(
      try eventually(within: 5) {
        rects = try Self.rects(labwc)
        guard let main = rects["WL-1"] else { return false }
        return rects[plugged] == XInspector.Rect(x: main.x, y: main.y + main.height, width: 1920, height: 1080)
      }, "\(rects) \(daemon.log.suffix(20))")
    #expect(
      try eventually(within: 5) {
        shot = try labwc.screenshot(plugged)
        return Self.corners(shot) == placeholder
      }, "\(Self.corners(shot))")
    #expect(shot.width == 1920 && shot.height == 1080)
    let main = try labwc.screenshot("WL-1")
    #expect(main.pixel(x: main.width / 2, y: main.height / 2) != D.placeholder, "main keeps its desktop")
    status = try Self.status(labwc, runtime: runtime)
    #expect(Self.monitors(status) == [plugged])
    #expect(try #require(D.objects(status)) > alone)

    // VirtualOutputRemove: the surface and every object of the head go.
    try labwc.unplug(plugged)
    #expect(
      try eventually(within: 5) {
        status = try Self.status(labwc, runtime: runtime)
        return Self.monitors(status).isEmpty && D.objects(status) == alone
      }, "alone \(alone), now \(String(describing: D.objects(status))) \(daemon.log.suffix(20))")
    #expect(daemon.isRunning && labwc.isRunning)
  }

  /// Quadrants of four colours over `width` x `height`: red, green, blue, yellow.
  static func quadrants(_ width: Int, _ height: Int, _ colours: [UInt32]) -> PlaceholderPicture {
    typealias Solid = WaylandSurfacesTests.SolidImage
    let (w, h) = (width / 2, height / 2)
    let rgb = { (c: UInt32) in RGBColor(red: UInt8(c >> 16 & 0xFF), green: UInt8(c >> 8 & 0xFF), blue: UInt8(c & 0xFF))
    }
    return PlaceholderPicture(
      width: width, height: height, background: rgb(colours[0]),
      patches: [
        .init(x: w, y: 0, image: Solid(width: width - w, height: h, colour: colours[1])),
        .init(x: 0, y: h, image: Solid(width: w, height: height - h, colour: colours[2])),
        .init(x: w, y: h, image: Solid(width: width - w, height: height - h, colour: colours[3])),
      ])
  }

  /// A headless output plugged into labwc mirrors main (a nested output showing quadrants
  /// of the test's own layer surface), fitted; a change on main shows; while main is still
  /// nothing is copied; the unplug gives every object back.
  @Test func aHeadPluggedIntoLabwcMirrorsMainThroughTheDaemon() throws {
    let labwc = try LabwcCompositor(outputs: 1)
    let main = try #require(try Self.rects(labwc)["WL-1"])
    let host = try WaylandSurfaces(socket: Self.socket(labwc))
    let black = RGBColor(red: 0, green: 0, blue: 0)
    let pattern = try host.open(
      SurfaceSpec(
        head: "WL-1", rect: Rect(x: 0, y: 0, width: main.width, height: main.height), level: .normal, background: black)
    )
    let colours: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00]
    try host.show(Self.quadrants(main.width, main.height, colours), on: pattern)
    #expect(try WaylandSurfacesTests.waitFor(host) { host.isConfigured(pattern) })
    let runtime = try runtimeDirectory()
    let config = """
      {
        main: "WL-1",
        placeholder: { background: "#12ab34", details: false, text: "" },
        defaults: { content: "mirror", mirror: { source: "main", scale: "fit", cursor: false } },
        monitors: [{ match: { output: "HEADLESS-*" }, position: "below main" }],
      }
      """
    let daemon = try DaemonProcess(
      display: Self.socket(labwc), config: config, extra: ["--backend", "wayland"],
      environment: ["XDG_RUNTIME_DIR": runtime])
    let objectsBefore = try #require(D.objects(try Self.status(labwc, runtime: runtime)))
    let plugged = try labwc.plug()
    var status: [String: Any] = [:]
    #expect(
      try eventually(within: 5) {
        status = try Self.status(labwc, runtime: runtime)
        return (status["monitors"] as? [[String: Any]])?.first?["content"] as? String == "mirror"
      }, "\(status) \(daemon.log.suffix(20))")
    let centres = [(480, 270), (1440, 270), (480, 810), (1440, 810)]
    var shot = try labwc.screenshot(plugged)
    #expect(
      try eventually(within: 5) {
        shot = try labwc.screenshot(plugged)
        return centres.map { shot.pixel(x: $0.0, y: $0.1) } == colours
      }, "\(centres.map { shot.pixel(x: $0.0, y: $0.1).map { String($0, radix: 16) } ?? "-" })")
    // fit: main's aspect is wider than 16:9, so the bars are above and below, in the
    // placeholder's background at full strength from edge to edge (labwc filters bilinearly).
    for (x, y) in [(0, 0), (960, 1), (1919, 10), (5, 1079), (960, 1078)] {
      #expect(shot.pixel(x: x, y: y) == D.placeholder, "bar at \(x), \(y) of \(main)")
    }

    var last = -1
    #expect(
      eventually(within: 3) {
        let now = (try? Self.status(labwc, runtime: runtime)).flatMap(WaylandDaemonMirrorTests.composites) ?? -2
        defer { last = now }
        return now == last && now > 0
      })
    let still = try #require(WaylandDaemonMirrorTests.composites(try Self.status(labwc, runtime: runtime)))
    _ = pollFDs([], timeoutMs: 1_000)  // the observation window: main is still
    #expect(WaylandDaemonMirrorTests.composites(try Self.status(labwc, runtime: runtime)) == still)

    try host.show(Self.quadrants(main.width, main.height, Array(repeating: 0xFFFFFF, count: 4)), on: pattern)
    try host.roundtrip()
    #expect(
      try eventually(within: 5) {
        shot = try labwc.screenshot(plugged)
        return centres.allSatisfy { shot.pixel(x: $0.0, y: $0.1) == 0xFFFFFF }
      }, "the change on main shows in the mirror")

    try labwc.unplug(plugged)
    #expect(
      try eventually(within: 5) {
        status = try Self.status(labwc, runtime: runtime)
        return Self.monitors(status).isEmpty && D.objects(status) == objectsBefore
      }, "before \(objectsBefore), now \(String(describing: D.objects(status))) \(daemon.log.suffix(20))")
    host.close(pattern)
  }
}
