import DisplayModel
import DisplaySupport

extension Daemon {
  /// Makes the windows match what the topology and config want: creates, moves, redraws or
  /// destroys; draws only when a window's picture inputs changed.
  func syncWindows() {
    // A Wayland compositor places Xwayland's managed windows itself (sway floats them on the
    // focused output): only an override-redirect window lands on the monitor it is for.
    let onXwayland = desktop.manager == .xwayland
    let windows = windowConfig.wantedWindows(in: topology).map { want in
      var want = want
      if onXwayland { want.level = .overlay }
      return want
    }
    let wanted = Dictionary(windows.map { ($0.output.id, $0) }) { a, _ in a }
    let redraws = counters.redraws
    defer { if counters.redraws != redraws { releaseFreedMemory() } }
    // A monitor whose disconnect waits for the grace keeps its window as it is.
    for (id, monitor) in monitors
    where grace.pending[id] == nil
      && wanted[id].map({ $0.level != monitor.level || $0.content != monitor.content }) ?? true
    {
      release(monitor)
      monitors[id] = nil
    }
    for (id, want) in wanted.sorted(by: { $0.key < $1.key }) where grace.pending[id] == nil {
      if let refusal = want.refusal, monitors[id]?.drawn?.details != refusal { log.warning(refusal) }
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
    readPlaceholderImage()
    guard let image = painter?.picture(picture, image: placeholderImage) else {
      log.error("could not draw the placeholder for \(monitor.name) (\(picture.width)x\(picture.height))")
      return
    }
    let old = (monitor.pixmap, monitor.inner)
    do {
      let shown = try connection.showPicture(image, in: monitor.window, size: (picture.width, picture.height))
      (monitor.pixmap, monitor.inner) = (shown.pixmap, shown.inner)
      if let pixmap = old.0 { connection.freePixmap(pixmap) }
      if let inner = old.1 { connection.destroyWindow(inner) }
    } catch {
      // The window keeps its background colour; the picture is tried again when it changes.
      log.error("could not show the placeholder on \(monitor.name) (\(picture.width)x\(picture.height)): \(error)")
    }
    connection.flush()
    monitor.drawn = picture
    counters.redraws += 1
  }

  func release(_ monitor: ManagedMonitor) {
    freeResources(of: monitor, windowGone: false)
    counters.windowsDestroyed += 1
    log.info("window \(monitor.window) on \(monitor.name) released")
  }

  /// Frees every server resource that served a monitor's window: the one place that knows
  /// them all. When another client destroyed the window, the server already freed what
  /// lived on it (its picture, its child) and only the rest is freed.
  func freeResources(of monitor: ManagedMonitor, windowGone: Bool) {
    if let pictures = monitor.mirror { connection.freeMirror(pictures, destination: !windowGone) }
    if let cursor = monitor.cursorPicture { connection.freeCursorPicture(cursor) }
    if !windowGone { connection.destroyWindow(monitor.window) }
    if let pixmap = monitor.pixmap { connection.freePixmap(pixmap) }
  }

  /// Handles an event about our windows; returns whether the windows need a resync.
  func handle(_ event: WindowEvent) -> Bool {
    switch event {
    case .destroyed(let window):
      guard let (id, monitor) = monitors.first(where: { $0.value.window == window }) else { return false }
      log.warning("window \(window) on \(monitor.name) was destroyed by someone else; making a new one")
      freeResources(of: monitor, windowGone: true)
      monitors[id] = nil
      return true
    case .closeRequested(let window):
      log.info("ignoring a request to close window \(window)")
    case .exposed(let window, let rect):
      exposed(window, rect)
    case .damaged:
      // Damage already queued when the last mirror went: nothing left to draw it into.
      guard mirrors.damage != nil else { return false }
      mirrors.damagePending = true
      scheduleFrame()
    case .pointerMoved:
      guard mirrors.tracking == true else { return false }
      mirrors.cursorPending = true
      scheduleFrame()
    case .cursorChanged:
      cursorShapeChanged()
    case .inputDeviceAdded:
      inputDeviceAdded()
    }
    return false
  }

  /// The config the windows are made from: with a profile in force, a rule per entry first
  /// (its `content`, `none` when it gives none and for `same-as` monitors; its `level` and
  /// `mirror`, else the monitor's from the config), and main as `LidPolicy.main` says.
  var windowConfig: Config {
    guard let (profile, assignment) = profileRuntime.chosen else { return config }
    var result = config
    var rules: [MonitorRule] = []
    for (entry, id) in zip(profile.outputs, assignment.outputs) {
      guard let output = topology.output(id) else { continue }
      let base = config.settings(for: output) ?? config.defaults
      var rule = MonitorRule()
      rule.match.output = output.name
      if case .sameAs = entry.position { rule.content = ContentKind.none } else { rule.content = entry.content }
      rule.level = entry.level ?? base.level
      rule.mirror = entry.mirror ?? base.mirror
      rules.append(rule)
    }
    result.monitors = rules + config.monitors
    let main = LidPolicy.main(topology: topology, config: config, profile: profile, assignment: assignment)
    result.main = main?.name ?? config.main
    return result
  }
}
