import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

let quadrantColours: [UInt32] = [0xff0000, 0x00ff00, 0x0000ff, 0xffff00]
let mirrorBackground: UInt32 = 0x204080

extension XServerTests {
  @Suite struct Mirror {
    /// Xvnc with a 1920x1080 main monitor, a daemon with `mirror`, a 1280x1024 monitor
    /// plugged right of it, then quadrants drawn on the main one (after the plug: growing the
    /// screen reallocates Xvnc's framebuffer, which loses what unmanaged windows drew).
    struct Rig {
      var server: TestXServer
      var vnc: VNCClient
      var daemon: DaemonProcess
      var x: XInspector
      var source: UInt
    }

    func setUp(scale: String, extra: String = "", environment: [String: String] = [:]) throws -> Rig {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let x = try XInspector(server.display)
      let daemon = try DaemonProcess(
        display: server.display,
        config:
          "{ defaults: { content: 'mirror', mirror: { scale: '\(scale)' } }, placeholder: { background: '#204080' } \(extra) }",
        environment: environment)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      guard eventually(within: 1, { x.displaydWindows().count == 1 }) else {
        daemon.settle(quiet: 0.2)
        throw RigError("no mirror window: \(daemon.log.joined(separator: "\n"))")
      }
      let source = x.quadrants(.init(x: 0, y: 0, width: 1920, height: 1080), quadrantColours)
      return Rig(server: server, vnc: vnc, daemon: daemon, x: x, source: source)
    }

    func expectPixels(_ x: XInspector, _ points: [(Int, Int, UInt32)], _ label: String) {
      let ok = eventually(within: 1) { points.allSatisfy { x.pixel(x: 1920 + $0.0, y: $0.1) == $0.2 } }
      #expect(
        ok,
        "\(label): \(points.map { "(\($0.0),\($0.1)) = \(String(x.pixel(x: 1920 + $0.0, y: $0.1) ?? 0, radix: 16)), want \(String($0.2, radix: 16))" })"
      )
    }

    @Test func fitLetterboxesAndShowsTheQuadrants() throws {
      let rig = try setUp(scale: "fit")
      let x = rig.x
      // 1920x1080 into 1280x1024: scale 2/3, content 1280x720 at y 152, bars of 152 px.
      expectPixels(
        x, [(320, 332, 0xff0000), (960, 332, 0x00ff00), (320, 692, 0x0000ff), (960, 692, 0xffff00)], "fit quadrants")
      expectPixels(
        x,
        [
          (0, 0, mirrorBackground), (640, 151, mirrorBackground), (1279, 872, mirrorBackground),
          (5, 1023, mirrorBackground),
        ], "fit bars")
    }

    @Test func fillCropsAndStretchIgnoresTheAspect() throws {
      do {
        let rig = try setUp(scale: "fill")
        let x = rig.x
        // scale 1024/1080, content 1820 wide centred: origin x -270.
        expectPixels(
          x, [(185, 256, 0xff0000), (1095, 256, 0x00ff00), (185, 768, 0x0000ff), (1095, 768, 0xffff00)], "fill")
        expectPixels(x, [(0, 0, 0xff0000), (1279, 1023, 0xffff00)], "fill has no bars")
      }
      let rig = try setUp(scale: "stretch")
      let x = rig.x
      expectPixels(
        x, [(320, 256, 0xff0000), (960, 256, 0x00ff00), (320, 768, 0x0000ff), (960, 768, 0xffff00)], "stretch")
      expectPixels(x, [(0, 0, 0xff0000), (1279, 1023, 0xffff00)], "stretch has no bars")
    }

    /// How fast is a benchmark figure (`displayd-bench mirror`); here, that each change shows.
    @Test func eachChangeOfTheSourceShowsInTheMirror() throws {
      let rig = try setUp(scale: "fit")
      let (x, source) = (rig.x, rig.source)
      expectPixels(x, [(320, 332, 0xff0000)], "before")
      var latencies: [Double] = []
      for (i, colour) in [UInt32(0xff00ff), 0x00ffff, 0xffffff, 0x808080, 0xff0000].enumerated() {
        let start = now()
        x.fill(source, .init(x: 0, y: 0, width: 960, height: 540), colour)
        let seen = eventually(within: 1) { x.pixel(x: 1920 + 320, y: 332) == colour }
        #expect(seen, "change \(i) shows")
        latencies.append(now() - start)
      }
      print("mirror: change → shown \(latencies.map { Int($0 * 1000) }) ms")
    }

