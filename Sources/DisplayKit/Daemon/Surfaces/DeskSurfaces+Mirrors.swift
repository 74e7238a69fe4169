import DisplayModel
import DisplayPorts
import DisplaySupport

extension DeskSurfaces {
  /// The frame timer's descriptor while it is armed, for the event loop.
  var frameTimerDescriptor: FileDescriptor? { mirrors.timer.flatMap { $0.isArmed ? $0.fileDescriptor : nil } }

  /// The frame timer fired: the surface host draws what waited for the frame.
  func frameTimerFired() {
    mirrors.timer?.acknowledge()
    host.frame()
    syncFrameTimer()
  }

  /// Arms the frame timer when the surface host has a frame waiting (and the timer is not
  /// armed already); drops it with the last mirror. Counts the host's frames for `status`.
  func syncFrameTimer() {
    counters.composites = host.frames
    if let delay = host.frameDelay {
      guard mirrors.timer?.isArmed != true else { return }
      if mirrors.timer == nil { mirrors.timer = try? DeadlineTimer() }
      guard let timer = mirrors.timer else { return frameTimerFired() }
      timer.arm(after: delay)
    } else if mirrors.timer != nil, !monitors.values.contains(where: { $0.mirror != nil }) {
      // The frame timer goes with the last mirror: nothing is left to pace.
      mirrors.timer = nil
    }
  }

  /// What a mirror monitor asks of its surface.
  func mirrorRequest(_ want: WindowWanted) -> MirrorRequest? {
    guard let geometry = want.mirror else { return nil }
    let source = want.mirrorSource ?? ""
    return MirrorRequest(
      source: source, geometry: geometry, filter: want.filter, cursor: want.cursor, refreshHz: want.refreshHz)
  }

  /// A mirror stopped (its source went, or the capture failed): tried again at the next sync,
  /// unless it stopped before with no frame shown since; then the monitor shows the
  /// placeholder until what it mirrors changes, so that a capture the compositor always
  /// refuses (an output powered off) does not loop; `wanted` gives its picture. Returns
  /// whether the surfaces need a sync.
  func mirrorStopped(_ name: String, wanted: () -> [WindowWanted]) -> Bool {
    guard var monitor = monitors[name] else { return false }
    let frames = host.frames(on: monitor.surface)
    defer { monitors[name] = monitor }
    if let stopped = monitor.mirrorStopped, stopped == frames, let request = monitor.mirror {
      log.warning("the mirror of \(request.source) on \(monitor.name) stopped again: the placeholder until it changes")
      if let want = wanted().first(where: { $0.head == monitor.name }) { draw(&monitor, want.picture) }
      return false
    }
    monitor.mirrorStopped = frames
    monitor.drawn = nil
    monitor.mirror = nil
    return true
  }

  /// Asks the surface to mirror what `want` says (or to change how), and to paint it all.
  func updateMirror(_ monitor: inout ManagedMonitor, _ want: WindowWanted) {
    guard let request = mirrorRequest(want) else { return }
    if mirrors.supported == nil { mirrors.supported = host.canMirror }
    guard mirrors.supported == true else {
      log.error("\(host.mirrorMissing): no mirror on \(monitor.name)")
      return
    }
    let first = monitor.mirror == nil
    if !host.mirror(request, on: monitor.surface) {
      log.error("could not mirror \(request.source) on \(monitor.name): it shows its background")
    } else if first {
      log.info(
        "mirror of \(request.geometry.source) on \(monitor.name), \(request.geometry.filter(want.filter).name) filter")
    }
    monitor.mirror = request
  }
}
