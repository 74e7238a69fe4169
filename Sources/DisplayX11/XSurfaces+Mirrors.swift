import DisplayModel
import DisplayPorts

extension XSurfaces {
  public var canMirror: Bool {
    if supported == nil { supported = connection.canMirror }
    return supported == true
  }

  public var mirrorMissing: String { "the X server lacks RENDER, DAMAGE or XFixes 2" }

  /// Sets (or updates) a surface's mirror pictures for `request` and paints it all; a
  /// request differing only in its refresh rate changes only the pace. False when the server
  /// cannot mirror (the surface keeps its background colour).
  public func mirror(_ request: MirrorRequest, on id: SurfaceID) -> Bool {
    guard canMirror, var s = surfaces[id] else { return false }
    if var old = s.mirror, s.pictures != nil, old.refreshHz != request.refreshHz {
      old.refreshHz = request.refreshHz
      if old == request {
        s.mirror = request
        surfaces[id] = s
        updateInterval()
        return true
      }
    }
    if let shown = s.shown { dropPicture(&s, shown) }
    if !s.exposures {
      connection.selectExposures(s.window)
      s.exposures = true
    }
    if let pictures = s.pictures {
      connection.setMirror(pictures, geometry: request.geometry, filter: request.filter)
    } else {
      s.pictures = connection.createMirror(s.window, geometry: request.geometry, filter: request.filter)
    }
    s.mirror = request
    connection.clearWindow(s.window)
    compositeAll(&s)
    if let old = s.cursorPicture { connection.freeCursorPicture(old) }
    (s.cursorPicture, s.cursorRect) = (nil, nil)
    surfaces[id] = s
    if request.cursor { startCursor(id) }
    updateTracking()
    updateInterval()
    connection.flush()
    return s.pictures != nil
  }

  /// The surface stops mirroring: its pictures and cursor go, the window shows its colour.
  func stopMirror(_ s: inout XSurface) {
    if let pictures = s.pictures { connection.freeMirror(pictures, destination: true) }
    if let cursor = s.cursorPicture { connection.freeCursorPicture(cursor) }
    (s.pictures, s.mirror, s.cursorPicture, s.cursorRect) = (nil, nil, nil, nil)
    surfaces[SurfaceID(rawValue: s.window.rawValue)] = s
    connection.clearWindow(s.window)
    updateTracking()
    updateInterval()
  }

  /// A mirror replaces the picture: its pixmap and child go, the background is the colour.
  private func dropPicture(_ s: inout XSurface, _ shown: ShownImage) {
    if let inner = shown.inner { connection.destroyWindow(inner) }
    connection.setBackground(s.window, s.background)
    connection.freePixmap(shown.pixmap)
    s.shown = nil
  }

  func compositeAll(_ s: inout XSurface) {
    guard let pictures = s.pictures, let geometry = s.mirror?.geometry else { return }
    connection.composite(pictures, [geometry.content])
    frames += 1
    s.frames += 1
    pacer.lastFrame = now()
  }

  /// One root DAMAGE object while any mirror exists, none otherwise; pointer tracking only
  /// while a mirror draws the pointer.
  func updateTracking() {
    let any = surfaces.values.contains { $0.pictures != nil }
    if any, damage == nil {
      damage = connection.createRootDamage()
    } else if !any, let d = damage {
      connection.freeDamage(d)
      damage = nil
      // Nothing is left to pace.
      pacer.reset()
    }
    if tracking == true, !surfaces.values.contains(where: { $0.mirror?.cursor == true && $0.pictures != nil }) {
      connection.deselectPointerTracking()
      tracking = nil
      cursorImage = nil
      pacer.cursorPending = false
    }
  }

  func updateInterval() {
    pacer.interval = FramePacer.interval(refreshHz: surfaces.values.compactMap { $0.mirror?.refreshHz })
  }

  public func frames(on surface: SurfaceID) -> Int { surfaces[surface]?.frames ?? 0 }

  public var frameDelay: UInt64? {
    guard let due = pacer.due else { return nil }
    let t = now()
    // A timer armed for 0 ns would be disarmed: a frame due now waits 1 ns.
    return due > t ? due - t : 1
  }

  /// One frame: the damaged areas, then the pointer.
  public func frame() {
    let before = pacer.lastFrame
    var redrawCursor: Set<SurfaceID> = []
    if pacer.damagePending {
      pacer.damagePending = false
      redrawCursor = flushDamage()
    }
    if pacer.cursorPending || !redrawCursor.isEmpty {
      pacer.cursorPending = false
      moveCursors(forced: redrawCursor)
    }
    pacer.settle()
    if pacer.lastFrame != before { frames += 1 }
    connection.flush()
  }

  /// Does the pending work now, or at the next frame if one was just drawn.
  func scheduleFrame() {
    if pacer.request(at: now()) { frame() }
  }

  /// Takes the damage and recomposites, in each mirror, only what shows of it. Returns the
  /// mirrors whose drawn cursor was painted over.
  func flushDamage() -> Set<SurfaceID> {
    guard let damage else { return [] }
    let rects = connection.takeDamage(damage)
    var drew = false
    var coveredCursor: Set<SurfaceID> = []
    for (id, s) in surfaces {
      guard let pictures = s.pictures, let geometry = s.mirror?.geometry else { continue }
      var areas = rects.compactMap(geometry.windowRect(forDamage:))
      guard !areas.isEmpty else { continue }
      // Many small rectangles cost more in requests than one bounding box in pixels.
      if areas.count > 16 { areas = [Self.bounds(areas)] }
      connection.composite(pictures, areas)
      surfaces[id]?.frames += 1
      drew = true
      if let c = s.cursorRect, areas.contains(where: { $0.intersects(c) }) { coveredCursor.insert(id) }
    }
    if drew { pacer.lastFrame = now() }
    return coveredCursor
  }

  static func bounds(_ rects: [Rect]) -> Rect {
    let x0 = rects.map(\.x).min() ?? 0
    let y0 = rects.map(\.y).min() ?? 0
    let x1 = rects.map { $0.x + $0.width }.max() ?? 0
    let y1 = rects.map { $0.y + $0.height }.max() ?? 0
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  func exposed(_ id: SurfaceID, _ rect: Rect) {
    guard let s = surfaces[id], let pictures = s.pictures, let content = s.mirror?.geometry.content,
      let area = rect.intersection(content)
    else { return }
    connection.composite(pictures, [area])
    if let c = s.cursorRect, c.intersects(area) { moveCursors(forced: [id]) }
  }
}
