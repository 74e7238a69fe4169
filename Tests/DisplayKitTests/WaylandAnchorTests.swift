import Foundation
import Testing
import XRig

/// The programs a wlroots desk uses today, run on the rig's sway: what displayd's Wayland
/// backend is compared with (wlr-randr applying a mode, kanshi's profile `exec` on a plug,
/// wl-mirror's mirror window). Skipped, saying why, where the rig cannot be made.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandAnchorTests {
  /// wlr-output-management applies on sway 1.10: a custom mode and a place set by wlr-randr
  /// read back from sway.
  @Test func wlrRandrSetsACustomModeAndPlaceThatSwayReportsBack() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let r = try sway.client(["wlr-randr", "--output", name, "--custom-mode", "1280x1024", "--pos", "1920,0"])
    try #require(r.status == 0, "wlr-randr failed: \(r.err)")
    var output: SwayOutput?
    let applied = try eventually(within: 5) {
      output = try sway.outputs().first { $0.name == name }
      return output?.rect == XInspector.Rect(x: 1920, y: 0, width: 1280, height: 1024)
    }
    #expect(applied, "\(name) is \(String(describing: output?.rect))")
    #expect(output?.currentMode?.width == 1280 && output?.currentMode?.height == 1024)
  }

  @Test func kanshiRunsItsProfileExecWhenAMonitorIsPlugged() throws {
    let sway = try SwayCompositor()
    let marker = sway.outputDirectory + "/docked"
    let config = sway.outputDirectory + "/kanshi.conf"
    try """
    profile docked {
      output HEADLESS-1 enable
      output HEADLESS-2 enable position 1280,0
      exec touch \(marker)
    }
    """.write(toFile: config, atomically: true, encoding: .utf8)
    let kanshi = try sway.startClient(["kanshi", "-c", config], name: "kanshi")
    // Started before the plug: kanshi has seen the outputs once it logs its (non-)match.
    _ = eventually(within: 5) { kanshi.log().contains("no profile matched") || kanshi.hasEnded }
    #expect(!FileManager.default.fileExists(atPath: marker))
    let started = now()
    #expect(try sway.plug() == "HEADLESS-2")
    let ran = eventually(within: 5) { FileManager.default.fileExists(atPath: marker) }
    #expect(ran, "kanshi: \(kanshi.log())")
    print("plug → kanshi exec done: \(Int((now() - started) * 1000)) ms")
    #expect(kanshi.isRunning)
  }

  /// wl-mirror draws with EGL: Mesa from the rig's folder, in software, on the pixman sway.
  @Test func wlMirrorShowsTheMainOutputFullscreenOnAPluggedOne() throws {
    let sway = try SwayCompositor()
    let name = try sway.plug()
    let mirror = try sway.startClient(
      ["wl-mirror", "--fullscreen-output", name, "HEADLESS-1"], name: "wl-mirror",
      environment: SwayCompositor.mesaEnvironment())
    var window: SwayWindow?
    // Mesa's software EGL starts in about 5 s alone; with the whole suite beside it, it has
    // taken more than 10.
    let shown = try eventually(within: 30) {
      window = try sway.windows().first { $0.shell == "xdg_shell" }
      return window?.output == name || mirror.hasEnded
    }
    #expect(shown, "wl-mirror: \(mirror.log().suffix(1500))")
    #expect(window?.rect == XInspector.Rect(x: 1280, y: 0, width: 1920, height: 1080))
    #expect(mirror.isRunning)
  }
}
