import CWayland
import DisplayModel
import DisplaySupport
import Foundation
import Testing
import XRig

@testable import DisplayService
@testable import DisplayWayland

#if canImport(Glibc)
  import Glibc
#endif

/// Requests must reach the compositor without another event to carry them: those a handler
/// makes while a wait dispatches (screencopy's `copy` from `buffer_done`), and those a full
/// socket left unsent (a compositor that reads slowly, here sway stopped with SIGSTOP: its
/// socket still accepts until its buffer is full).
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandFlushTests {
  static func connect(_ sway: SwayCompositor) throws -> WaylandConnection {
    try WaylandConnection(socket: sway.runtime + "/" + sway.waylandDisplay)
  }

  @Test func aCopyAskedFromTheOfferHandlerCompletesInOneWait() throws {
    let sway = try SwayCompositor(background: "#203040")
    let host = try WaylandSurfacesTests.host(sway)
    let manager = try #require(host.screencopyManager)
    let output = try #require(host.outputProxy(named: "HEADLESS-1"))
    let shot = try #require(ScreencopyShot(manager: manager, shm: host.shm, output: output))
    // The copy is asked inside the wait's dispatch; nothing else comes until it is sent.
    let done = try host.connection.wait(seconds: 5) { shot.state != .waiting && shot.state != .copying }
    #expect(done, "the copy asked in buffer_done stayed in libwayland's buffer")
    #expect(shot.state == .ready)
    #expect(shot.pixels()?.pixels.first == 0x203040)
  }

  /// Fills the socket of a stopped compositor with requests no event answers (region adds, in
  /// bursts well inside libwayland's 4 KiB buffer), until a flush is refused; the bursts made.
  static func fill(_ connection: WaylandConnection, region: OpaquePointer, flush: () throws -> Void) throws -> Int {
    var bursts = 0
    while !connection.hasUnsent && bursts < 100_000 {
      for _ in 0..<64 { wl_region_add(region, 0, 0, 1, 1) }
      try flush()
      bursts += 1
    }
    return bursts
  }

  /// A region on `connection`, destroyed with its compositor by `release`.
  static func region(_ connection: WaylandConnection) throws -> (region: OpaquePointer, release: () -> Void) {
    let global = try #require(connection.global("wl_compositor"))
    let compositor = try #require(connection.bind(global, cw_compositor_interface()))
    let region = try #require(wl_compositor_create_region(compositor))
    return (
      region,
      {
        wl_region_destroy(region)
        wl_compositor_destroy(compositor)
      }
    )
  }

  /// A `wl_display.sync` queued (not flushed) on `connection`; `answer.done` when it returns.
  static func sync(_ connection: WaylandConnection, _ answer: Answer) throws -> OpaquePointer {
    let callback = try #require(wl_display_sync(connection.display))
    wl_callback_add_listener(callback, &answerListener, Unmanaged.passUnretained(answer).toOpaque())
    return callback
  }

  @Test func requestsLeftInAFullSocketAreSentOnceItDrainsWithoutAnotherEvent() throws {
    let sway = try SwayCompositor()
    let connection = try Self.connect(sway)
    let (region, release) = try Self.region(connection)
    defer { release() }
    try connection.roundtrip()
    #expect(!connection.hasUnsent && connection.pollEvents == Int16(POLLIN), "nothing unsent: POLLIN only")
    let pids = sway.processes()
    pids.forEach { kill($0, SIGSTOP) }
    defer { pids.forEach { kill($0, SIGCONT) } }
    let bursts = try Self.fill(connection, region: region) { try connection.flush() }
    #expect(connection.hasUnsent, "the socket never filled (\(bursts) bursts)")
    #expect(connection.pollEvents & Int16(POLLOUT) != 0, "the wait would not ask for POLLOUT")
    let answer = Answer()
    let callback = try Self.sync(connection, answer)
    defer { wl_callback_destroy(callback) }
    var resumed = false
    let answered = try connection.wait(seconds: 10) {
      // After the wait's first flush (still refused): only sway draining its socket can wake it.
      if !resumed {
        #expect(connection.hasUnsent)
        pids.forEach { kill($0, SIGCONT) }
        resumed = true
      }
      return answer.done
    }
    #expect(answered, "the sync stayed unsent after sway read its socket (\(bursts) bursts)")
    #expect(!connection.hasUnsent && connection.pollEvents == Int16(POLLIN), "all sent: POLLIN only again")
  }

  /// The daemon's loop, as `DaemonService.run` turns: flush, poll the server's socket for
  /// what `serverEvents` asks, dispatch it. Stopped, the server's flush leaves the sync unsent
  /// and the loop asks for POLLOUT; resumed, the writable socket alone wakes it and the
  /// dispatch sends the sync, which answers; then the loop asks for POLLIN only, and an idle
  /// poll sees nothing.
  @Test func theDaemonLoopPollsForRoomWhileTheServerHasUnsentRequests() throws {
    let sway = try SwayCompositor()
    let server = try WaylandDisplayServer(
      socket: sway.runtime + "/" + sway.waylandDisplay, log: Logger(level: .error) { _ in })
    let connection = server.surfaces.connection
    let (region, release) = try Self.region(connection)
    defer { release() }
    try server.sync()
    #expect(!server.hasUnsent && DaemonService.serverEvents(server) == pollIn)
    let pids = sway.processes()
    pids.forEach { kill($0, SIGSTOP) }
    defer { pids.forEach { kill($0, SIGCONT) } }
    let bursts = try Self.fill(connection, region: region) { server.flush() }
    let answer = Answer()
    let callback = try Self.sync(connection, answer)
    defer { wl_callback_destroy(callback) }
    server.flush()
    #expect(server.hasUnsent, "the socket never filled (\(bursts) bursts)")
    #expect(DaemonService.serverEvents(server) == pollIn | pollOut)
    pids.forEach { kill($0, SIGCONT) }
    let deadline = monotonicNanoseconds() &+ 10_000_000_000
    var wakes = 0
    while !answer.done && monotonicNanoseconds() < deadline {
      let events = DaemonService.serverEvents(server)
      let ready = try pollDescriptors([(server.fileDescriptor, events)], timeoutMs: 10_000)
      guard ready[server.fileDescriptor] != nil else { continue }
      wakes += 1
      _ = try server.readAvailable()
    }
    #expect(answer.done, "the sync stayed unsent after sway read its socket (\(bursts) bursts)")
    #expect(wakes <= 3, "\(wakes) wake-ups")
    #expect(!server.hasUnsent && DaemonService.serverEvents(server) == pollIn)
    let idle = try pollDescriptors([(server.fileDescriptor, DaemonService.serverEvents(server))], timeoutMs: 0)
    #expect(idle.isEmpty, "an idle connection woke the loop: \(idle)")
  }
}
final class Answer {
  var done = false
}

nonisolated(unsafe) private var answerListener = wl_callback_listener(
  done: { data, _, _ in data.map { Unmanaged<Answer>.fromOpaque($0).takeUnretainedValue().done = true } })