    /// The daemon's counters, read through its control socket.
    func counters(_ runtime: String, _ display: String) throws -> [String: Int] {
      let r = try runCommand(
        [displaydPath, "status", "--json", "--display", display], environment: ["XDG_RUNTIME_DIR": runtime])
      return try #require(try jsonObject(r.out)["counters"] as? [String: Int])
    }

    @Test func aStillScreenCostsNoCompositeAndNoWakeup() throws {
      let runtime = try runtimeDirectory()
      let rig = try setUp(scale: "fit", environment: ["XDG_RUNTIME_DIR": runtime])
      expectPixels(rig.x, [(320, 332, 0xff0000)], "mirroring")
      // Settled: the count stops moving once the quadrants' damage and our own are handled.
      var last = -1
      let settled = eventually(within: 2) {
        let now = (try? counters(runtime, rig.server.display)["composites"]) ?? -2
        defer { last = now }
        return now == last
      }
      #expect(settled)
      let composites = try counters(runtime, rig.server.display)["composites"]
      #expect(eventually(within: 1) { allThreadsIdle(rig.daemon.child.pid) })
      #expect(armedTimers(rig.daemon.child.pid).isEmpty, "no frame timer armed: \(armedTimers(rig.daemon.child.pid))")
      let afterStatus = try wakeups(rig.daemon.child.pid)
      _ = pollFDs([], timeoutMs: 1_000)  // the observation window: a still screen
      #expect(try wakeups(rig.daemon.child.pid) == afterStatus, "no wake-ups in 1 s of a still screen")
      #expect(try counters(runtime, rig.server.display)["composites"] == composites, "no composite")
    }

