import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

extension XServerTests {
  /// Content that could loop, stall or take all memory: mirrors of themselves, huge or tiny
  /// monitors, placeholder images that are not what they say.
  @Suite struct ContentFaults {
    /// Keeps the server and the VNC client alive as long as the test holds it.
    final class Rig {
      let server: TestXServer
      let vnc: VNCClient
      let daemon: DaemonProcess
      let x: XInspector
      init(_ server: TestXServer, _ vnc: VNCClient, _ daemon: DaemonProcess, _ x: XInspector) {
        (self.server, self.vnc, self.daemon, self.x) = (server, vnc, daemon, x)
      }
    }

    func start(_ config: String, layout: [(UInt32, Int, Int)]) throws -> Rig {
      let server = try TestXServer.vnc()
      let vnc = try VNCClient(socketPath: server.vncSocket)
      let main = try #require(vnc.screens.first?.id)
      let daemon = try DaemonProcess(display: server.display, config: config)
      let x = try XInspector(server.display)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080)] + layout.map { (main + $0.0, $0.1, $0.2) }))
      return Rig(server, vnc, daemon, x)
    }

    /// CPU ticks the daemon uses over `seconds` of a still screen.
    func idleTicks(_ daemon: DaemonProcess, seconds: Double) -> Int {
      let before = cpuTicks(daemon.child.pid) ?? 0
      let deadline = Deadline(seconds: seconds)
      while !deadline.passed { daemon.settle(quiet: 0.05) }
      return (cpuTicks(daemon.child.pid) ?? 0) - before
    }

    @Test func aMirrorOverItsOwnSourceIsRefusedWithAReason() throws {
      let rig = try start(
        "{ defaults: { content: 'mirror', position: '0,0' }, placeholder: { background: '#204080' } }",
        layout: [(1, 1280, 1024)])
      let (daemon, x) = (rig.daemon, rig.x)
      let one = eventually(within: 1) { x.displaydWindows().count == 1 }
      daemon.settle(quiet: 0.1)
      #expect(one, "\(daemon.log.suffix(15))")
      let warning = daemon.log.first { $0.contains("overlaps its source") } ?? daemon.waitFor("overlaps its source")
      #expect(warning?.contains("warning") == true, "\(daemon.log.suffix(5))")
      // The refusal shows on the monitor: the placeholder, not a mirror of itself.
      #expect(eventually(within: 1) { x.pixel(x: 2, y: 2) == 0x204080 })
      let ticks = idleTicks(daemon, seconds: 1)
      #expect(ticks <= 5, "\(ticks) ticks of CPU in 1 s of a still screen")
    }

    @Test func twoMonitorsMirroringEachOtherAreRefused() throws {
      let config = """
        { monitors: [
            { match: { output: 'VNC-1' }, content: 'mirror', mirror: { source: 'VNC-2' } },
            { match: { output: 'VNC-2' }, content: 'mirror', mirror: { source: 'VNC-1' } } ] }
        """
      let rig = try start(config, layout: [(1, 1280, 1024), (2, 1024, 768)])
      let (daemon, x) = (rig.daemon, rig.x)
      let two = eventually(within: 1) { x.displaydWindows().count == 2 }
      let cycle = daemon.log.contains { $0.contains("mirror cycle") } || daemon.waitFor("mirror cycle") != nil
      #expect(cycle, "\(daemon.log.suffix(5))")
      daemon.settle(quiet: 0.1)
      #expect(two, "\(daemon.log.suffix(15))")
      let ticks = idleTicks(daemon, seconds: 1)
      #expect(ticks <= 5, "\(ticks) ticks of CPU in 1 s of a still screen")
    }

    @Test func aMirrorDrawingWhereAnotherReadsIsRefusedToo() throws {
      // VNC-1 mirrors main; VNC-2 mirrors VNC-1 but sits over main: each redraws the other.
      let config = """
        { monitors: [
            { match: { output: 'VNC-1' }, content: 'mirror' },
            { match: { output: 'VNC-2' }, content: 'mirror', position: '0,0', mirror: { source: 'VNC-1' } } ] }
        """
      let rig = try start(config, layout: [(1, 1280, 1024), (2, 1024, 768)])
      let (daemon, x) = (rig.daemon, rig.x)
      #expect(eventually(within: 1) { x.displaydWindows().count == 2 })
      let cycle = daemon.log.contains { $0.contains("mirror cycle") } || daemon.waitFor("mirror cycle") != nil
      #expect(cycle, "\(daemon.log.suffix(5))")
      let ticks = idleTicks(daemon, seconds: 1)
      #expect(ticks <= 5, "\(ticks) ticks of CPU in 1 s of a still screen")
    }

    @Test func aTinyMirrorTargetNeitherTrapsNorBuildsAHugeKernel() throws {
      let rig = try start("{ defaults: { content: 'mirror' } }", layout: [(1, 4, 4)])
      let (daemon, x, vnc) = (rig.daemon, rig.x, rig.vnc)
      let shown = eventually(within: 2) { x.displaydWindows().first?.rect.width == 4 }
      daemon.settle(quiet: 0.1)
      #expect(shown, "\(daemon.log.suffix(15)) \(daemon.child.drainOutput().err)")
      #expect(daemon.isRunning)
      let main = try #require(vnc.screens.first?.id)
      try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1, 1)]))
      _ = eventually(within: 1) { x.displaydWindows().first?.rect.width == 1 }
      x.quadrants(.init(x: 0, y: 0, width: 1920, height: 1080), quadrantColours)
      daemon.settle(quiet: 0.2)
      #expect(daemon.isRunning, "\(daemon.log.suffix(4))")
    }

    @Test func aHugeMonitorGetsAPlaceholderWithoutAHugeSurface() throws {
      let rig = try start(colourConfig, layout: [(1, 7680, 4320)])
      let (daemon, x) = (rig.daemon, rig.x)
      let shown = eventually(within: 3) {
        x.displaydWindows().first?.rect == .init(x: 1920, y: 0, width: 7680, height: 4320)
      }
      daemon.settle(quiet: 0.1)
      #expect(shown, "\(daemon.log.suffix(15)) \(x.displaydWindows())")
      #expect(eventually(within: 2) { x.row(y: 2160, from: 1920, to: 9600).contains(foreground) }, "text at the centre")
      #expect(x.pixel(x: 1921, y: 1) == background && x.pixel(x: 9599, y: 4319) == background)
      let peak = procStatusKB(daemon.child.pid, "VmHWM") ?? 0
      #expect(peak < 100 * 1024, "peak RSS \(peak) kB for a 7680x4320 placeholder")
    }

    @Test func aPlaceholderImageThatIsAFIFOOrHugeNeitherBlocksNorStalls() throws {
      let dir = try makeTempDirectory("displayd-image")
      let fifo = dir + "/image.png"
      #expect(mkfifo(fifo, 0o600) == 0)
      let huge = dir + "/huge.png"
      try Data(pngHeader(width: 32767, height: 32767)).write(to: URL(fileURLWithPath: huge))
      for path in [fifo, huge] {
        let server = try TestXServer.vnc()
        let vnc = try VNCClient(socketPath: server.vncSocket)
        let main = try #require(vnc.screens.first?.id)
        // DaemonProcess waits at most 5 s for "ready": a daemon stuck reading fails here.
        let daemon = try DaemonProcess(display: server.display, config: "{ placeholder: { image: '\(path)' } }")
        let warned = daemon.log.contains { $0.contains(path) && $0.contains("warning") } || daemon.waitFor(path) != nil
        #expect(warned, "\(daemon.log.suffix(5))")
        let x = try XInspector(server.display)
        try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
        #expect(eventually(within: 1) { x.displaydWindows().count == 1 }, "\(path): the monitor gets its window")
      }
    }
  }
}

/// A PNG signature and an IHDR chunk for an RGB image of the given size, then IEND: decodes
/// to nothing, but says how large it would be.
func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
  func be(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8((v >> UInt32($0)) & 0xFF) } }
  func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return be(UInt32(data.count)) + body + be(crc32(body))
  }
  let ihdr = be(width) + be(height) + [8, 2, 0, 0, 0]
  return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IEND", [])
}

func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xFFFF_FFFF
  for b in bytes {
    crc ^= UInt32(b)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
  }
  return ~crc
}
