import DisplayModel
import DisplayService
import DisplaySupport
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// `displayd run --backend wayland` on the rig's sway 1.10 with one headless output: a plugged
/// head gets its rule's place and a placeholder layer surface covering exactly it (read back
/// with `swaymsg -t get_outputs` and `grim`); the unplug takes the surface away and the
/// daemon's Wayland objects back to their count; hooks run on plug; `status` through the
/// control socket names the backend and the compositor.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandDaemonTests {
  /// The placeholder's background, and sway's own (never a placeholder's).
  static let placeholder: UInt32 = 0x12AB34
  static let desktop = "#203040"

  /// The daemon on `sway`'s socket, with a control socket in a private runtime folder.
  static func start(
    _ sway: SwayCompositor, config: String, runtime: String
  ) throws -> DaemonProcess {
    try DaemonProcess(
      display: socket(sway), config: config, extra: ["--backend", "wayland"],
      environment: ["XDG_RUNTIME_DIR": runtime])
  }

  static func socket(_ sway: SwayCompositor) -> String { sway.runtime + "/" + sway.waylandDisplay }

  /// `displayd status --json` through the control socket.
  static func status(_ sway: SwayCompositor, runtime: String) throws -> [String: Any] {
    let r = try runCommand(
      [displaydPath, "status", "--json", "--display", socket(sway)],
      environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
    try #require(r.status == 0, "\(r.err)")
    return try jsonObject(r.out)
  }

  static func objects(_ status: [String: Any]) -> Int? { status["wayland_objects"] as? Int }

  static let config = """
    {
      placeholder: { background: "#12ab34", details: false, text: "" },
      monitors: [{ match: { output: "HEADLESS-*" }, position: "below main" }],
    }
    """

  @Test func aPluggedHeadGetsItsRulesPlaceAndAPlaceholderCoveringItAndTheUnplugLeavesNothing() throws {
    let sway = try SwayCompositor(background: Self.desktop)
    let runtime = try runtimeDirectory()
    let daemon = try Self.start(sway, config: Self.config, runtime: runtime)
    let before = try Self.status(sway, runtime: runtime)
    #expect(before["backend"] as? String == "wayland")
    #expect(before["compositor"] as? String == "sway")
    #expect((before["monitors"] as? [Any])?.isEmpty == true)
    let objectsBefore = try #require(Self.objects(before))
    let text = try runCommand(
      [displaydPath, "status", "--display", Self.socket(sway)],
      environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
    #expect(text.out.split(separator: "\n").contains("backend: wayland (compositor: sway)"), "\(text)")

    let name = try sway.plug()
    // sway places a new head to the right (1280,0); the rule puts it below the main head.
    var placed: SwayOutput?
    #expect(
      try eventually(within: 5) {
        placed = try sway.outputs().first { $0.name == name }
        return placed?.rect == XInspector.Rect(x: 0, y: 720, width: 1920, height: 1080)
      }, "\(String(describing: placed)) \(daemon.log)")
    _ = try eventually(within: 5) {
      let image = try sway.screenshot(name)
      return image.pixel(x: 0, y: 0) == Self.placeholder && image.pixel(x: 1919, y: 1079) == Self.placeholder
    }
    let covered = try sway.screenshot(name)
    #expect(covered.width == 1920 && covered.height == 1080)
    #expect(
      [(0, 0), (1919, 0), (0, 1079), (1919, 1079)].map { covered.pixel(x: $0.0, y: $0.1) }
        == Array(repeating: Self.placeholder, count: 4))
    // The main head keeps the desktop: the surface covers exactly the plugged one.
    let main = try sway.screenshot("HEADLESS-1")
    #expect(main.pixel(x: 640, y: 360) != Self.placeholder)
    let during = try Self.status(sway, runtime: runtime)
    let monitors = during["monitors"] as? [[String: Any]] ?? []
    #expect(monitors.map { $0["output"] as? String } == [name])
    #expect(try #require(Self.objects(during)) > objectsBefore)

    try sway.unplug(name)
    var after: [String: Any] = [:]
    #expect(
      try eventually(within: 5) {
        after = try Self.status(sway, runtime: runtime)
        return (after["monitors"] as? [Any])?.isEmpty == true
      }, "\(daemon.log)")
    #expect(
      try eventually(within: 5) {
        after = try Self.status(sway, runtime: runtime)
        return Self.objects(after) == objectsBefore
      }, "before \(objectsBefore), after \(String(describing: Self.objects(after)))")
    #expect(daemon.isRunning)
  }

  /// A profile of three heads: the second turned a quarter left (wl_output's 90, sway's
  /// clockwise 270) beside the first, the third off; the connected hook ran for each plug.
  @Test func aProfileTurnsOneHeadAndSwitchesOneOffAndHooksRunOnPlug() throws {
    let sway = try SwayCompositor(background: Self.desktop)
    let runtime = try runtimeDirectory()
    let hookLog = try makeTempDirectory("displayd-hooks") + "/connected"
    let config = """
      {
        hooks: { connected: [["/bin/sh", "-c", "echo \\"$DISPLAYD_OUTPUT\\" >> \(hookLog)"]] },
        profiles: [{
          name: "desk",
          outputs: [
            { match: { output: "HEADLESS-1" }, position: "0,0" },
            { match: { output: "HEADLESS-2" }, rotate: "left", position: "1280,0" },
            { match: { output: "HEADLESS-3" }, enabled: false },
          ],
        }],
      }
      """
    let daemon = try Self.start(sway, config: config, runtime: runtime)
    let second = try sway.plug()
    let third = try sway.plug()
    #expect([second, third] == ["HEADLESS-2", "HEADLESS-3"])
    var outputs: [SwayOutput] = []
    let arranged = try eventually(within: 5) {
      outputs = try sway.outputs()
      let turned = outputs.first { $0.name == second }
      let off = outputs.first { $0.name == third }
      return turned?.rect == XInspector.Rect(x: 1280, y: 0, width: 1080, height: 1920) && off?.active == false
    }
    daemon.drain()
    #expect(arranged, "\(outputs) \(daemon.log)")
    #expect(outputs.first { $0.name == second }?.transform == "270", "\(outputs)")
    let status = try Self.status(sway, runtime: runtime)
    #expect((status["profile"] as? [String: Any])?["name"] as? String == "desk")
    var ran: [String] = []
    #expect(
      try eventually(within: 5) {
        ran = ((try? String(contentsOfFile: hookLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        return ran.sorted() == [second, third]
      }, "\(ran)")
  }

  /// Nothing plugged or changed: the daemon sleeps in `poll()` (one wake-up at most, for a
  /// late answer of its own start).
  @Test func anIdleDaemonOnSwayDoesNotWakeUp() throws {
    let sway = try SwayCompositor()
    let runtime = try runtimeDirectory()
    let daemon = try Self.start(sway, config: Self.config, runtime: runtime)
    daemon.settle()
    let pid = daemon.child.pid
    let asleep = eventually(within: 5) {
      (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8))?.contains("poll") == true
    }
    try #require(asleep, "the daemon is asleep in poll()")
    let before = try wakeups(pid)
    _ = pollFDs([], timeoutMs: 1_000)  // the observation window, not a wait for anything
    let after = try wakeups(pid)
    #expect(after - before <= 1, "\(after - before) wake-ups in 1 s")
  }

  /// The lid from a mocked logind: closed with a monitor plugged, the panel head goes off;
  /// opened, it comes back on (a head the compositor holds off is lit again).
  @Test func closingTheLidTurnsThePanelHeadOffAndOpeningLightsItAgain() throws {
    let logind = try MockLogind()
    let sway = try SwayCompositor()
    let runtime = try runtimeDirectory()
    let config = "{ panel: 'HEADLESS-1', main: 'HEADLESS-1', defaults: { lid_closed: 'disable' } }"
    let daemon = try DaemonProcess(
      display: Self.socket(sway), config: config, extra: ["--backend", "wayland"],
      environment: logind.environment.merging(["XDG_RUNTIME_DIR": runtime]) { _, new in new })
    let second = try sway.plug()
    func active(_ name: String) throws -> Bool? { try sway.outputs().first { $0.name == name }?.active }
    try logind.setLid(closed: true)
    #expect(try eventually(within: 5) { try active("HEADLESS-1") == false }, "\(daemon.log.suffix(8))")
    #expect(try active(second) == true)
    try logind.setLid(closed: false)
    let back = try eventually(within: 5) { try active("HEADLESS-1") == true }
    daemon.drain()
    #expect(back, "\(daemon.log.suffix(12))")
  }
}
