import DisplayModel
import DisplayPorts
import DisplayRender
import Testing
import XRig

@testable import DisplayX11

#if canImport(Glibc)
  import Glibc
#endif

/// The surface port's X backend against a real server (Xvnc): what it makes on the server and
/// frees again, the events it turns into `SurfaceEvent`s, and its frame pacing by a clock the
/// test moves (the damage is real, drawn by another client).
private let black = RGBColor(red: 0, green: 0, blue: 0)

extension XServerTests {
  @Suite struct XSurfacesOnVNC {
    /// A manual clock for the pacing.
    final class Clock: @unchecked Sendable {
      var now: UInt64 = 1_000_000_000
    }

    struct Rig {
      let server: TestXServer
      let connection: XConnection
      let surfaces: XSurfaces
      let x: XInspector
      let clock = Clock()
      /// A resource id of the connection's client, to ask X-Resource about it.
      let client: UInt
      /// What the client holds with no surface.
      let baseline: [String: Int]

      /// What the client holds now but the root's XInput event selection: pointer tracking
      /// ends with an empty mask (a mirror that draws the pointer comes and goes), and the
      /// server keeps that one record of the client's selection.
      func held() throws -> [String: Int] {
        var now = try x.resources(ofClientOwning: client)
        #expect(now["INPUTCLIENT", default: 0] <= 1)
        now["INPUTCLIENT"] = nil
        return now
      }

      init() throws {
        server = try TestXServer.vnc()
        connection = try XConnection(name: server.display)
        let clock = clock
        surfaces = XSurfaces(connection: connection, now: { clock.now })
        x = try XInspector(server.display)
        let probe = try connection.createWindow(
          SurfaceSpec(head: "probe", rect: Rect(x: 0, y: 0, width: 1, height: 1), level: .overlay, background: black))
        connection.destroyWindow(probe)
        try connection.sync()
        client = probe.rawValue
        baseline = try x.resources(ofClientOwning: client)
      }

      func spec(_ rect: Rect) -> SurfaceSpec {
        SurfaceSpec(
          head: "VNC-1", rect: rect, level: .overlay, background: RGBColor(red: 0x20, green: 0x40, blue: 0x80))
      }

      /// The top-left quarter of the screen, mirrored into the bottom-right one.
      var request: MirrorRequest {
        let geometry = MirrorGeometry(
          source: Rect(x: 0, y: 0, width: 960, height: 540), width: 960, height: 540, scale: .fit)
        return MirrorRequest(source: "VNC-0", geometry: geometry, filter: .auto, cursor: true, refreshHz: 60)
      }
      var corner: Rect { Rect(x: 960, y: 540, width: 960, height: 540) }

      /// Reads and drains the connection until `done` says so (or 3 s pass); every surface
      /// event seen on the way.
      func pump(seconds: Double = 3, until done: ([SurfaceEvent]) -> Bool) throws -> [SurfaceEvent] {
        var events: [SurfaceEvent] = []
        let deadline = XSurfaces.monotonic() + UInt64(seconds * 1e9)
        repeat {
          _ = try connection.readAvailable()
          _ = try connection.takeChanges {}
          events += surfaces.takeEvents()
          if done(events) { break }
          var fd = pollfd(fd: connection.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
          _ = poll(&fd, 1, 50)
        } while XSurfaces.monotonic() < deadline
        return events
      }
    }

    @Test func everyServerResourceBehindASurfaceGoesWithClose() throws {
      let rig = try Rig()
      let picture = try rig.surfaces.open(rig.spec(Rect(x: 0, y: 540, width: 960, height: 540)))
      try rig.surfaces.show(PlaceholderPicture(width: 960, height: 540, background: black, patches: []), on: picture)
      let mirror = try rig.surfaces.open(rig.spec(rig.corner))
      #expect(rig.surfaces.mirror(rig.request, on: mirror))
      try rig.connection.sync()
      let held = try rig.x.resources(ofClientOwning: rig.client)
      #expect(held["WINDOW", default: 0] == 2 && held["PIXMAP", default: 0] >= 1 && held["PICTURE", default: 0] >= 2)
      // Each switches: the picture's surface mirrors, the mirror shows a picture, picture sizes
      // smaller than the surface take a child window.
      #expect(rig.surfaces.mirror(rig.request, on: picture) == true)
      try rig.surfaces.show(PlaceholderPicture(width: 480, height: 270, background: black, patches: []), on: mirror)
      rig.surfaces.close(picture)
      rig.surfaces.close(mirror)
      rig.surfaces.close(mirror)
      try rig.connection.sync()
      #expect(rig.connection.takeErrors().isEmpty, "no request failed, nothing freed twice")
      let after = try rig.held()
      #expect(after == rig.baseline, "\(after) against \(rig.baseline)")
    }

