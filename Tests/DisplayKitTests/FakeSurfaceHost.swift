import DisplayModel
import DisplayPorts
import DisplayRender

/// A surface host with no I/O: the surfaces the daemon opens, what each shows, and faults on
/// demand (an open that fails, a surface closed or exposed from outside). Every misuse a
/// real backend would answer with an error (a close of a surface not open, a picture on a
/// closed one) is counted, so a leak or a double close shows.
final class FakeSurfaceHost: SurfaceHost {
  struct Surface {
    var spec: SurfaceSpec
    /// The picture shown, or the mirror: never both.
    var picture: PlaceholderPicture?
    var mirror: MirrorRequest?
  }

  private(set) var surfaces: [SurfaceID: Surface] = [:]
  private(set) var opened = 0
  private(set) var closed = 0
  /// Calls about a surface that is not open (closed twice, closed after someone else closed
  /// it, shown on after closing).
  private(set) var misuses = 0
  /// Opens asked for, failed ones too; the one with this count fails.
  private(set) var opens = 0
  var failingOpen: Int?
  var canMirror = true
  /// Every mirror started fails at once, as a capture the compositor refuses: the host stops
  /// it and says `mirrorSourceLost` (the failure comes as an event, after `mirror` said yes).
  var mirrorsFail = false
  /// The same for the mirrors on these heads only.
  var mirrorsFailOn: Set<String> = []
  private(set) var mirrorsStarted = 0
  /// Mirrors started, per surface.
  private(set) var mirrorStarts: [SurfaceID: Int] = [:]
  /// Events waiting for the daemon's `takeEvents`.
  var pending: [SurfaceEvent] = []
  /// What `frameDelay` says; `frame()` clears it.
  var waitingFrame: UInt64?
  private(set) var framesAsked = 0
  var frames = 0
  /// Frames per surface, for `frames(on:)`.
  private(set) var surfaceFrames: [SurfaceID: Int] = [:]
  private var nextID: UInt = 0x40_0000

  // The test's side.

  /// Makes the `n`th open from now fail (1: the next one).
  func failOpen(_ n: Int) { failingOpen = opens + n }

  /// Someone else closed a surface (`xkill`, a compositor's `closed`): it is gone.
  func closeFromOutside(_ id: SurfaceID) {
    surfaces[id] = nil
    pending.append(.closed(id))
  }

  func expose(_ id: SurfaceID) { pending.append(.exposed(id)) }

  /// The mirror on that surface shows a frame (its source changed).
  func showFrame(on id: SurfaceID) {
    guard surfaces[id]?.mirror != nil else { return }
    frames += 1
    surfaceFrames[id, default: 0] += 1
  }

  /// The surface on that head.
  func surface(on head: String) -> SurfaceID? { surfaces.first { $0.value.spec.head == head }?.key }

  /// The surface's head went away under it (a compositor withdraws the output, as sway does
  /// for an output turned off): the host released it and says so.
  func headGoneFromOutside(_ id: SurfaceID) {
    surfaces[id] = nil
    pending.append(.headGone(id))
  }

  /// The surfaces' rectangles.
  var rects: [Rect] { surfaces.values.map(\.spec.rect) }
  /// Surfaces showing a picture, and mirroring.
  var showing: Int { surfaces.values.filter { $0.picture != nil }.count }
  var mirroring: Int { surfaces.values.filter { $0.mirror != nil }.count }
  /// Surfaces open now.
  var held: Int { surfaces.count }

  // SurfaceHost.

  func open(_ spec: SurfaceSpec) throws(DisplayError) -> SurfaceID {
    opens += 1
    if opens == failingOpen {
      throw .request(RequestFailure("BadAlloc (fake: open \(opens)) (error 11, request 1.0, resource 0x0)"))
    }
    nextID += 1
    let id = SurfaceID(rawValue: nextID)
    surfaces[id] = Surface(spec: spec)
    opened += 1
    return id
  }

  func show(_ picture: PlaceholderPicture, on id: SurfaceID) throws(DisplayError) {
    guard surfaces[id] != nil else {
      misuses += 1
      return
    }
    surfaces[id]?.picture = picture
    surfaces[id]?.mirror = nil
  }

  func mirror(_ request: MirrorRequest, on id: SurfaceID) -> Bool {
    guard canMirror, surfaces[id] != nil else {
      if surfaces[id] == nil { misuses += 1 }
      return false
    }
    surfaces[id]?.picture = nil
    mirrorsStarted += 1
    mirrorStarts[id, default: 0] += 1
    if mirrorsFail || mirrorsFailOn.contains(surfaces[id]?.spec.head ?? "") {
      pending.append(.mirrorSourceLost(id))
      return true
    }
    surfaces[id]?.mirror = request
    frames += 1
    surfaceFrames[id, default: 0] += 1
    return true
  }

  func move(_ id: SurfaceID, to spec: SurfaceSpec) {
    guard surfaces[id] != nil else {
      misuses += 1
      return
    }
    surfaces[id]?.spec = spec
  }

  func close(_ id: SurfaceID) {
    guard surfaces.removeValue(forKey: id) != nil else {
      misuses += 1
      return
    }
    closed += 1
  }

  func takeEvents() -> [SurfaceEvent] {
    defer { pending = [] }
    return pending
  }

  var frameDelay: UInt64? { waitingFrame }

  func frame() {
    framesAsked += 1
    if waitingFrame != nil {
      frames += 1
      for (id, s) in surfaces where s.mirror != nil { surfaceFrames[id, default: 0] += 1 }
    }
    waitingFrame = nil
  }

  func frames(on id: SurfaceID) -> Int { surfaceFrames[id] ?? 0 }
}
