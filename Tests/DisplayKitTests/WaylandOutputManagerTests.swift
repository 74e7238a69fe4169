import DisplayModel
import DisplayPorts
import DisplayWayland
import DisplayX11
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// The wlroots backend against the rig's real compositors: sway 1.10 headless (monitors plugged
/// with `create_output`, read back with `swaymsg -t get_outputs`) and labwc 0.8 nested in it.
/// Skipped, saying why, where the rig cannot be made.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandOutputManagerTests {
  /// The socket as an absolute path: the test process keeps its own environment.
  static func manager(_ sway: SwayCompositor) throws -> WaylandOutputManager {
    try WaylandOutputManager(socket: sway.runtime + "/" + sway.waylandDisplay)
  }

  /// Dispatches the compositor's events until `condition` holds (poll on the socket, no sleeps).
  static func waitFor(_ manager: WaylandOutputManager, within seconds: Double = 5, _ condition: () throws -> Bool)
    throws -> Bool
  {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      var p = pollfd(fd: manager.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
      _ = poll(&p, 1, Int32(left * 1000) + 1)
      try manager.dispatch()
    }
    return true
  }

  @Test func theHeadSwayStartsWithIsReadWithItsModeAndPlace() throws {
    let sway = try SwayCompositor()
    let manager = try Self.manager(sway)
    #expect(manager.backendName == "wayland")
    #expect(manager.serverName.hasSuffix("(sway)"), "\(manager.serverName)")
    #expect(manager.protocolVersion == 2)
    let snapshot = try manager.heads(probe: false)
    #expect(snapshot.heads.map(\.name) == ["HEADLESS-1"])
    let head = try #require(snapshot.heads.first)
    #expect(head.enabled && head.connected)
    #expect(head.mode.map { [$0.width, $0.height] } == [1280, 720])
    #expect(head.rect == Rect(x: 0, y: 0, width: 1280, height: 720))
    #expect(head.scale == 1 && head.transform == .normal)
    #expect(head.description == "Headless output 1", "\(head)")
    #expect(snapshot.generation != 0)
  }

  /// A monitor plugged shows up as a `done` on the socket (no polling of the compositor), with
  /// its 1920x1080 mode at sway's place for it; unplugged, it and its Wayland objects go.
  @Test func aPluggedMonitorAppearsWithItsModesAndUnpluggedLeavesNothingHeld() throws {
    let sway = try SwayCompositor()
    let manager = try Self.manager(sway)
    let objectsBefore = manager.objectCount
    var dones = 0
    manager.changed = { dones += 1 }
    let name = try sway.plug()
    #expect(try Self.waitFor(manager) { try manager.heads(probe: false).head(named: name) != nil })
    #expect(dones >= 1)
    let head = try #require(try manager.heads(probe: false).head(named: name))
    #expect(head.enabled)
    #expect(head.modes.contains { $0.width == 1920 && $0.height == 1080 }, "\(head.modes)")
    #expect(head.rect == Rect(x: 1280, y: 0, width: 1920, height: 1080))
    #expect(manager.objectCount > objectsBefore)

    try sway.unplug(name)
    #expect(try Self.waitFor(manager) { try manager.heads(probe: false).head(named: name) == nil })
    #expect(try manager.heads(probe: false).heads.map(\.name) == ["HEADLESS-1"])
    #expect(manager.objectCount == objectsBefore)
  }

  /// Mode (a custom one: headless heads list only their own), place, a quarter turn and the
  /// config's scale 0.5 (wlroots' 2) in one configuration; sway then holds exactly that.
  @Test func anAppliedConfigurationIsWhatSwayThenHolds() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let manager = try Self.manager(sway)
    let snapshot = try manager.heads(probe: true)
    let mode = ModeLine(dotClock: 108_000_000, h: (1280, 1328, 1440, 1688), v: (1024, 1025, 1028, 1066), flags: [])
    let wanted = OutputConfiguration(
      generation: snapshot.generation,
      heads: [
        HeadConfiguration(name: "HEADLESS-1", enabled: true, x: 0, y: 0),
        HeadConfiguration(
          name: name, enabled: true, mode: .custom(mode), x: 1280, y: 0, transform: .rotated90, scale: 0.5),
      ])
    #expect(try manager.test(wanted) == .applied)
    #expect(try manager.apply(wanted) == .applied)

    let output = try #require(try sway.outputs().first { $0.name == name })
    #expect(output.currentMode?.width == 1280 && output.currentMode?.height == 1024)
    #expect(output.rect == XInspector.Rect(x: 1280, y: 0, width: 512, height: 640))
    #expect(output.scale == 2)
    // sway names turns clockwise: the protocol's counter-clockwise 90 is its 270.
    #expect(output.transform == "270")
    let head = try #require(try manager.heads(probe: false).head(named: name))
    #expect(head.transform == .rotated90 && head.scale == 0.5)
    #expect(head.rect == Rect(x: 1280, y: 0, width: 512, height: 640))
  }

  /// A head at a fractional scale covers the area sway lays it out at: the mode divided by
  /// the logical scale, rounded down (1366 at 1.5 is 910, where RandR's rounding up or the
  /// nearest would say 911), and exactly where the scale divides it. (The protocol's scale is
  /// 24.8 fixed point: a scale it cannot hold, such as 1.2, reaches a client rounded.)
  @Test(arguments: [1.5, 1.25, 1.75, 2, 3])
  func aHeadAtAFractionalScaleCoversWhatSwayLaysOut(_ logical: Double) throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let set = try sway.swaymsg(["--", "output", name, "mode", "--custom", "1366x768", "scale", "\(logical)"])
    try #require(set.status == 0, "\(set.out) \(set.err)")
    let manager = try Self.manager(sway)
    let output = try #require(try sway.outputs().first { $0.name == name })
    let head = try #require(try manager.heads(probe: false).head(named: name))
    #expect(head.mode.map { [$0.width, $0.height] } == [1366, 768])
    let r = output.rect
    #expect(head.rect == Rect(x: r.x, y: r.y, width: r.width, height: r.height), "sway's scale \(output.scale)")
  }

  @Test func turningAMonitorOffAndOnAgain() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let manager = try Self.manager(sway)
    var snapshot = try manager.heads(probe: true)
    #expect(try manager.apply(OutputConfiguration(generation: snapshot.generation, heads: [.off(name)])) == .applied)
    #expect(try sway.outputs().first { $0.name == name }?.active == false)
    snapshot = try manager.heads(probe: false)
    #expect(snapshot.head(named: name)?.enabled == false && snapshot.head(named: name)?.rect == nil)
    let on = HeadConfiguration(
      name: name, enabled: true, mode: .listed(width: 1920, height: 1080, refreshMilliHz: 0), x: 0, y: 720)
    #expect(try manager.apply(OutputConfiguration(generation: snapshot.generation, heads: [on])) == .applied)
    let output = try #require(try sway.outputs().first { $0.name == name })
    #expect(output.active && output.rect == XInspector.Rect(x: 0, y: 720, width: 1920, height: 1080))
  }

  /// A configuration planned before a plug carries the old serial: sway cancels it, and
  /// nothing changes.
  @Test func aConfigurationFromBeforeAPlugIsStaleAndChangesNothing() throws {
    let sway = try SwayCompositor()
    let manager = try Self.manager(sway)
    let old = try manager.heads(probe: false)
    let name = try sway.plug()
    #expect(try Self.waitFor(manager) { try manager.heads(probe: false).head(named: name) != nil })
    let before = try sway.outputs()
    let moved = OutputConfiguration(
      generation: old.generation, heads: [HeadConfiguration(name: "HEADLESS-1", enabled: true, x: 5000, y: 0)])
    #expect(try manager.apply(moved) == .stale)
    #expect(try manager.test(moved) == .stale)
    #expect(try sway.outputs() == before)
  }

  /// `test` answers without changing anything, and a head the compositor does not have is
  /// refused before anything is sent.
  @Test func aTestChangesNothingAndAnUnknownHeadIsRefused() throws {
    let sway = try SwayCompositor()
    let manager = try Self.manager(sway)
    let snapshot = try manager.heads(probe: false)
    let before = try sway.outputs()
    let moved = OutputConfiguration(
      generation: snapshot.generation,
      heads: [HeadConfiguration(name: "HEADLESS-1", enabled: true, x: 640, y: 480, transform: .flipped180, scale: 0.5)])
    #expect(try manager.test(moved) == .applied)
    #expect(try sway.outputs() == before)
    #expect(try manager.heads(probe: true) == snapshot)
    let unknown = OutputConfiguration(generation: snapshot.generation, heads: [.off("DP-9")])
    guard case .refused(let refusal) = try manager.apply(unknown) else {
      Issue.record("an unknown head was not refused")
      return
    }
    #expect(refusal.reason.contains("DP-9"))
  }

  /// labwc 0.8 at start-up (nested in the rig's sway: each output a window there).
  @Test func labwcsOutputsAtStartUp() throws {
    let labwc = try LabwcCompositor(outputs: 2)
    let manager = try WaylandOutputManager(socket: labwc.host.runtime + "/" + labwc.waylandDisplay)
    #expect(manager.serverName.hasSuffix("(labwc)"), "\(manager.serverName)")
    let heads = try manager.heads(probe: false).heads
    #expect(heads.map(\.name).sorted() == ["WL-1", "WL-2"])
    #expect(heads.allSatisfy { $0.enabled && $0.mode != nil && $0.rect != nil }, "\(heads)")
    #expect(Set(heads.compactMap(\.rect).map(\.x)).count == 2, "labwc places its outputs side by side")
  }

  /// labwc 0.8 takes a configuration too: its second output moved and turned, as another
  /// client (wlr-randr) then reads it.
  @Test func labwcAppliesAPlaceAndATurn() throws {
    let labwc = try LabwcCompositor(outputs: 2)
    let manager = try WaylandOutputManager(socket: labwc.host.runtime + "/" + labwc.waylandDisplay)
    let snapshot = try manager.heads(probe: false)
    let moved = OutputConfiguration(
      generation: snapshot.generation,
      heads: [HeadConfiguration(name: "WL-2", enabled: true, x: 4000, y: 100, transform: .rotated180)])
    #expect(try manager.apply(moved) == .applied)
    let r = try labwc.client(["wlr-randr", "--json"])
    try #require(r.status == 0, "\(r.err)")
    let heads = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [[String: Any]])
    let wl2 = try #require(heads.first { $0["name"] as? String == "WL-2" })
    let position = wl2["position"] as? [String: Any]
    #expect(position?["x"] as? Int == 4000 && position?["y"] as? Int == 100, "\(wl2)")
    #expect(wl2["transform"] as? String == "180")
    #expect(try manager.heads(probe: false).head(named: "WL-2")?.transform == .rotated180)
  }
}
