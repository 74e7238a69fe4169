import Foundation
import Testing
import XRig

/// X clients under a real Wayland compositor: Debian 12's Xwayland started by the rig's sway
/// 1.10. The compositor owns the layout and Xwayland's RandR mirrors it (outputs `XWAYLAND0`,
/// `XWAYLAND1`, ...). Skipped, saying why, where the rig's packages cannot be downloaded.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct XwaylandRigTests {
  func connectedOutputs(_ sway: SwayCompositor) throws -> [XrandrOutput] {
    let r = try sway.xClient(["xrandr", "--verbose"])
    try #require(r.status == 0, "xrandr failed: \(r.err)")
    return parseXrandrVerbose(r.out).filter(\.connected)
  }

  @Test func anXClientSeesXwaylandOutputsAndAPlugAddsOne() throws {
    let sway = try SwayCompositor(xwayland: true)
    let started = now()
    let display = try sway.startXwayland()
    print("Xwayland up for root on \(display): \(Int((now() - started) * 1000)) ms")
    let first = try connectedOutputs(sway)
    #expect(first.map(\.name) == ["XWAYLAND0"])
    #expect(first.first?.geometry == "1280x720+0+0")

    try sway.plug()
    var outputs: [XrandrOutput] = []
    let seen = try eventually(within: 5) {
      outputs = try connectedOutputs(sway)
      return outputs.count == 2
    }
    #expect(seen, "Xwayland shows \(outputs.map(\.name)) after a plug")
    #expect(outputs.map(\.name) == ["XWAYLAND0", "XWAYLAND1"])
    #expect(outputs.last?.geometry == "1920x1080+1280+0")
  }

  @Test func displaydOutputsListsTheXwaylandOutputs() throws {
    let sway = try SwayCompositor(xwayland: true)
    let display = try sway.startXwayland()
    try sway.plug()
    _ = try eventually(within: 5) { try connectedOutputs(sway).count == 2 }
    let r = try displayd(["outputs", "--display", display])
    #expect(r.status == 0, "displayd outputs: \(r.err)")
    let lines = r.out.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("XWAYLAND0 connected main 1280x720+0+0") }, "\(r.out)")
    #expect(lines.contains { $0.hasPrefix("XWAYLAND1 connected 1920x1080+1280+0") }, "\(r.out)")
  }

  /// Xwayland's RandR is read-only (the compositor owns the layout): a request for a rule's
  /// mode would only be refused (`screen …: BadMatch`). Under `desktop: "auto"` the daemon
  /// sees Xwayland by its outputs, makes no RandR request, leaves the compositor's layout and
  /// still makes its window on the plugged monitor.
  @Test func onXwaylandTheDaemonMakesNoRandRRequestAndStillShowsItsWindow() throws {
    let sway = try SwayCompositor(xwayland: true)
    let display = try sway.startXwayland()
    let daemon = try DaemonProcess(
      display: display, config: #"{ monitors: [ { match: { output: "XWAYLAND1" }, mode: "1280x1024" } ] }"#)
    let name = try sway.plug()
    let window = daemon.waitFor("window 0x", timeout: 10)
    daemon.settle()
    print("daemon log on Xwayland:\n" + daemon.log.joined(separator: "\n"))
    #expect(daemon.isRunning)
    #expect(window?.contains("on XWAYLAND1") == true, "no window for XWAYLAND1")

    // The compositor's layout stands: the mode asked for was not set.
    let plugged = try #require(try connectedOutputs(sway).first { $0.name == "XWAYLAND1" })
    #expect(plugged.geometry == "1920x1080+1280+0")
    #expect(try sway.outputs().first { $0.name == name }?.currentMode?.width == 1920)

    let x = try XInspector(display)
    var windows: [XInspector.TopWindow] = []
    let mapped = eventually(within: 5) {
      windows = x.displaydWindows()
      return windows.first?.mapped == true
    }
    #expect(mapped, "\(windows)")
    #expect(windows.map(\.output) == ["XWAYLAND1"])

    #expect(!daemon.log.contains { $0.contains("BadMatch") }, "a RandR request was refused")
    #expect(daemon.log.contains { $0.contains("a Wayland session") }, "the log names the compositor as the manager")
  }

  /// sway floats a managed X window on the focused output: on Xwayland the daemon's window is
  /// override-redirect, so it lands exactly on its monitor, and the compositor shows its
  /// placeholder there (white, the default background) while the main output keeps sway's.
  @Test func onXwaylandTheWindowIsOverrideRedirectExactlyOnItsMonitorAndShown() throws {
    let sway = try SwayCompositor(xwayland: true, background: "#3366cc")
    let display = try sway.startXwayland()
    let daemon = try DaemonProcess(display: display, config: "{}")
    let name = try sway.plug()
    #expect(daemon.waitFor("window 0x", timeout: 10)?.contains("on XWAYLAND1") == true)
    let x = try XInspector(display)
    var windows: [XInspector.TopWindow] = []
    let placed = eventually(within: 5) {
      windows = x.displaydWindows()
      return windows.first?.mapped == true
    }
    #expect(placed, "\(windows)")
    #expect(windows.first?.overrideRedirect == true)
    #expect(windows.first?.rect == XInspector.Rect(x: 1280, y: 0, width: 1920, height: 1080))
    var image: RGBImage?
    let shown = try eventually(within: 5) {
      image = try sway.screenshot(name)
      return image?.pixel(x: 960, y: 20) == 0xFFFFFF && image?.pixel(x: 1919, y: 1079) == 0xFFFFFF
    }
    #expect(shown, "the plugged output shows \(String(describing: image?.pixel(x: 960, y: 20)))")
    #expect(try sway.screenshot("HEADLESS-1").pixel(x: 640, y: 360) == 0x3366cc, "main keeps sway's background")
    #expect(daemon.log.contains { $0.contains("level overlay") })
  }
}
