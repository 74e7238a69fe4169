extension Daemon {
  /// Makes the windows match what the topology and config want: creates, moves, redraws or
  /// destroys; draws only when a window's picture inputs changed.
  func syncWindows() {
    let wanted = Dictionary(config.wantedWindows(in: topology).map { ($0.output.id, $0) }) { a, _ in a }
    for (id, monitor) in monitors
    where wanted[id].map({ $0.level != monitor.level || $0.content != monitor.content }) ?? true {
      release(monitor)
      monitors[id] = nil
    }
    for (id, want) in wanted.sorted(by: { $0.key < $1.key }) {
      if var monitor = monitors[id] {
        if monitor.rect != want.rect {
          connection.moveWindow(monitor.window, to: want.rect)
          monitor.rect = want.rect
          log.info("window \(monitor.window) follows \(monitor.name) to \(want.rect)")
        }
        if want.content == .mirror {
          if monitor.geometry != want.mirror || monitor.filter != want.filter || monitor.cursor != want.cursor {
            updateMirror(&monitor, want)
          }
        } else if monitor.drawn != want.picture {
          draw(&monitor, want.picture)
        }
        monitors[id] = monitor
      } else if let monitor = create(want) {
        monitors[id] = monitor
      }
    }
    mirrors.interval = frameInterval(wanted.values.filter { $0.content == .mirror })
    updateDamageTracking()
    connection.flush()
  }

  private func create(_ want: WindowWanted) -> ManagedMonitor? {
    let spec = WindowSpec(
      output: want.output.name, rect: want.rect, level: want.level, background: config.placeholder.background)
    do {
      let window = try connection.createWindow(spec)
      var monitor = ManagedMonitor(
        output: want.output.id, name: want.output.name, window: window, rect: want.rect, level: want.level,
        content: want.content, drawn: nil, pixmap: nil, since: timestampNow())
      if want.content == .mirror {
        connection.selectExposures(window)
        updateMirror(&monitor, want)
      } else {
        draw(&monitor, want.picture)
      }
      counters.windowsCreated += 1
      log.info("window \(window) on \(want.output.name) at \(want.rect), level \(want.level.rawValue)")
      return monitor
    } catch {
      log.error("could not create a window on \(want.output.name): \(error)")
      return nil
    }
  }

  private func draw(_ monitor: inout ManagedMonitor, _ picture: PlaceholderContent) {
    guard let image = PlaceholderRenderer.render(picture) else {
      log.error("could not draw the placeholder for \(monitor.name) (\(picture.width)x\(picture.height))")
      return
    }
    let old = monitor.pixmap
    monitor.pixmap = connection.showImage(image, in: monitor.window)
    if let old { connection.freePixmap(old) }
    connection.flush()
    monitor.drawn = picture
    counters.redraws += 1
  }

  func release(_ monitor: ManagedMonitor) {
    if let pictures = monitor.mirror { connection.freeMirror(pictures) }
    if let cursor = monitor.cursorPicture { connection.freeCursorPicture(cursor) }
    connection.destroyWindow(monitor.window)
    if let pixmap = monitor.pixmap { connection.freePixmap(pixmap) }
    counters.windowsDestroyed += 1
    log.info("window \(monitor.window) on \(monitor.name) released")
  }

  /// Handles an event about our windows; returns whether the windows need a resync.
  func handle(_ event: WindowEvent) -> Bool {
    switch event {
    case .destroyed(let window):
      guard let (id, monitor) = monitors.first(where: { $0.value.window == window }) else { return false }
      log.warning("window \(window) on \(monitor.name) was destroyed by someone else; making a new one")
      if let pixmap = monitor.pixmap { connection.freePixmap(pixmap) }
      if let pictures = monitor.mirror { connection.freeMirror(pictures) }
      if let cursor = monitor.cursorPicture { connection.freeCursorPicture(cursor) }
      monitors[id] = nil
      return true
    case .closeRequested(let window):
      log.info("ignoring a request to close window \(window)")
    case .exposed(let window, let rect):
      exposed(window, rect)
    case .damaged:
      mirrors.damagePending = true
      scheduleFrame()
    case .pointerMoved:
      mirrors.cursorPending = true
      scheduleFrame()
    case .cursorChanged:
      cursorShapeChanged()
    }
    return false
  }
}