    @Test func aWindowAnotherClientDestroysIsReportedClosedAndNothingOfItIsFreedTwice() throws {
      let rig = try Rig()
      let id = try rig.surfaces.open(rig.spec(rig.corner))
      #expect(rig.surfaces.mirror(rig.request, on: id))
      try rig.connection.sync()
      rig.x.destroy(id.rawValue)
      rig.x.sync()
      let events = try rig.pump { $0.contains(.closed(id)) }
      #expect(events == [.closed(id)])
      rig.surfaces.close(id)
      try rig.connection.sync()
      #expect(rig.connection.takeErrors().isEmpty, "the window's own picture is the server's to free")
      let after = try rig.held()
      #expect(after == rig.baseline, "\(after) against \(rig.baseline)")
    }

    // Frames are paced to the fastest monitor still mirroring: once a 144 Hz mirror closes
    // (or another client destroys it), the 60 Hz one left must not keep its pace.
    @Test func theFramePaceFollowsTheMirrorsLeftAfterOneCloses() throws {
      let rig = try Rig()
      let slow = try rig.surfaces.open(rig.spec(rig.corner))
      let fast = try rig.surfaces.open(rig.spec(Rect(x: 0, y: 540, width: 960, height: 540)))
      var fastRequest = rig.request
      fastRequest.refreshHz = 144
      #expect(rig.surfaces.mirror(rig.request, on: slow) && rig.surfaces.mirror(fastRequest, on: fast))
      #expect(rig.surfaces.pacer.interval == FramePacer.interval(refreshHz: [144]))
      rig.surfaces.close(fast)
      #expect(rig.surfaces.pacer.interval == FramePacer.interval(refreshHz: [60]))
      rig.surfaces.close(slow)
    }

    @Test func damageOnTheSourceWaitsForTheNextFrameAndAStillSourceCostsNoFrame() throws {
      let rig = try Rig()
      let id = try rig.surfaces.open(rig.spec(rig.corner))
      var still = rig.request
      still.cursor = false
      #expect(rig.surfaces.mirror(still, on: id))
      let setUp = rig.surfaces.frames
      #expect(setUp == 1 && rig.surfaces.frameDelay == nil, "the whole mirror once; nothing waits")
      // Drawn on 1 ms after that frame: the frame waits for its time.
      rig.clock.now += 1_000_000
      rig.x.quadrants(
        XInspector.Rect(x: 100, y: 100, width: 200, height: 200), [0xff0000, 0x00ff00, 0x0000ff, 0xffffff])
      _ = try rig.pump { _ in rig.surfaces.frameDelay != nil }
      #expect(
        rig.surfaces.frameDelay == 15_666_666 && rig.surfaces.frames == setUp,
        "\(String(describing: rig.surfaces.frameDelay)) \(rig.surfaces.frames)")
      rig.clock.now += 15_666_666
      rig.surfaces.frame()
      #expect(rig.surfaces.frames == setUp + 1 && rig.surfaces.frameDelay == nil)
      // Its own composite damages only the mirror's window, outside the source: the frame
      // that damage asks for draws nothing, and then nothing wakes.
      _ = try rig.pump { _ in rig.surfaces.frameDelay != nil }
      rig.clock.now += 16_666_666
      rig.surfaces.frame()
      _ = try rig.pump(seconds: 0.5) { _ in false }
      #expect(rig.surfaces.frames == setUp + 1 && rig.surfaces.frameDelay == nil, "a still source: no work")
      rig.surfaces.close(id)
    }
  }
}
