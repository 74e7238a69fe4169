import DisplayModel
import DisplayPorts
import DisplaySupport

/// The daemon's surface part: a surface on every monitor the layout wants one on, showing
/// its placeholder (drawn by the painter) or a mirror, paced by the frame timer; released
/// when the monitor goes.
///
/// It is told what to show (`sync(_:)`: the windows wanted, from the layout), never reads
/// the layout's state; what it needs of the layout on its own events it asks through the
/// closures it is given.
final class DeskSurfaces {
  /// The surfaces covering the monitors.
  let host: any SurfaceHost
  /// Draws every placeholder and reads the style's image; it loads its renderer with the
  /// first picture, which a daemon showing no placeholder never asks for. Without one, a
  /// placeholder leaves its surface's background colour.
  let painter: (any PicturePainter)?
  let log: Logger
  /// The placeholder's style and background are the config's.
  private(set) var config: Config
  /// The monitors covered with a surface, by head name.
  var monitors: [String: ManagedMonitor] = [:]
  /// Windows made and released, pictures drawn, mirror frames.
  var counters = DaemonCounters()
  /// The frame timer of mirror surfaces.
  var mirrors = MirrorRuntime()
  /// The placeholder's PNG, decoded once per config: at the start or reload of a config that
  /// shows placeholders, else when one is first drawn (a mirror that lost its source).
  var placeholderImage: (any StyleImage)?
  /// Whether `placeholderImage` was read for this config.
  var placeholderImageRead = false

  /// Surfaces on `host`, drawn by `painter`, for `config` (its PNG read and fonts loaded now
  /// when it shows placeholders).
  init(host: any SurfaceHost, painter: (any PicturePainter)?, config: Config, log: Logger) {
    self.host = host
    self.painter = painter
    self.config = config
    self.log = log
    prepareDrawing()
  }

  /// With a config that shows placeholders: its PNG read and the fonts loaded now, not when
  /// the first monitor is plugged. Else nothing: a mirror or no content draws no picture.
  private func prepareDrawing() {
    (placeholderImage, placeholderImageRead) = (nil, false)
    guard config.showsPlaceholders else { return }
    readPlaceholderImage()
    let warmUp = PlaceholderContent(style: config.placeholder, details: "warm-up", width: 32, height: 32)
    _ = painter?.picture(warmUp, image: nil)
  }

  /// Reads the config's placeholder PNG once.
  func readPlaceholderImage() {
    guard !placeholderImageRead else { return }
    placeholderImage = loadImage(config.placeholder)
    placeholderImageRead = true
  }

  /// The placeholder style's PNG, decoded by the painter; a warning and none when it cannot
  /// be used.
  private func loadImage(_ style: PlaceholderStyle) -> (any StyleImage)? {
    guard let painter else { return nil }
    switch painter.image(for: style) {
    case .success(let image): return image
    case .failure(let error):
      log.warning("\(error); the placeholder is drawn without it")
      return nil
    }
  }

  /// What `take` changed, to put back when the new config's arrangement throws.
  typealias Reloading = (config: Config, image: (any StyleImage)?, imageRead: Bool)

  /// Takes a new config: its PNG read again (the file may have changed under the same path);
  /// a changed picture redraws every placeholder at the next sync.
  func take(_ new: Config) -> Reloading {
    let previous = (config, placeholderImage, placeholderImageRead)
    config = new
    prepareDrawing()
    if placeholderImage?.fingerprint != previous.1?.fingerprint {
      for name in monitors.keys { monitors[name]?.drawn = nil }
    }
    return previous
  }

  /// Puts back what `take` changed (the pictures it asked to redraw stay asked).
  func restore(_ previous: Reloading) {
    (config, placeholderImage, placeholderImageRead) = previous
  }

  /// One line for systemd's STATUS=: "2 external monitors: HDMI-1 placeholder, DP-2 placeholder".
  var summary: String {
    let list = monitors.values.sorted { $0.name < $1.name }.map { "\($0.name) \($0.content.rawValue)" }
    let count = "\(list.count) external monitor" + (list.count == 1 ? "" : "s")
    return list.isEmpty ? count : count + ": " + list.joined(separator: ", ")
  }

  /// Asks the host what its events meant: those about a monitor's surface are handled
  /// (`wanted` gives the windows wanted now, for a mirror that stops), the others go to
  /// `other`. Returns whether the surfaces need a sync.
  func takeEvents(wanted: () -> [WindowWanted], other: (SurfaceEvent) -> Void) -> Bool {
    var resync = false
    for event in host.takeEvents() {
      if monitors.values.contains(where: { $0.surface == event.surface }) {
        resync = handle(event, wanted: wanted) || resync
      } else {
        other(event)
      }
    }
    return resync
  }

  /// Handles an event about a surface; returns whether the surfaces need a resync.
  private func handle(_ event: SurfaceEvent, wanted: () -> [WindowWanted]) -> Bool {
    let name = monitors.first(where: { $0.value.surface == event.surface })?.key
    guard let name, let monitor = monitors[name] else { return false }
    switch event {
    case .closed(let surface):
      log.warning("window \(surface) on \(monitor.name) was destroyed by someone else; making a new one")
      monitors[name] = nil
      return true
    case .exposed:
      // The host asks for the picture (or a choice) again: the next sync makes it.
      monitors[name]?.drawn = nil
      monitors[name]?.mirror = nil
      return true
    case .mirrorSourceLost:
      return mirrorStopped(name, wanted: wanted)
    case .headGone(let surface):
      // The host released it with its head; a head lit again gets a new one at the next sync.
      log.debug("surface \(surface) on \(monitor.name): its head is gone")
      monitors[name] = nil
      return true
    }
  }

  /// Another monitor is on the head now: its surface goes.
  func drop(_ name: String) {
    if let monitor = monitors.removeValue(forKey: name) { release(monitor) }
  }

  /// Destroys every surface and frees what served it.
  func releaseAll() {
    for monitor in monitors.values { release(monitor) }
    monitors = [:]
    syncFrameTimer()
  }
}
