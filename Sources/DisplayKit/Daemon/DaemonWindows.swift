import DisplayModel
import DisplayPorts
import DisplaySupport

extension Daemon {
  /// Makes the surfaces match what the heads and config want: opens, moves, redraws or
  /// closes; draws only when a surface's picture inputs changed.
  func syncWindows() {
    guard let surfaces else { return }
    // A Wayland compositor places Xwayland's managed windows itself (sway floats them on the
    // focused output): only an override-redirect window lands on the monitor it is for.
    let onXwayland = desktop.manager == .xwayland
    var wanted: [String: HeadWindowWanted] = [:]
    var order: [String] = []
    let all = windowConfig.wantedWindows(in: heads, vendors: layoutServer.vendors(of: heads), main: mainOutput)
    for var want in all where wanted[want.head] == nil {
      if onXwayland { want.level = .overlay }
      wanted[want.head] = want
      order.append(want.head)
    }
    let redraws = counters.redraws
    defer { if counters.redraws != redraws { releaseFreedMemory() } }
    // A monitor whose disconnect waits for the grace keeps its window as it is.
    for (name, monitor) in monitors
    where grace.pending[name] == nil
      && wanted[name].map({ $0.level != monitor.level || $0.content != monitor.content }) ?? true
    {
      release(monitor)
      monitors[name] = nil
    }
    // In the heads' order: on X the server lists its outputs as their ids rise.
    for name in order where grace.pending[name] == nil {
      guard let want = wanted[name] else { continue }
      if let refusal = want.refusal, monitors[name]?.drawn?.details != refusal { log.warning(refusal) }
      if var monitor = monitors[name] {
        if monitor.rect != want.rect {
          surfaces.move(monitor.surface, to: spec(want))
          monitor.rect = want.rect
          log.info("window \(monitor.surface) follows \(monitor.name) to \(want.rect)")
        }
        if want.content == .mirror {
          if monitor.mirror != mirrorRequest(want) { updateMirror(&monitor, want) }
        } else if monitor.drawn != want.picture {
          draw(&monitor, want.picture)
        }
        monitors[name] = monitor
      } else if let monitor = create(want, on: surfaces) {
        monitors[name] = monitor
      }
    }
    syncFrameTimer()
    changeSource.flush()
  }

  private func spec(_ want: HeadWindowWanted) -> SurfaceSpec {
    SurfaceSpec(head: want.head, rect: want.rect, level: want.level, background: config.placeholder.background)
  }

  private func create(_ want: HeadWindowWanted, on surfaces: any SurfaceHost) -> ManagedMonitor? {
    do {
      let surface = try surfaces.open(spec(want))
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
    let drawn = surfaces?.picturesAtHeadPixels == true ? picture.atDensity : picture
    guard let surfaces, let image = painter?.picture(drawn, image: placeholderImage) else {
      log.error("could not draw the placeholder for \(monitor.name) (\(picture.width)x\(picture.height))")
      return
    }
    do {
      try surfaces.show(image, on: monitor.surface)
    } catch {
      // The window keeps its background colour; the picture is tried again when it changes.
      log.error("could not show the placeholder on \(monitor.name) (\(picture.width)x\(picture.height)): \(error)")
    }
    monitor.drawn = picture
    counters.redraws += 1
  }

  func release(_ monitor: ManagedMonitor) {
    surfaces?.close(monitor.surface)
    counters.windowsDestroyed += 1
    log.info("window \(monitor.surface) on \(monitor.name) released")
  }

  /// Handles an event about a surface; returns whether the surfaces need a resync.
  func handle(_ event: SurfaceEvent) -> Bool {
    switch event {
    case .closed(let surface):
      guard let monitor = monitors.values.first(where: { $0.surface == surface }) else { return false }
      log.warning("window \(surface) on \(monitor.name) was destroyed by someone else; making a new one")
      monitors[monitor.name] = nil
      return true
    case .exposed(let surface):
      // The host asks for the picture (or a choice) again: the next sync makes it.
      guard let name = monitors.first(where: { $0.value.surface == surface })?.key else { return false }
      monitors[name]?.drawn = nil
      monitors[name]?.mirror = nil
      return true
    case .mirrorSourceLost(let surface):
      guard let name = monitors.first(where: { $0.value.surface == surface })?.key else { return false }
      return mirrorStopped(name)
    case .headGone(let surface):
      // The host released it with its head; a head lit again gets a new one at the next sync.
      guard let monitor = monitors.values.first(where: { $0.surface == surface }) else { return false }
      log.debug("surface \(surface) on \(monitor.name): its head is gone")
      monitors[monitor.name] = nil
      return true
    }
  }

  /// The config the windows are made from: with a profile in force, a rule per entry first
  /// (its `content`, `none` when it gives none and for `same-as` monitors; its `level` and
  /// `mirror`, else the monitor's from the config), and main as `LidPolicy.main` says.
  var windowConfig: Config {
    guard let (profile, assignment) = profileRuntime.chosen else { return config }
    let vendors = layoutServer.vendors(of: heads)
    var result = config
    var rules: [MonitorRule] = []
    for (entry, name) in zip(profile.outputs, assignment.heads) {
      guard let head = heads.head(named: name) else { continue }
      let base = config.settings(for: head, vendors: vendors) ?? config.defaults
      var rule = MonitorRule()
      rule.match.output = head.name
      if case .sameAs = entry.position { rule.content = ContentKind.none } else { rule.content = entry.content }
      rule.level = entry.level ?? base.level
      rule.mirror = entry.mirror ?? base.mirror
      rules.append(rule)
    }
    result.monitors = rules + config.monitors
    let main = LidPolicy.main(
      snapshot: heads, config: config, profile: profile, assignment: assignment, vendors: vendors)
    result.main = main?.name ?? config.main
    return result
  }
}
