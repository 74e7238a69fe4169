import DisplayModel
import DisplayPorts
import DisplayService
import Foundation
import Testing
import XRig

@testable import DisplayRender
@testable import DisplayWayland

#if canImport(Glibc)
  import Glibc
#endif

/// `displayd screenshot` on the rig's sway 1.10, through screencopy: one output's picture
/// equal to grim's pixel for pixel (on an output turned a quarter, with a patch that shows
/// which way), the whole desk composed at the outputs' logical places, and bad arguments
/// refused with a clear error.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandScreenshotTests {
  static let red: UInt32 = 0xE0_2010
  static let green: UInt32 = 0x129A56

  /// displayd run as root on `sway`, with `$DISPLAY` set too (as under Xwayland): Wayland wins.
  static func run(_ sway: SwayCompositor, _ args: [String]) throws -> (status: Int32, out: String, err: String) {
    try runCommand([displaydPath] + args, environment: WaylandCLITests.environment(sway))
  }

  /// A turned head showing a green picture with a red patch near its top left corner (as the
  /// head shows it), through a layer surface of this process.
  static func showPatch(_ sway: SwayCompositor, on name: String) throws -> WaylandSurfaces {
    let host = try WaylandSurfacesTests.host(sway)
    let picture = PlaceholderPicture(
      width: 1080, height: 1920, background: RGBColor(red: 0x12, green: 0x9A, blue: 0x56),
      patches: [
        .init(x: 100, y: 200, image: WaylandSurfacesTests.SolidImage(width: 64, height: 32, colour: Self.red))
      ])
    let spec = SurfaceSpec(
      head: name, rect: Rect(x: 1280, y: 0, width: 1080, height: 1920), level: .overlay,
      background: RGBColor(red: 0, green: 0, blue: 0))
    let id = try host.open(spec)
    try host.show(picture, on: id)
    #expect(try WaylandSurfacesTests.waitFor(host) { host.isConfigured(id) })
    _ = try WaylandSurfacesTests.screenshot(sway, name) { $0.pixel(x: 100, y: 200) == Self.red }
    return host
  }

  @Test func oneOutputAndTheWholeDeskAreWhatGrimSees() throws {
    let sway = try SwayCompositor(background: "#203040")
    let name = try sway.plug()
    // wl_output's 90 (sway's clockwise 270): 1080x1920 logical, the buffer still 1920x1080.
    try #require(try sway.swaymsg(["output", name, "transform", "270"]).status == 0)
    #expect(try eventually(within: 5) { try sway.outputs().first { $0.name == name }?.rect.width == 1080 })
    let host = try Self.showPatch(sway, on: name)
    let dir = try makeTempDirectory("displayd-shot")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let place = try #require(try sway.outputs().first { $0.name == name }?.rect)

    let one = try Self.run(sway, ["screenshot", dir + "/one.png", "--output", name])
    try #require(one.status == 0, "\(one)")
    #expect(one.out == "\(dir)/one.png: 1080x1920+\(place.x)+\(place.y)\n")
    let shot = try PNGPixels(path: dir + "/one.png")
    #expect(shot.width == 1080 && shot.height == 1920)
    #expect(shot.pixel(x: 100, y: 200) == Self.red && shot.pixel(x: 163, y: 231) == Self.red)
    #expect(shot.pixel(x: 99, y: 199) == Self.green && shot.pixel(x: 1079, y: 1919) == Self.green)
    let grim = try sway.screenshot(name)
    #expect(shot.differences(from: grim) == 0)

    let desk = try Self.run(sway, ["screenshot", dir + "/desk.png"])
    try #require(desk.status == 0, "\(desk)")
    let whole = try PNGPixels(path: dir + "/desk.png")
    #expect(whole.width == place.x + 1080 && whole.height == 1920)
    let main = try sway.screenshot("HEADLESS-1")
    #expect(main.pixel(x: 640, y: 360) == WaylandIdentifyTests.desktop)
    #expect(whole.pixel(x: 640, y: 360) == WaylandIdentifyTests.desktop)
    #expect(whole.differences(from: main) == 0)
    #expect(whole.differences(from: grim, atX: place.x, y: place.y) == 0)
    // Below the main head no output shows anything.
    #expect(whole.pixel(x: 640, y: 1000) == 0)
    withExtendedLifetime(host) {}
  }

  /// An output that does not exist is named with those that do (exit 1, nothing written); no
  /// file, an unknown backend: usage errors (64, the usage line); a file that cannot be
  /// written is named.
  @Test func badArgumentsAreRefusedClearly() throws {
    let sway = try SwayCompositor()
    let dir = try makeTempDirectory("displayd-shot")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let unknown = try Self.run(sway, ["screenshot", dir + "/x.png", "--output", "DP-9"])
    #expect(unknown.status == 1 && unknown.err.contains("no output named 'DP-9' (outputs: HEADLESS-1)"), "\(unknown)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
    let usage = "usage: displayd screenshot FILE.png [--output NAME] [--display D] [--backend B]"
    let none = try Self.run(sway, ["screenshot"])
    #expect(none.status == 64 && none.err.contains(usage), "\(none)")
    let backend = try Self.run(sway, ["screenshot", dir + "/x.png", "--backend", "vulkan"])
    #expect(backend.status == 64 && backend.err.contains("--backend must be x11 or wayland"), "\(backend)")
    // `--backend x11` overrides the choice (and fails here: no X server at `$DISPLAY`).
    let x = try Self.run(sway, ["screenshot", dir + "/x.png", "--backend", "x11"])
    #expect(x.status == 69 && x.err.contains(":4242"), "\(x)")
    let unwritable = try Self.run(sway, ["screenshot", "/nonexistent/x.png"])
    #expect(unwritable.status == 1 && unwritable.err.contains("/nonexistent/x.png"), "\(unwritable)")
  }

  /// grim's picture of one of labwc's outputs.
  static func grim(_ labwc: LabwcCompositor, _ output: String) throws -> RGBImage {
    let file = labwc.host.outputDirectory + "/labwc-\(output).ppm"
    let r = try labwc.client(["grim", "-t", "ppm", "-o", output, file])
    guard r.status == 0, let data = FileManager.default.contents(atPath: file) else {
      throw RigError("grim -o \(output) on labwc failed: \(r.err)")
    }
    try? FileManager.default.removeItem(atPath: file)
    return try RGBImage(ppm: Array(data))
  }

  /// labwc 0.8 (nested in the rig's sway, two outputs): the screenshot of each output is
  /// grim's, and identify's card shows on it.
  @Test func onLabwcTheScreenshotIsGrimsAndTheCardShows() throws {
    let labwc = try LabwcCompositor(outputs: 2)
    let environment = [
      "XDG_RUNTIME_DIR": labwc.host.runtime, "WAYLAND_DISPLAY": labwc.waylandDisplay, "PATH": "/usr/bin:/bin",
    ]
    let dir = try makeTempDirectory("displayd-shot")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let names = try labwc.outputNames()
    #expect(names.count == 2)
    for name in names {
      let r = try runCommand(
        [displaydPath, "screenshot", dir + "/\(name).png", "--output", name], environment: environment)
      try #require(r.status == 0, "\(r)")
      let shot = try PNGPixels(path: dir + "/\(name).png")
      let grim = try Self.grim(labwc, name)
      #expect(shot.width == grim.width && shot.height == grim.height)
      #expect(shot.differences(from: grim) == 0, "\(name)")
    }
    let first = try Self.grim(labwc, names[0])
    let rect = IdentifyCard.cardRect(in: Rect(x: 0, y: 0, width: first.width, height: first.height))
    let identify = try ChildProcess(
      [displaydPath, "identify", "--seconds", "2", "--backend", "wayland"], environment: environment)
    #expect(try eventually(within: 2) { WaylandIdentifyTests.showsCard(try Self.grim(labwc, names[0]), at: rect) })
    #expect(identify.wait(timeout: 10) == 0)
  }
}
