import Foundation
import Testing
import XRig

/// The real-compositor rig itself: Debian 13's sway 1.10 headless, run from the rig's folder,
/// plugs and unplugs monitors that a wlr-output-management client (wlr-randr) sees, and
/// screenshots them through screencopy (grim). Skipped, saying why, where the rig's packages
/// cannot be downloaded.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandRigTests {
  /// One head of `wlr-randr --json`.
  struct Head: Decodable {
    struct Mode: Decodable {
      var width: Int
      var height: Int
      var current: Bool
    }
    var name: String
    var enabled: Bool
    var modes: [Mode]
    var currentMode: Mode? { modes.first(where: \.current) }
  }

  func heads(_ sway: SwayCompositor) throws -> [Head] {
    let r = try sway.client(["wlr-randr", "--json"])
    try #require(r.status == 0, "wlr-randr failed: \(r.err)")
    return try JSONDecoder().decode([Head].self, from: Data(r.out.utf8))
  }

  @Test func swayStartsHeadlessWithOneOutput() throws {
    let sway = try SwayCompositor()
    print("sway start: \(Int(sway.startSeconds * 1000)) ms")
    let version = try sway.swaymsg(["-t", "get_version", "-r"]).out
    #expect(version.contains("\"human_readable\": \"1.10"))
    let outputs = try sway.outputs()
    #expect(outputs.map(\.name) == ["HEADLESS-1"])
    #expect(outputs.first?.active == true)
    #expect(outputs.first?.rect == XInspector.Rect(x: 0, y: 0, width: 1280, height: 720))
    #expect(sway.isRunning)
  }

  /// The point of Debian 13's sway: wlroots 0.18 reports a plugged headless head as enabled
  /// with its mode (Debian 12's wlroots 0.15 said disabled, 0x0), and can remove it again.
  @Test func aPluggedOutputIsEnabledAt1920x1080AndUnplugRemovesIt() throws {
    let sway = try SwayCompositor()
    let started = now()
    let name = try sway.plug()
    print("plug (create_output until listed): \(Int((now() - started) * 1000)) ms")
    let plugged = try #require(try heads(sway).first { $0.name == name }, "wlr-randr does not list \(name)")
    #expect(plugged.enabled)
    #expect(plugged.currentMode?.width == 1920 && plugged.currentMode?.height == 1080)
    let output = try #require(try sway.outputs().first { $0.name == name })
    #expect(output.active && output.rect == XInspector.Rect(x: 1280, y: 0, width: 1920, height: 1080))
    #expect(output.currentMode?.width == 1920 && output.currentMode?.height == 1080)

    try sway.unplug(name)
    #expect(try heads(sway).map(\.name) == ["HEADLESS-1"])
    #expect(try sway.outputs().map(\.name) == ["HEADLESS-1"])
  }

  /// A client run as root (as the daemon may be in tests) reaches sway with the runtime
  /// folder and socket name alone.
  @Test func aClientRunAsRootSeesTheSameOutputs() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let env = sway.waylandEnvironment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
    let r = try runCommand(WaylandRig.command(["wlr-randr", "--json"]), environment: env)
    try #require(r.status == 0, "wlr-randr as root: \(r.err)")
    let heads = try JSONDecoder().decode([Head].self, from: Data(r.out.utf8))
    #expect(heads.map(\.name).sorted() == ["HEADLESS-1", name])
  }

  @Test func grimScreenshotsOneOutputAtItsSize() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let file = sway.outputDirectory + "/shot.png"
    let r = try sway.client(["grim", "-o", name, file])
    try #require(r.status == 0, "grim failed: \(r.err)")
    let size = try #require(pngSize(file), "no PNG at \(file)")
    #expect(size.width == 1920 && size.height == 1080)
    let main = try sway.client(["grim", "-o", "HEADLESS-1", file])
    try #require(main.status == 0, "grim failed: \(main.err)")
    #expect(pngSize(file).map { [$0.width, $0.height] } == [1280, 720])
  }

  /// The pixels of a screenshot are the compositor's: swaybg's solid background on a
  /// plugged output, in every corner and the middle.
  @Test func aScreenshotShowsTheBackgroundSwayDrawsOnAPluggedOutput() throws {
    let sway = try SwayCompositor(background: "#3366cc")
    let name = try sway.plug()
    var image: RGBImage?
    // swaybg draws a moment after the output appears.
    let drawn = try eventually(within: 5) {
      image = try sway.screenshot(name)
      return image?.pixel(x: 960, y: 540) == 0x3366cc
    }
    #expect(drawn, "the middle is \(String(describing: image?.pixel(x: 960, y: 540)))")
    let shot = try #require(image)
    #expect(shot.width == 1920 && shot.height == 1080)
    let corners = [(0, 0), (1919, 0), (0, 1079), (1919, 1079)].map { shot.pixel(x: $0.0, y: $0.1) }
    #expect(corners == Array(repeating: 0x3366cc, count: 4))
  }

  /// sway, its Xwayland (no child of sway's, but in its process group) and the rig's X client all
  /// go when the fixture stops.
  @Test func stoppingSwayLeavesNoneOfItsProcesses() throws {
    let sway = try SwayCompositor(xwayland: true)
    try sway.startXwayland()
    let pids = sway.processes()
    let names = pids.compactMap { try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8) }
    #expect(names.contains("Xwayland\n"), "\(names)")
    let stopping = now()
    sway.stop()
    print("sway and Xwayland stopped in \(Int((now() - stopping) * 1000)) ms")
    let left = pids.filter { pid in
      let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      return !stat.isEmpty && !stat.contains(") Z ")
    }
    #expect(left.isEmpty, "left running: \(left)")
    #expect(!sway.isRunning)
  }

  /// A sway that cannot start fails the fixture at once with sway's own words, not at the
  /// deadline.
  @Test func aSwayThatCannotStartFailsFastWithItsLog() throws {
    let started = now()
    do {
      _ = try SwayCompositor(environment: ["WLR_BACKENDS": "no-such-backend"])
      Issue.record("sway started with no backend")
    } catch let error as RigError {
      #expect(error.description.contains("no-such-backend"), "\(error)")
    }
    #expect(now() - started < 10)
  }

  /// labwc nested in sway: each of its outputs is a sway window, closing one unplugs it.
  @Test func labwcNestedInSwayStartsWithTwoOutputsAndLosesOneWithItsWindow() throws {
    let labwc = try LabwcCompositor(outputs: 2)
    print("labwc nested start (with its sway): \(Int(labwc.startSeconds * 1000)) ms")
    #expect(try labwc.outputNames() == ["WL-1", "WL-2"])
    let r = try labwc.client(["wlr-randr", "--json"])
    let heads = try JSONDecoder().decode([Head].self, from: Data(r.out.utf8))
    #expect(heads.allSatisfy { $0.enabled && ($0.currentMode?.width ?? 0) > 0 }, "\(r.out)")
    try labwc.unplug("WL-2")
    #expect(try labwc.outputNames() == ["WL-1"])
    #expect(labwc.isRunning)
  }

  /// kanshi as the oracle of kanshi config files, for the import tests: both kanshis tell a
  /// valid file from a bad one, and the bad one's line.
  @Test func kanshiTellsAValidConfigFromABadOneAndItsLine() throws {
    let dir = try makeTempDirectory("displayd-kanshi-files")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let good = dir + "/good"
    let bad = dir + "/bad"
    try "profile desk {\n  output HDMI-A-1 mode 1920x1080 position 0,0\n  output eDP-1 disable\n}\n".write(
      toFile: good, atomically: true, encoding: .utf8)
    try "profile desk {\n  output eDP-1 enable\n  output HDMI-A-1 bogus 1\n}\n".write(
      toFile: bad, atomically: true, encoding: .utf8)
    for build in Kanshi.Build.allCases {
      #expect(try Kanshi.check(good, with: build) == .valid, "\(build.rawValue)")
      guard case .invalid(let line, _) = try Kanshi.check(bad, with: build) else {
        Issue.record("\(build.rawValue) took the bad file")
        continue
      }
      #expect(line == 3, "\(build.rawValue)")
    }
    // Where the two differ: `adaptive_sync` came after kanshi 1.3.1.
    let newer = dir + "/newer"
    try "profile {\n  output eDP-1 enable adaptive_sync on\n}\n".write(toFile: newer, atomically: true, encoding: .utf8)
    let both = try Kanshi.checkBoth(newer)
    #expect(both.rig == .valid)
    guard case .invalid(line: 2, _) = both.debian12 else {
      Issue.record("kanshi 1.3.1 took adaptive_sync: \(both.debian12)")
      return
    }
    guard case .unclear = try Kanshi.check(dir + "/missing") else {
      Issue.record("a missing file read as valid or invalid")
      return
    }
  }
}

/// The Wayland suites' skip note; the reason itself is printed once when the rig is first
/// asked for (a comment made from it would run scripts/wayland-rig for every test run).
let noWaylandRig: Comment = "no Wayland rig here: scripts/wayland-rig (run as root) could not make it; it printed why"

/// A PNG's width and height from its IHDR chunk.
func pngSize(_ path: String) -> (width: Int, height: Int)? {
  guard let data = FileManager.default.contents(atPath: path), data.count >= 24,
    data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
  else { return nil }
  let be = { (o: Int) in data[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
  return (be(16), be(20))
}
