import DisplayModel
import DisplayPorts
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// `outputs`, `modes` and `watch` on the rig's sway 1.10: the backend chosen from
/// `$WAYLAND_DISPLAY` (Wayland wins over `$DISPLAY`), the same report shapes as on X11 with
/// a backend field, and hot-plug lines from the compositor's events.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandCLITests {
  /// displayd run as root on `sway`, with `$DISPLAY` set too (as under Xwayland).
  static func run(_ sway: SwayCompositor, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
    try runCommand([displaydPath] + args, environment: environment(sway))
  }

  static func environment(_ sway: SwayCompositor) -> [String: String] {
    sway.waylandEnvironment.merging(["PATH": "/usr/bin:/bin", "DISPLAY": ":4242"]) { a, _ in a }
  }

  @Test func outputsJSONOnSwayHasTheX11ShapeWithTheBackendAndEachHead() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let r = try Self.run(sway, ["outputs", "--json"])
    try #require(r.status == 0, "\(r.err)")
    let json = try jsonObject(r.out)
    #expect(json["backend"] as? String == "wayland")
    #expect((json["compositor"] as? String)?.hasSuffix("(sway)") == true)
    let screen = try #require(json["screen"] as? [String: Any])
    #expect(screen["width"] as? Int == 3200 && screen["height"] as? Int == 1080)
    let outputs = try #require(json["outputs"] as? [[String: Any]])
    #expect(outputs.compactMap { $0["name"] as? String } == ["HEADLESS-1", name])
    let plugged = try #require(outputs.last)
    #expect(plugged["connected"] as? Bool == true)
    let crtc = plugged["crtc"] as? [String: Any]
    #expect(
      [crtc?["x"], crtc?["y"], crtc?["width"], crtc?["height"]].compactMap { $0 as? Int } == [1280, 0, 1920, 1080])
    let mode = plugged["current_mode"] as? [String: Any]
    #expect(mode?["width"] as? Int == 1920 && mode?["height"] as? Int == 1080)
    let head = plugged["head"] as? [String: Any]
    #expect((head?["description"] as? String)?.hasPrefix("Headless output") == true, "\(String(describing: head))")
    #expect((head?["scale"] as? NSNumber)?.doubleValue == 1)
  }

  @Test func outputsAndModesTextOnSway() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let outputs = try Self.run(sway, ["outputs"])
    try #require(outputs.status == 0, "\(outputs.err)")
    let lines = outputs.out.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("Screen: 3200x1080") == true && lines.first?.contains("wayland") == true)
    #expect(lines.dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["HEADLESS-1", name])
    #expect(lines.last?.contains("1920x1080+1280+0") == true, "\(lines)")

    let modes = try Self.run(sway, ["modes", name, "--json"])
    try #require(modes.status == 0, "\(modes.err)")
    let list = try #require((try jsonObject(modes.out))["outputs"] as? [[String: Any]])
    #expect(list.map { $0["name"] as? String } == [name])
    let sizes = (list.first?["modes"] as? [[String: Any]] ?? []).map { [$0["width"] as? Int, $0["height"] as? Int] }
    #expect(sizes.contains([1920, 1080]))
    let unknown = try Self.run(sway, ["modes", "DP-9"])
    #expect(unknown.status == 1 && unknown.err.contains("DP-9"))
  }

  /// `--backend x11` overrides the choice (and fails here: no X server at `$DISPLAY`); a
  /// backend that does not exist is a usage error.
  @Test func theBackendFlagOverridesTheChoice() throws {
    let sway = try SwayCompositor()
    let x = try Self.run(sway, ["outputs", "--backend", "x11"])
    #expect(x.status == 69 && x.err.contains(":4242"), "\(x)")
    let wayland = try Self.run(sway, ["outputs", "--json", "--backend", "wayland"])
    let backend = try jsonObject(wayland.out)["backend"] as? String
    #expect(wayland.status == 0 && backend == "wayland")
    let none = try runCommand(
      [displaydPath, "outputs", "--backend", "wayland"],
      environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": sway.runtime, "WAYLAND_DISPLAY": "wayland-99"])
    #expect(none.status == 69 && none.err.contains("wayland-99"), "\(none)")
    let bad = try Self.run(sway, ["outputs", "--backend", "quartz"])
    #expect(bad.status == 64 && bad.err.contains("x11 or wayland"))
  }

  /// A plug and an unplug on sway are `connected` and `disconnected` lines, as on X11.
  @Test func watchPrintsPlugAndUnplugFromTheCompositorsEvents() throws {
    let sway = try SwayCompositor()
    let child = try ChildProcess([displaydPath, "watch", "--json"], environment: Self.environment(sway))
    let ready = child.readErrorLine(timeout: 5) ?? ""
    try #require(ready.contains("watching Wayland compositor"), "\(ready)")
    let name = try sway.plug()
    let connected = try #require(try nextEvent(child, "connected", name), "no connected line")
    let crtc = connected["crtc"] as? [String: Any]
    #expect(crtc?["width"] as? Int == 1920 && crtc?["x"] as? Int == 1280)
    try sway.unplug(name)
    #expect(try nextEvent(child, "disconnected", name) != nil, "no disconnected line")
    child.signal(SIGTERM)
    #expect(child.wait(timeout: 2) == 0)
  }

  /// Idle on sway, `watch` sleeps in poll() with no timer: the compositor's events wake it,
  /// nothing else does.
  @Test func watchOnSwayMakesNoWakeupsWhileNothingHappens() throws {
    let sway = try SwayCompositor()
    let child = try ChildProcess([displaydPath, "watch"], environment: Self.environment(sway))
    try #require((child.readErrorLine(timeout: 5) ?? "").contains("watching"))
    let settled = eventually(within: 2) {
      (try? String(contentsOfFile: "/proc/\(child.pid)/wchan", encoding: .utf8))?.contains("poll") == true
    }
    #expect(settled, "watch is asleep in poll()")
    #expect(armedTimers(child.pid).isEmpty, "\(armedTimers(child.pid))")
    let before = try wakeups(child.pid)
    _ = pollFDs([], timeoutMs: 1_000)  // the observation window, not a wait for anything
    #expect(try wakeups(child.pid) == before, "wake-ups in 1 s of idling")
    child.signal(SIGTERM)
    #expect(child.wait(timeout: 2) == 0)
  }

  /// libwayland-client is loaded only by the Wayland backend: `watch` on sway maps it.
  @Test func theWaylandBackendLoadsTheClientLibrary() throws {
    let sway = try SwayCompositor()
    let child = try ChildProcess([displaydPath, "watch"], environment: Self.environment(sway))
    try #require((child.readErrorLine(timeout: 5) ?? "").contains("watching"))
    #expect(try XServerTests.RendererLoad.mapped(["libwayland-client.so"], pid: child.pid) == ["libwayland-client.so"])
    child.signal(SIGTERM)
    #expect(child.wait(timeout: 2) == 0)
  }

  func nextEvent(_ child: ChildProcess, _ event: String, _ output: String) throws -> [String: Any]? {
    let deadline = Deadline(seconds: 5)
    while !deadline.passed {
      guard let line = child.readLine(timeout: Double(deadline.remainingMs) / 1000) else { return nil }
      let obj = try jsonObject(line)
      if obj["event"] as? String == event, obj["output"] as? String == output { return obj }
    }
    return nil
  }
}

extension XServerTests {
  /// On X, with no `$WAYLAND_DISPLAY`, nothing of Wayland is loaded: the CLI's start-up and
  /// its memory are what they were.
  @Suite struct WaylandNotLoadedOnX {
    @Test func watchOnXNeverMapsTheWaylandClientLibrary() throws {
      let server = try TestXServer.vnc()
      let child = try ChildProcess(
        [displaydPath, "watch", "--display", server.display], environment: ["PATH": "/usr/bin:/bin"])
      let ready = child.readErrorLine(timeout: 5) ?? ""
      try #require(ready.contains("watching display"), "\(ready)")
      #expect(try RendererLoad.mapped(["libwayland-client.so"], pid: child.pid).isEmpty)
      child.signal(SIGTERM)
      #expect(child.wait(timeout: 2) == 0)
    }
  }
}
