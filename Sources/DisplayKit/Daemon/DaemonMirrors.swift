import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// Damage tracking and frame pacing shared by all mirror windows.
struct MirrorRuntime {
  var damage: DamageID?
  var supported: Bool?
  /// A one-shot timer, armed only while damage waits for the next frame; made with the
  /// first frame that waits, gone with the last mirror.
  var timer: DeadlineTimer?
  var lastComposite: UInt64 = 0
  /// Nanoseconds between composites: one frame of the fastest mirror monitor.
  var interval: UInt64 = 16_666_667
  /// Work waiting for the next frame.
  var damagePending = false
  var cursorPending = false
  /// Pointer tracking (selected once, when a mirror first wants the cursor) and its image.
  var tracking: Bool?
  var cursorImage: CursorImage?
}

extension Daemon {
  /// The frame timer's descriptor while it is armed, for the event loop.
  public var frameTimerDescriptor: FileDescriptor? { mirrors.timer.flatMap { $0.isArmed ? $0.fileDescriptor : nil } }

  /// The frame timer fired: composite what was damaged meanwhile.
  public func frameTimerFired() {
    mirrors.timer?.acknowledge()
    frame()
  }

  /// Does the pending work now, or at the next frame if one was just drawn.
  func scheduleFrame() {
    let now = clock.nanoseconds
    let due = mirrors.lastComposite + mirrors.interval
    if now >= due {
      frame()
    } else if mirrors.timer?.isArmed != true {
      armFrameTimer(after: due - now)
    }
  }

  /// One frame: the damaged areas, then the pointer.
  func frame() {
    let before = mirrors.lastComposite
    var redrawCursor: Set<OutputID> = []
    if mirrors.damagePending {
      mirrors.damagePending = false
      redrawCursor = flushDamage()
    }
    if mirrors.cursorPending || !redrawCursor.isEmpty {
      mirrors.cursorPending = false
      moveCursors(forced: redrawCursor)
    }
    if mirrors.lastComposite != before { counters.composites += 1 }
    connection.flush()
  }

  /// The fastest mirrored monitor's frame time, 60 Hz when none reports a refresh; at least
  /// 1 ms, as a mode's timings may claim any rate (4 GHz would mean a composite per event).
  func frameInterval(_ wanted: [WindowWanted]) -> UInt64 {
    let hz = wanted.map(\.refreshHz).filter { $0 > 1 && $0.isFinite }.max() ?? 60
    return max(1_000_000, UInt64(1e9 / hz))
  }

  /// Sets (or updates) a mirror window's pictures for `want`, and paints it all.
  func updateMirror(_ monitor: inout ManagedMonitor, _ want: WindowWanted) {
    guard let geometry = want.mirror else { return }
    if mirrors.supported == nil { mirrors.supported = connection.canMirror }
    guard mirrors.supported == true else {
      log.error("the X server lacks RENDER, DAMAGE or XFixes 2: no mirror on \(monitor.name)")
      return
    }
    if let pictures = monitor.mirror {
      connection.setMirror(pictures, geometry: geometry, filter: want.filter)
    } else {
      monitor.mirror = connection.createMirror(monitor.window, geometry: geometry, filter: want.filter)
      log.info("mirror of \(geometry.source) on \(monitor.name), \(geometry.filter(want.filter).name) filter")
    }
    monitor.geometry = geometry
    monitor.filter = want.filter
    monitor.cursor = want.cursor
    connection.clearWindow(monitor.window)
    compositeAll(monitor)
    if let old = monitor.cursorPicture {
      connection.freeCursorPicture(old)
      monitor.cursorPicture = nil
    }
    monitor.cursorRect = nil
    if want.cursor { startCursor(&monitor) }
  }

  func compositeAll(_ monitor: ManagedMonitor) {
    guard let pictures = monitor.mirror, let geometry = monitor.geometry else { return }
    connection.composite(pictures, [geometry.content])
    counters.composites += 1
    mirrors.lastComposite = clock.nanoseconds
  }

  /// One root DAMAGE object while any mirror exists, none otherwise; pointer tracking only
  /// while a mirror draws the pointer.
  func updateDamageTracking() {
    let any = monitors.values.contains { $0.mirror != nil }
    if any, mirrors.damage == nil {
      mirrors.damage = connection.createRootDamage()
    } else if !any, let damage = mirrors.damage {
      connection.freeDamage(damage)
      mirrors.damage = nil
    }
    if !any, mirrors.timer != nil {
      // The frame timer goes with the last mirror: nothing is left to pace.
      mirrors.timer = nil
      mirrors.damagePending = false
    }
    if mirrors.tracking == true, !monitors.values.contains(where: { $0.cursor && $0.mirror != nil }) {
      connection.deselectPointerTracking()
      mirrors.tracking = nil
      mirrors.cursorImage = nil
      mirrors.cursorPending = false
    }
  }

  /// Takes the damage and recomposites, in each mirror, only what shows of it. Returns the
  /// mirrors whose drawn cursor was painted over.
  @discardableResult
  func flushDamage() -> Set<OutputID> {
    guard let damage = mirrors.damage else { return [] }
    let rects = connection.takeDamage(damage)
    var drew = false
    var coveredCursor: Set<OutputID> = []
    for monitor in monitors.values {
      guard let pictures = monitor.mirror, let geometry = monitor.geometry else { continue }
      var areas = rects.compactMap(geometry.windowRect(forDamage:))
      guard !areas.isEmpty else { continue }
      // Many small rectangles cost more in requests than one bounding box in pixels.
      if areas.count > 16 { areas = [bounds(areas)] }
      connection.composite(pictures, areas)
      drew = true
      if let c = monitor.cursorRect, areas.contains(where: { $0.intersects(c) }) {
        coveredCursor.insert(monitor.output)
      }
    }
    if drew { mirrors.lastComposite = clock.nanoseconds }
    return coveredCursor
  }

  func bounds(_ rects: [Rect]) -> Rect {
    let x0 = rects.map(\.x).min() ?? 0
    let y0 = rects.map(\.y).min() ?? 0
    let x1 = rects.map { $0.x + $0.width }.max() ?? 0
    let y1 = rects.map { $0.y + $0.height }.max() ?? 0
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  func exposed(_ window: WindowID, _ rect: Rect) {
    guard let monitor = monitors.values.first(where: { $0.window == window }), let pictures = monitor.mirror,
      let content = monitor.geometry?.content
    else { return }
    guard let area = rect.intersection(content) else { return }
    connection.composite(pictures, [area])
    if let c = monitor.cursorRect, c.intersects(area) { moveCursors(forced: [monitor.output]) }
  }

  func armFrameTimer(after nanoseconds: UInt64) {
    if mirrors.timer == nil { mirrors.timer = try? DeadlineTimer() }
    guard let timer = mirrors.timer else { return frame() }
    timer.arm(after: nanoseconds)
  }

}
