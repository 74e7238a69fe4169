import DisplayModel
import DisplayPorts
import DisplayRender

/// The world's surface side: forwarded to `FakeSurfaceHost`, but for the races the
/// simulation makes itself (a call on a surface closed from outside before the daemon took
/// the event), counted apart, and the heads whose open failed.
extension SimWorld: SurfaceHost {
  /// The surfaces open now, with their place.
  var surfaceRects: [SurfaceID: Rect] { host.surfaces.mapValues(\.spec.rect) }

  /// Another client closes one of the daemon's surfaces (the `k`th by id); the daemon hears
  /// of it through `takeEvents`.
  func closeSurface(_ k: Int) {
    let ids = host.surfaces.keys.sorted { $0.rawValue < $1.rawValue }
    guard !ids.isEmpty else { return }
    let id = ids[k % ids.count]
    host.closeFromOutside(id)
    closedOutside.insert(id)
  }

  /// Something draws over the desk: the `k`th surface needs its picture again, and a mirror's
  /// source is damaged (its frame waits `delay` nanoseconds, the backend's pacing).
  func draw(exposing k: Int, frameAfter delay: UInt64) {
    let ids = host.surfaces.keys.sorted { $0.rawValue < $1.rawValue }
    if !ids.isEmpty { host.expose(ids[k % ids.count]) }
    if host.mirroring > 0, host.waitingFrame == nil { host.waitingFrame = delay }
  }

  /// Whether a call on `id` is a race with a close from outside (then not forwarded).
  private func raced(_ id: SurfaceID) -> Bool {
    guard closedOutside.contains(id) else { return false }
    racedCalls += 1
    return true
  }

  var canMirror: Bool { host.canMirror }

  func open(_ spec: SurfaceSpec) throws(DisplayError) -> SurfaceID {
    do {
      let id = try host.open(spec)
      surfacesOpened += 1
      surfaceless.remove(spec.head)
      return id
    } catch {
      surfaceless.insert(spec.head)
      throw error
    }
  }

  func show(_ picture: PlaceholderPicture, on surface: SurfaceID) throws(DisplayError) {
    guard !raced(surface) else { return }
    try host.show(picture, on: surface)
  }

  func mirror(_ request: MirrorRequest, on surface: SurfaceID) -> Bool {
    guard !raced(surface) else { return false }
    return host.mirror(request, on: surface)
  }

  func move(_ surface: SurfaceID, to spec: SurfaceSpec) {
    guard !raced(surface) else { return }
    host.move(surface, to: spec)
  }

  func close(_ surface: SurfaceID) {
    guard !raced(surface) else { return }
    host.close(surface)
  }

  func takeEvents() -> [SurfaceEvent] {
    closedOutside = []
    return host.takeEvents()
  }

  var frameDelay: UInt64? { host.frameDelay }
  func frame() { host.frame() }
  var frames: Int { host.frames }
  func frames(on surface: SurfaceID) -> Int { host.frames(on: surface) }
}