    @Test func unpluggingTheSourceFallsBackAndPluggingItResumesWithoutLeaks() throws {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let x = try XInspector(server.display)
      let runtime = try runtimeDirectory()
      // The source is the last screen, so unplugging it leaves the others' outputs alone.
      let daemon = try DaemonProcess(
        display: server.display,
        config:
          "{ monitors: [ { match: { output: 'VNC-1' }, content: 'mirror', mirror: { source: 'VNC-2' } } ], defaults: { content: 'none' } }",
        environment: ["XDG_RUNTIME_DIR": runtime])
      let baseline = try x.resources(ofPid: daemon.child.pid)
      let main = try #require(vnc.screens.first?.id)
      let withSource = VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024), (main + 2, 1024, 768)])
      func content() throws -> String? {
        let r = try runCommand(
          [displaydPath, "status", "--json", "--display", server.display], environment: ["XDG_RUNTIME_DIR": runtime])
        return (try jsonObject(r.out)["monitors"] as? [[String: Any]])?.first { $0["output"] as? String == "VNC-1" }?[
          "content"] as? String
      }
      try vnc.setLayout(withSource)
      #expect(eventually(within: 1) { (try? content()) == "mirror" })
      let mirroring = try x.resources(ofPid: daemon.child.pid)
      #expect(mirroring["PICTURE", default: 0] >= 2 && mirroring["DamageExt", default: 0] == 1, "\(mirroring)")

      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
      #expect(eventually(within: 1) { (try? content()) == "placeholder" }, "the source went: placeholder")
      #expect(
        eventually(within: 1) {
          (try? x.resources(ofPid: daemon.child.pid))?["PICTURE", default: 0] == baseline["PICTURE", default: 0]
        })
      try vnc.setLayout(withSource)
      #expect(eventually(within: 1) { (try? content()) == "mirror" }, "the source is back: mirroring again")

      try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))
      // Every resource type: the pictures, the damage and the cursor events go with the last
      // mirror. The X server keeps a client's XInput 2 record on the root once made (its masks
      // cleared, it delivers nothing): that one INPUTCLIENT is all that may stay.
      let expected = baseline.merging(["INPUTCLIENT": 1]) { $0 + $1 }
      let clean = try eventually(within: 1) { try x.resources(ofPid: daemon.child.pid) == expected }
      #expect(clean, "X-Resource counts back to \(expected): \((try? x.resources(ofPid: daemon.child.pid)) ?? [:])")
    }

    @Test func thePointerIsDrawnIntoTheMirrorAndFollows() throws {
      let rig = try setUp(scale: "fit")
      let x = rig.x
      expectPixels(x, [(320, 332, 0xff0000), (960, 692, 0xffff00)], "mirroring")
      // The pointer over the red quadrant's centre: mirror (1920 + 320, 152 + 180).
      try x.movePointer(x: 480, y: 270, display: rig.server.display)
      let drawn = eventually(within: 1) {
        x.square(x: 1920 + 320 + 4, y: 332 + 4, radius: 6).contains { $0 != 0xff0000 }
      }
      #expect(drawn, "cursor pixels over the red quadrant in the mirror")
      try x.movePointer(x: 1440, y: 810, display: rig.server.display)
      let moved = eventually(within: 1) {
        x.square(x: 1920 + 320 + 4, y: 332 + 4, radius: 6).allSatisfy { $0 == 0xff0000 }
          && x.square(x: 1920 + 960 + 4, y: 692 + 4, radius: 6).contains { $0 != 0xffff00 }
      }
      #expect(moved, "the old spot is clean, the cursor shows at the new one")
    }

    @Test func aNewCursorShapeShowsInTheMirror() throws {
      let rig = try setUp(scale: "fit")
      let x = rig.x
      expectPixels(x, [(320, 332, 0xff0000)], "mirroring")
      try x.movePointer(x: 480, y: 270, display: rig.server.display)
      let area = { x.square(x: 1920 + 320, y: 332, radius: 12) }
      #expect(eventually(within: 1) { area().contains { $0 != 0xff0000 } }, "the first cursor shows")
      let before = area()
      x.defineCursor(rig.source, fontShape: 34)  // XC_crosshair
      #expect(
        eventually(within: 1) {
          let now = area()
          return now != before && now.contains { $0 != 0xff0000 }
        }, "the crosshair replaces it")
    }

    @Test func cursorFalseDrawsNoPointer() throws {
      let rig = try setUp(
        scale: "fit",
        extra: ", monitors: [ { match: { output: 'VNC-1' }, content: 'mirror', mirror: { cursor: false } } ]")
      expectPixels(rig.x, [(320, 332, 0xff0000)], "mirroring")
      try rig.x.movePointer(x: 480, y: 270, display: rig.server.display)
      rig.x.fill(rig.source, .init(x: 1000, y: 600, width: 10, height: 10), 0x123456)  // something to wait for
      #expect(eventually(within: 1) { rig.x.pixel(x: 1920 + 670, y: 152 + 402) == 0x123456 })
      #expect(rig.x.square(x: 1920 + 320 + 4, y: 332 + 4, radius: 6).allSatisfy { $0 == 0xff0000 })
    }

    @Test func followsSourceAndTargetModeChanges() throws {
      let rig = try setUp(scale: "fit")
      let x = rig.x
      expectPixels(x, [(320, 332, 0xff0000)], "mirroring")
      // The source shrinks to 1280x1024: only the quadrants' top-left 1280x1024 shows, 1:1.
      try rig.server.must(["xrandr", "--output", "VNC-0", "--mode", "1280x1024"])
      let window = try #require(x.displaydWindows().first)
      let target = window.rect.x
      // Xvnc reallocates its framebuffer on a mode change: draw the quadrants again.
      _ = eventually(within: 1) { (try? rig.server.must(["xrandr"]))?.contains("VNC-0 connected 1280x1024") == true }
      x.quadrants(.init(x: 0, y: 0, width: 1920, height: 1080), quadrantColours)
      let followed = eventually(within: 1) {
        x.pixel(x: target + 100, y: 10) == 0xff0000 && x.pixel(x: target + 1100, y: 10) == 0x00ff00
          && x.pixel(x: target + 100, y: 1000) == 0x0000ff
      }
      #expect(followed, "the mirror follows the source's new size: no bars at 1:1")
      // The target changes mode: the window follows and the mirror rescales into it.
      let output = try #require(
        parseXrandrVerbose(try rig.server.must(["xrandr", "--verbose"])).first {
          $0.geometry?.hasPrefix("1280x1024+\(target)") == true && $0.name != "VNC-0"
        })
      try rig.server.must(["xrandr", "--output", output.name, "--mode", "640x480"])
      _ = eventually(within: 1) { x.displaydWindows().first?.rect.width == 640 }
      x.quadrants(.init(x: 0, y: 0, width: 1920, height: 1080), quadrantColours)
      let shrunk = eventually(within: 1) {
        guard let w = x.displaydWindows().first, w.rect.width == 640 else { return false }
        // 1280x1024 into 640x480: scale 15/32, content 600x480 at x 20.
        return x.pixel(x: w.rect.x + 25, y: 5) == 0xff0000 && x.pixel(x: w.rect.x + 5, y: 5) == mirrorBackground
      }
      #expect(shrunk, "the mirror follows the target's new mode")
    }
  }
}
