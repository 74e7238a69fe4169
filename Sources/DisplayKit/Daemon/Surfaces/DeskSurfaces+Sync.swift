import DisplayModel
import DisplayPorts
import DisplaySupport

extension DeskSurfaces {
  /// Makes the surfaces match `wanted` (the layout's windows, in the heads' order): opens,
  /// moves, redraws or closes; draws only when a surface's picture inputs changed. A monitor
  /// of `pending` (its disconnect waits for the grace) keeps its surface as it is. Over
  /// Xwayland every surface is an overlay.
  func sync(_ wanted: [WindowWanted], pending: Set<String>, onXwayland: Bool) {
    let (byHead, order) = Self.byHead(wanted, onXwayland: onXwayland)
    let redraws = counters.redraws
    defer { if counters.redraws != redraws { releaseFreedMemory() } }
    for (name, monitor) in monitors
    where !pending.contains(name)
      && byHead[name].map({ $0.level != monitor.level || $0.content != monitor.content }) ?? true
    {
      release(monitor)
      monitors[name] = nil
    }
    // In the heads' order: on X the server lists its outputs as their ids rise.
    for name in order where !pending.contains(name) {
      guard let want = byHead[name] else { continue }
      if let refusal = want.refusal, monitors[name]?.drawn?.details != refusal { log.warning(refusal) }
      if var monitor = monitors[name] {
        follow(&monitor, want)
        monitors[name] = monitor
      } else if let monitor = create(want) {
        monitors[name] = monitor
      }
    }
    syncFrameTimer()
  }

  /// The first window wanted on each head, and the heads in their order.
  private static func byHead(_ wanted: [WindowWanted], onXwayland: Bool) -> (
    [String: WindowWanted], [String]
  ) {
    var byHead: [String: WindowWanted] = [:]
    var order: [String] = []
    for var want in wanted where byHead[want.head] == nil {
      // A Wayland compositor places Xwayland's managed windows itself (sway floats them on
      // the focused output): only an override-redirect window lands on the monitor it is for.
      if onXwayland { want.level = .overlay }
      byHead[want.head] = want
      order.append(want.head)
    }
    return (byHead, order)
  }

  /// Moves, redraws or mirrors a monitor's surface as `want` says now.
  private func follow(_ monitor: inout ManagedMonitor, _ want: WindowWanted) {
    if monitor.rect != want.rect {
      host.move(monitor.surface, to: spec(want))
      monitor.rect = want.rect
      log.info("window \(monitor.surface) follows \(monitor.name) to \(want.rect)")
    }
    if want.content == .mirror {
      if monitor.mirror != mirrorRequest(want) { updateMirror(&monitor, want) }
    } else if monitor.drawn != want.picture {
      draw(&monitor, want.picture)
    }
  }

  private func spec(_ want: WindowWanted) -> SurfaceSpec {
    SurfaceSpec(head: want.head, rect: want.rect, level: want.level, background: config.placeholder.background)
  }

  private func create(_ want: WindowWanted) -> ManagedMonitor? {
    do {
      let surface = try host.open(spec(want))
      var monitor = ManagedMonitor(
        name: want.head, surface: surface, rect: want.rect, level: want.level,
        content: want.content, drawn: nil, since: timestampNow())
      if want.content == .mirror {
        updateMirror(&monitor, want)
      } else {
        draw(&monitor, want.picture)
      }
      counters.windowsCreated += 1
      log.info("window \(surface) on \(want.head) at \(want.rect), level \(want.level.rawValue)")
      return monitor
    } catch {
      log.error("could not create a window on \(want.head): \(error)")
      return nil
    }
  }

  func draw(_ monitor: inout ManagedMonitor, _ picture: PlaceholderContent) {
    readPlaceholderImage()
    // The picture's lines are sized from its height: drawn at the head's pixels, they keep
    // their share of a scaled head.
    let drawn = host.picturesAtHeadPixels ? picture.atDensity : picture
    guard let image = painter?.picture(drawn, image: placeholderImage) else {
      log.error("could not draw the placeholder for \(monitor.name) (\(picture.width)x\(picture.height))")
      return
    }
    do {
      try host.show(image, on: monitor.surface)
    } catch {
      // The window keeps its background colour; the picture is tried again when it changes.
      log.error("could not show the placeholder on \(monitor.name) (\(picture.width)x\(picture.height)): \(error)")
    }
    monitor.drawn = picture
    counters.redraws += 1
  }

  func release(_ monitor: ManagedMonitor) {
    host.close(monitor.surface)
    counters.windowsDestroyed += 1
    log.info("window \(monitor.surface) on \(monitor.name) released")
  }
}
