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

    func setUp(scale: String, extra: String = "") throws -> Rig {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let x = try XInspector(server.display)
      let daemon = try DaemonProcess(
        display: server.display,
        config: "{ defaults: { content: 'mirror', mirror: { scale: '\(scale)' } }, placeholder: { background: '#204080' } \(extra) }")
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
      #expect(ok, "\(label): \(points.map { "(\($0.0),\($0.1)) = \(String(x.pixel(x: 1920 + $0.0, y: $0.1) ?? 0, radix: 16)), want \(String($0.2, radix: 16))" })")
    }

    @Test func fitLetterboxesAndShowsTheQuadrants() throws {
      let rig = try setUp(scale: "fit")
      let x = rig.x
      // 1920x1080 into 1280x1024: scale 2/3, content 1280x720 at y 152, bars of 152 px.
      expectPixels(
        x, [(320, 332, 0xff0000), (960, 332, 0x00ff00), (320, 692, 0x0000ff), (960, 692, 0xffff00)], "fit quadrants")
      expectPixels(x, [(0, 0, mirrorBackground), (640, 151, mirrorBackground), (1279, 872, mirrorBackground), (5, 1023, mirrorBackground)], "fit bars")
    }

    @Test func fillCropsAndStretchIgnoresTheAspect() throws {
      do {
        let rig = try setUp(scale: "fill")
        let x = rig.x
        // scale 1024/1080, content 1820 wide centred: origin x -270.
        expectPixels(x, [(185, 256, 0xff0000), (1095, 256, 0x00ff00), (185, 768, 0x0000ff), (1095, 768, 0xffff00)], "fill")
        expectPixels(x, [(0, 0, 0xff0000), (1279, 1023, 0xffff00)], "fill has no bars")
      }
      let rig = try setUp(scale: "stretch")
      let x = rig.x
      expectPixels(x, [(320, 256, 0xff0000), (960, 256, 0x00ff00), (320, 768, 0x0000ff), (960, 768, 0xffff00)], "stretch")
      expectPixels(x, [(0, 0, 0xff0000), (1279, 1023, 0xffff00)], "stretch has no bars")
    }

    @Test func aChangeShowsWithin100ms() throws {
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
      #expect(latencies.sorted()[latencies.count / 2] < 0.1, "median \(latencies)")
      #expect(latencies.max() ?? 1 < 0.1, "every change within 100 ms: \(latencies)")
    }
  }
}
