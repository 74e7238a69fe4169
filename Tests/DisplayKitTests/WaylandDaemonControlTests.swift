import DisplayModel
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// The control commands through a daemon on the rig's sway 1.10: `reload` with a changed rule
/// moves the head, `profile switch` and `apply` put the named profile in force (read back with
/// `swaymsg -t get_outputs`), and refusals are answered as on X.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandDaemonControlTests {
  static func command(_ sway: SwayCompositor, _ runtime: String, _ args: [String]) throws -> (
    status: Int32, out: String, err: String
  ) {
    try runCommand(
      [displaydPath] + args + ["--display", WaylandDaemonTests.socket(sway)],
      environment: ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"])
  }

  static func placed(_ sway: SwayCompositor, _ name: String, at rect: XInspector.Rect) throws -> Bool {
    try eventually(within: 5) { try WaylandApplyTests.rect(sway, name) == rect }
  }

  static func rule(_ position: String) -> String {
    #"{ disconnect_grace: 0, monitors: [{ match: { output: "HEADLESS-*" }, position: "\#(position)" }] }"#
  }

  @Test func reloadWithAChangedRuleMovesTheHead() throws {
    let sway = try SwayCompositor()
    let runtime = try runtimeDirectory()
    let daemon = try WaylandDaemonTests.start(sway, config: Self.rule("below main"), runtime: runtime)
    let name = try sway.plug()
    #expect(try Self.placed(sway, name, at: WaylandApplyTests.below), "\(daemon.log)")
    let path = try #require(daemon.configPath)
    try Self.rule("1280,0").write(toFile: path, atomically: true, encoding: .utf8)
    let r = try Self.command(sway, runtime, ["reload"])
    #expect(r.status == 0, "\(r)")
    #expect(try Self.placed(sway, name, at: WaylandApplyTests.right), "\(daemon.log)")
    // A broken config is refused; the daemon keeps the rule it has.
    try "{ monitors: [ }".write(toFile: path, atomically: true, encoding: .utf8)
    let broken = try Self.command(sway, runtime, ["reload"])
    #expect(broken.status == 78 && broken.err.contains(path), "\(broken)")
    #expect(try WaylandApplyTests.rect(sway, name) == WaylandApplyTests.right)
    #expect(daemon.isRunning)
  }

  @Test func profileSwitchAndApplyGoThroughTheDaemon() throws {
    let sway = try SwayCompositor()
    let runtime = try runtimeDirectory()
    let config = """
      {
        profiles: [
          { name: "stacked", outputs: [
            { match: { output: "HEADLESS-1" }, position: "0,0" },
            { match: { output: "HEADLESS-2" }, position: "0,720" },
          ] },
          { name: "row", outputs: [
            { match: { output: "HEADLESS-1" }, position: "0,0" },
            { match: { output: "HEADLESS-2" }, position: "1280,0" },
          ] },
        ],
      }
      """
    let daemon = try WaylandDaemonTests.start(sway, config: config, runtime: runtime)
    let name = try sway.plug()
    #expect(try Self.placed(sway, name, at: WaylandApplyTests.below), "\(daemon.log)")

    let switched = try Self.command(sway, runtime, ["profile", "switch", "row"])
    #expect(switched.status == 0 && switched.out == "switched to profile 'row'\n", "\(switched)")
    #expect(try Self.placed(sway, name, at: WaylandApplyTests.right), "\(daemon.log)")
    let status = try WaylandDaemonTests.status(sway, runtime: runtime)
    #expect((status["profile"] as? [String: Any])?["name"] as? String == "row")
    let unknown = try Self.command(sway, runtime, ["profile", "switch", "nope"])
    #expect(unknown.status == 1 && unknown.err.contains("no profile named 'nope'"), "\(unknown)")

    let applied = try Self.command(sway, runtime, ["apply", "--profile", "stacked", "--backend", "wayland"])
    #expect(
      applied.status == 0 && applied.out == "applied profile 'stacked' (through the running daemon)\n", "\(applied)")
    #expect(try Self.placed(sway, name, at: WaylandApplyTests.below), "\(daemon.log)")
    let refused = try Self.command(sway, runtime, ["apply", "--profile", "nope", "--backend", "wayland"])
    #expect(refused.status == 1 && refused.err.contains("apply refused: no profile named 'nope'"), "\(refused)")
    #expect(daemon.isRunning)
  }

  /// A restore that dropped the saved scale would light the head unscaled, and the rules'
  /// reconcile after it would scale it again: two changes where one puts the layout back.
  @Test func autoAfterALayoutByHandGivesTheHeadItsScaleBackInTheRestoreAlone() throws {
    let sway = try SwayCompositor()
    let runtime = try runtimeDirectory()
    let config = #"{ disconnect_grace: 0, monitors: [{ match: { output: "HEADLESS-2" }, scale: 0.5 }] }"#
    let daemon = try WaylandDaemonTests.start(sway, config: config, runtime: runtime)
    let name = try sway.plug()
    let scaled = XInspector.Rect(x: 1280, y: 0, width: 960, height: 540)
    #expect(try Self.placed(sway, name, at: scaled), "\(daemon.log)")
    let only = try Self.command(sway, runtime, ["profile", "switch", "--layout", "main-only"])
    #expect(only.status == 0, "\(only)")
    #expect(try eventually(within: 5) { try WaylandApplyTests.rect(sway, name) != scaled }, "\(daemon.log)")
    let auto = try Self.command(sway, runtime, ["profile", "switch", "--auto"])
    #expect(auto.status == 0, "\(auto)")
    #expect(try Self.placed(sway, name, at: scaled), "\(daemon.log)")
    daemon.settle()
    let changes = daemon.changingReconciles.filter { $0.contains("(automatic choice)") }
    #expect(changes.count == 1 && changes.first?.contains("restored \(name)") == true, "\(daemon.log)")
  }
}
