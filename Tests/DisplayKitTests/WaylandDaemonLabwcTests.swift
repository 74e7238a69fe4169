import DisplayModel
import DisplayService
import Foundation
import Testing
import XRig

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
}
