import DisplayModel
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// `displayd apply` and `check-config` on the rig's sway 1.10 without a daemon: the backend
/// chosen from `$WAYLAND_DISPLAY` (with `$DISPLAY` set too, as under Xwayland), the daemon's
/// start-up plan tested and applied once, read back with `swaymsg -t get_outputs`; a dry run
/// and a refused profile leave the desk as it was.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandApplyTests {
  /// sway places a plugged head to the right of the first; these put it below.
  static var below: XInspector.Rect { XInspector.Rect(x: 0, y: 720, width: 1920, height: 1080) }
  static var right: XInspector.Rect { XInspector.Rect(x: 1280, y: 0, width: 1920, height: 1080) }

  static let profiles = """
    {
      profiles: [
        { name: "stacked", outputs: [
          { match: { output: "HEADLESS-1" }, position: "0,0" },
          { match: { output: "HEADLESS-2" }, position: "0,720" },
        ] },
        { name: "three", outputs: [
          { match: { output: "HEADLESS-1" } }, { match: { output: "HEADLESS-2" } },
          { match: { output: "HEADLESS-3" } },
        ] },
      ],
    }
    """

  static func config(_ text: String) throws -> String {
    let path = try makeTempDirectory("displayd-apply") + "/config.json5"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func rect(_ sway: SwayCompositor, _ name: String) throws -> XInspector.Rect? {
    try sway.outputs().first { $0.name == name }?.rect
  }

  @Test func applyPutsTheChosenProfileInForceOnceAndADryRunChangesNothing() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let path = try Self.config(Self.profiles)
    let dry = try WaylandCLITests.run(sway, ["apply", "--dry-run", "--config", path])
    #expect(dry.status == 0, "\(dry.err)")
    let lines = dry.out.split(separator: "\n").map(String.init)
    #expect(lines.first == "dry run: nothing is changed")
    #expect(lines.contains("profile 'stacked': would be chosen"), "\(lines)")
    #expect(lines.contains { $0.hasPrefix("  \(name): ") && $0.contains(" at 0,720") }, "\(lines)")
    #expect(try Self.rect(sway, name) == Self.right, "the dry run moved the head")

    let applied = try WaylandCLITests.run(sway, ["apply", "--config", path])
    #expect(applied.status == 0 && applied.out == "applied profile 'stacked'\n", "\(applied)")
    // The command has exited: what it applied is what the compositor holds now.
    #expect(try Self.rect(sway, name) == Self.below)
    let again = try WaylandCLITests.run(sway, ["apply", "--config", path, "--backend", "wayland"])
    #expect(again.status == 0 && again.out == "profile 'stacked': already in force, nothing to change\n", "\(again)")
  }

  @Test func applyPutsTheMonitorsRulesInForce() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let path = try Self.config(#"{ monitors: [{ match: { output: "HEADLESS-*" }, position: "below main" }] }"#)
    let r = try WaylandCLITests.run(sway, ["apply", "--config", path])
    #expect(r.status == 0 && r.out == "applied the monitors rules\n", "\(r)")
    #expect(try Self.rect(sway, name) == Self.below)
  }

  /// As on X: exit 1 with the reason, the desk untouched, dry run or not.
  @Test func anUnknownOrUnmatchedProfileIsRefusedWithItsReason() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let path = try Self.config(Self.profiles)
    for dry in [[], ["--dry-run"]] {
      let unknown = try WaylandCLITests.run(sway, ["apply", "--profile", "nope", "--config", path] + dry)
      #expect(unknown.status == 1 && unknown.out.isEmpty, "\(unknown)")
      #expect(
        unknown.err.contains("apply refused: no profile named 'nope' (profiles: stacked, three)"), "\(unknown.err)")
      let unmatched = try WaylandCLITests.run(sway, ["apply", "--profile", "three", "--config", path] + dry)
      #expect(unmatched.status == 1, "\(unmatched)")
      #expect(
        unmatched.err.contains("apply refused: profile 'three' does not match the monitors present"), "\(unmatched.err)"
      )
    }
    #expect(try Self.rect(sway, name) == Self.right)
    let bad = try WaylandCLITests.run(sway, ["apply", "--backend", "wl", "--config", path])
    #expect(bad.status == 64 && bad.err.contains("--backend must be x11 or wayland"), "\(bad)")
  }

  @Test func checkConfigShowsTheHeadsAndTheProfileThatWouldBeChosen() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let path = try Self.config(Self.profiles)
    let r = try WaylandCLITests.run(sway, ["check-config", path])
    #expect(r.status == 0, "\(r.err)")
    let lines = r.out.split(separator: "\n").map(String.init)
    #expect(lines.first == "\(path): OK")
    #expect(lines.contains("profile 'stacked': would be chosen"), "\(lines)")
    #expect(lines.contains { $0.hasPrefix("profile 'three': does not match") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("  HEADLESS-1: ") && $0.contains(" at 0,0") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("  \(name): ") && $0.contains(" at 0,720") }, "\(lines)")
    #expect(try Self.rect(sway, name) == Self.right, "check-config moved the head")
    // `--backend x11` reads X instead (none at `$DISPLAY` here): the config alone is checked.
    let x = try WaylandCLITests.run(sway, ["check-config", path, "--backend", "x11"])
    #expect(x.status == 0 && x.out.contains("(no X display reachable"), "\(x)")
  }
}
