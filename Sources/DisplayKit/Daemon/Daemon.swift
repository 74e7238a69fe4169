import DisplayModel
import DisplayPorts
import DisplaySupport

/// Which monitor is on a head, as far as the daemon tells them apart: by its EDID, else (a
/// compositor gives none) by the make, model and serial the head lists.
struct MonitorKey: Equatable {
  var edid: [UInt8]?
  /// Only without an EDID, and as the head writes them: the same monitor reads the same
  /// strings each time, and the daemon asks at every read, so no identity is made of them.
  var make = "", model = "", serial = ""
  /// A monitor attached again is a new head object on wlroots, though it says the same.
  var instance: UInt64

  init(_ head: Head?) {
    edid = head?.edid
    instance = head?.instance ?? 0
    guard edid == nil, let head else { return }
    (make, model, serial) = (head.make, head.model, head.serial)
  }

  /// Whether `head` shows this monitor: `MonitorKey(head) == self`, without the copy.
  func isOn(_ head: Head) -> Bool {
    guard head.edid == edid, head.instance == instance else { return false }
    return edid != nil || (head.make == make && head.model == model && head.serial == serial)
  }
}

/// The display manager: gives every connected external monitor its chosen mode and place,
/// covers it with a window showing its content, and releases the window when it goes.
///
/// Reconciling is idempotent: it compares desired with actual state and changes only the
/// difference, and outputs it has configured are left alone afterwards, so the RandR events
/// its own changes cause lead to no further change.
public final class Daemon {
  /// The server's events: the descriptor the service polls, flushes and syncs.
  public let changeSource: any ChangeSource
  /// The server's layout: heads read, configurations put in force, made modes released.
  public let layoutServer: any LayoutServer
  /// The surfaces covering the monitors; nil for a daemon that only arranges the layout.
  public let surfaces: (any SurfaceHost)?
  /// The server's desk facilities (resources, output properties, pointer devices, power):
  /// a nil one is a feature the server has not, which the daemon then leaves out.
  public let facilities: DisplayFacilities
  public private(set) var config: Config {
    didSet { if extras.config != nil { forgetExtras() } }
  }
  public let log: Logger
  /// The watch loop's steps: the events, the reads, and what changed between them.
  let watcher: HeadWatcher
  /// The latest read's heads, as the output-management port describes them and the daemon
  /// treats them (the disconnects waiting for their grace still connected).
  public var heads: HeadSnapshot { watcher.heads }
  public internal(set) var counters = DaemonCounters()
  /// The monitors covered with a surface, by head name.
  public internal(set) var monitors: [String: ManagedMonitor] = [:]
  /// Heads (by name) configured since they connected, with the monitor then: left as they
  /// are until they disconnect or another monitor appears on the connector.
  var settled: [String: MonitorKey] = [:]
  /// Heads (by name) whose configuration failed, with the monitor and how many times in a
  /// row: retried when the heads next change (not on the events of their own rollback), up
  /// to `maxAttempts` times, and again when the monitor or the config changes.
  var failures: [String: (monitor: MonitorKey, count: Int)] = [:]
  /// Heads (by name) the daemon lit (set a mode on: by the rules, a profile or a built-in
  /// layout) since they connected, whatever monitor is on them now.
  var litByDaemon: Set<String> = []
  static let maxAttempts = 3
  /// Plans made again in one reconcile, each without the monitors that failed before.
  static let maxRounds = 8
  /// Called with each batch of hot-plug events and the heads before and after.
  public var onEvents: (([HeadEvent], HeadSnapshot, HeadSnapshot) -> Void)?
  /// Called with each surface event about a surface of the host that is no monitor's
  /// (`identify`'s cards), so that its owner forgets one the host released.
  public var onOtherSurfaceEvent: ((SurfaceEvent) -> Void)?
  /// The time mirror frames are paced by.
  public let clock: any MonotonicClock
  /// Wall-clock time the daemon started.
  public let startedAt = timestampNow()
  /// The frame timer of mirror surfaces.
  var mirrors = MirrorRuntime()
  /// The placeholder's PNG, decoded once per config: at the start or reload of a config that
  /// shows placeholders, else when one is first drawn (a mirror that lost its source).
  var placeholderImage: (any StyleImage)?
  /// Whether `placeholderImage` was read for this config.
  var placeholderImageRead = false
  /// The laptop lid as the service last heard it (open without logind).
  public private(set) var lid = LidState.open
  /// Whether this daemon makes windows (false for `displayd apply`, which has no surface
  /// host: no renderer loaded).
  public var managesWindows: Bool { surfaces != nil }
  /// Draws every placeholder and reads the style's image; it loads its renderer with the
  /// first picture, which a daemon showing no placeholder never asks for. nil without windows.
  let painter: (any PicturePainter)?
  /// The profile in force, the lid policy's memory (DaemonProfiles.swift).
  var profileRuntime = ProfileRuntime()
  /// What displayd did to `Xft.dpi` (DaemonDPI.swift).
  var xft = XftRuntime()
  /// Properties and touch devices (DaemonExtras.swift).
  var extras = ExtrasRuntime()
  /// Called after a profile is brought into force, before the windows follow.
  public var onProfileApplied: ((Profile) -> Void)?
  /// What is known of the desktop's display manager (DaemonDesktop.swift).
  var desktopRuntime = DesktopRuntime()
  /// Disconnects waiting for `disconnect_grace` (DaemonGrace.swift).
  var grace = GraceRuntime()

  /// Selects the change events and reads the first snapshot, probing connectors once.
  /// Without `surfaces`, the daemon only arranges the layout (`applyOnce`): the painter is
  /// never used. Without a painter, a placeholder leaves its surface's background colour.
  /// Without `facilities`, the server has none.
  public init(
    changeSource: any ChangeSource, layoutServer: any LayoutServer, surfaces: (any SurfaceHost)?,
    painter: (any PicturePainter)? = nil, facilities: DisplayFacilities = DisplayFacilities(), config: Config,
    log: Logger, clock: any MonotonicClock = SystemClock()
  ) throws(DisplayError) {
    self.changeSource = changeSource
    self.layoutServer = layoutServer
    self.surfaces = surfaces
    self.painter = surfaces == nil ? nil : painter
    self.facilities = facilities
    self.clock = clock
    self.config = config
    self.log = log
    watcher = try HeadWatcher(source: changeSource, layout: layoutServer, probe: true)
    desktopRuntime.signals.xwaylandExtension = facilities.xwayland
    guard surfaces != nil else { return }
    prepareDrawing()
  }

  /// The daemon on a server whose events and layout are one object (one connection).
  public convenience init(
    server: any DisplayServer, surfaces: (any SurfaceHost)?, painter: (any PicturePainter)? = nil,
    facilities: DisplayFacilities = DisplayFacilities(), config: Config, log: Logger,
    clock: any MonotonicClock = SystemClock()
  ) throws(DisplayError) {
    try self.init(
      changeSource: server, layoutServer: server, surfaces: surfaces, painter: painter, facilities: facilities,
      config: config, log: log, clock: clock)
  }

  /// With a config that shows placeholders: its PNG read and the fonts loaded now, not when
  /// the first monitor is plugged. Else nothing: a mirror or no content draws no picture.
  func prepareDrawing() {
    (placeholderImage, placeholderImageRead) = (nil, false)
    guard managesWindows, config.showsPlaceholders else { return }
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

  /// The first full reconcile: after it, every monitor present has its mode and window.
  public func start() throws(DisplayError) {
    let main = config.mainOutput(in: heads, vendors: layoutServer.vendors(of: heads))?.name ?? "none"
    log.info("display \(layoutServer.name): \(heads.heads.filter(\.connected).count) connected, main \(main)")
    let old = heads
    let events = try arrange(reason: "start-up")
    report(events, old)
    syncWindows()
    log.info("ready: \(monitors.count) external monitor(s) managed")
  }

  /// One line for systemd's STATUS=: "2 external monitors: HDMI-1 placeholder, DP-2 placeholder".
  public var summary: String {
    let list = monitors.values.sorted { $0.name < $1.name }.map { "\($0.name) \($0.content.rawValue)" }
    let count = "\(list.count) external monitor" + (list.count == 1 ? "" : "s")
    return list.isEmpty ? count : count + ": " + list.joined(separator: ", ")
  }

  /// Drains the server's queued events and asks the surface host what those about surfaces
  /// meant; on output changes reads the heads afresh and reconciles; brings the surfaces back
  /// in line when one of them was closed by someone else, whatever else happened.
  public func handleServerEvents() throws(DisplayError) {
    var devicesAdded = false
    let randr = try watcher.drain { devicesAdded = true }
    var resync = false
    for event in surfaces?.takeEvents() ?? [] {
      if monitors.values.contains(where: { $0.surface == event.surface }) {
        resync = handle(event) || resync
      } else {
        onOtherSurfaceEvent?(event)
      }
    }
    if devicesAdded { inputDeviceAdded() }
    syncFrameTimer()
    guard randr > 0 else {
      if resync { syncWindows() }
      return
    }
    let old = heads
    var new = try layoutServer.read()
    // Told by this read alone: a probing read after it hears of no disconnect again.
    var reconnected = layoutServer.reconnected
    // Lit by someone while the server calls it disconnected, and not just unplugged (it was
    // not connected before): ask the server to probe it once rather than turn it off.
    let unexplained = layoutServer.litButDisconnected.filter { heads.head(named: $0)?.connected != true }
    if !unexplained.isEmpty {
      log.debug("outputs lit but disconnected: probing connectors")
      new = try layoutServer.read(ReadOptions(probe: true))
      reconnected.formUnion(layoutServer.reconnected)
    }
    // While a disconnect waits, the server's heads may differ from the daemon's only by that
    // monitor's return: always look. Else the heads say every change to react to: their
    // generation moves with every configuration any client sets.
    guard new != heads || !grace.pending.isEmpty else {
      log.debug("\(randr) RandR event(s), topology unchanged")
      if resync { syncWindows() }
      return
    }
    var events = adopt(new, reconnected: reconnected)
    events += try arrange(reason: "RandR events")
    // Hooks start as soon as modes and places are final; the windows follow.
    report(events, old)
    syncWindows()
  }

  /// Plans, applies what differs, re-reads the result and brings the windows in line;
  /// returns the events seen in the snapshots it adopted.
  @discardableResult
  public func reconcile(reason: String) throws(DisplayError) -> [HeadEvent] {
    let events = try arrange(reason: reason)
    syncWindows()
    return events
  }

  /// Plans and applies what differs and re-reads the result, leaving the windows as they are;
  /// returns the events seen in the snapshots it adopted. A plan made from a snapshot that
  /// went stale, or that the server refused in part, is rolled back by `apply` and made again
  /// without the outputs that failed: a few rounds at most, never a half-applied layout.
  func arrange(reason: String) throws(DisplayError) -> [HeadEvent] {
    var events = try arrangeRounds(reason: reason)
    // The read after a release may show a monitor that came or went meanwhile (its events
    // then only say the layout is as read): arranged as any read is, a few times at most.
    for _ in 0..<2 {
      let released = try releaseUnusedModes()
      guard !released.isEmpty else { break }
      events += released + (try arrangeRounds(reason: reason))
    }
    return events
  }

  /// The plans of one arrangement, each round on what the last one read.
  private func arrangeRounds(reason: String) throws(DisplayError) -> [HeadEvent] {
    var events: [HeadEvent] = []
    for _ in 0..<Self.maxRounds {
      let (before, snapshots, main) = (heads, watcher.snapshots, mainName)
      events += try arrangeOnce(reason: reason)
      // A snapshot read on the way (a plan gone stale) showed other monitors, or main moved
      // (the lid policy lit the panel): the steps before (the rules) planned without that.
      // Without a read the heads, and so the monitors, are the same.
      let moved = watcher.snapshots != snapshots && desk.monitors != DeskKey.monitors(of: before)
      guard moved || mainName != main else { break }
    }
    return events
  }

  /// Has the layout server delete the modes displayd made that no CRTC shows any more (their
  /// monitor went, or the config or profile no longer asks for them), then reads the result.
  func releaseUnusedModes() throws(DisplayError) -> [HeadEvent] {
    let (released, problems) = try layoutServer.releaseUnusedModes()
    guard !released.isEmpty else { return [] }
    for problem in problems { log.warning(problem) }
    log.info("released custom mode(s) no CRTC shows: " + released.joined(separator: ", "))
    return adopt(try layoutServer.read())
  }

  func arrangeOnce(reason: String) throws(DisplayError) -> [HeadEvent] {
    counters.reconciles += 1
    let n = counters.reconciles
    forgetGoneMonitors()
    if let manager = noteDesktop() {
      let events = leaveLayout(to: manager, n, reason: reason)
      // Properties and touch devices are not the layout: they follow the desktop's.
      applyOutputExtras()
      return events
    }
    var events: [HeadEvent] = []
    if let manual = profileRuntime.manual, manual.desk != desk { events += try resumeAutomatic(n, reason: reason) }
    let profiled = try arrangeProfile(n, reason: reason)
    events += profiled.events
    // Properties and touch devices follow whatever layout this leaves.
    if profiled.handled {
      applyOutputExtras()
      return events
    }
    try arrangeRules(n, reason, &events)
    events += try arrangeLid(n, reason: reason)
    applyOutputExtras()
    return events
  }

  /// Remembers the head's monitor as configured; a head the daemon's heads do not list is
  /// none to remember.
  func settle(_ name: String) {
    guard let head = heads.head(named: name) else { return }
    settled[name] = MonitorKey(head)
    failures[name] = nil
  }

  /// The heads whose disconnect waits for the grace.
  var pendingNames: Set<String> { Set(grace.pending.keys) }

  /// Forgets settled and failed heads whose monitor went away or was swapped for another
  /// (one whose disconnect waits for the grace has not gone yet).
  func forgetGoneMonitors() {
    let pending = pendingNames
    let connected = { (name: String) in self.heads.head(named: name)?.connected == true }
    let present = { (name: String, key: MonitorKey) in
      pending.contains(name) || self.heads.head(named: name).map { $0.connected && key.isOn($0) } ?? false
    }
    settled = settled.filter { present($0.key, $0.value) }
    failures = failures.filter { present($0.key, $0.value.monitor) }
    litByDaemon = litByDaemon.filter { pending.contains($0) || connected($0) }
  }

  /// Makes `new`, the server's heads just read, the daemon's (with the monitors whose
  /// disconnect waits for the grace still in them); logs and returns what changed since the
  /// last ones.
  func adopt(_ new: HeadSnapshot, reconnected: Set<String>? = nil) -> [HeadEvent] {
    noteResetsBetweenReads(new, reconnected ?? layoutServer.reconnected)
    let step = graceStep(new)
    let diffed = watcher.adopt(step.heads).filter { !step.quiet.contains($0.head.name) }
    let events = step.events + diffed
    for event in events {
      log.info(event.summary)
      // Lit by the server as it connected (Xvnc, a compositor): no user's choice, so the
      // rules plan it as one the daemon lit, main too.
      if event.kind == .connected && event.rect != nil { litByDaemon.insert(event.head.name) }
    }
    return events
  }

  /// Hands a batch of events to `onEvents`, with the heads before it (`old`) and now.
  func report(_ events: [HeadEvent], _ old: HeadSnapshot) {
    if !events.isEmpty { onEvents?(events, old, heads) }
  }

  /// Records the lid's state; a change reconciles, unless `reconcile` is false (the state
  /// before `start`).
  public func setLid(_ new: LidState, reconcile: Bool = true) throws(DisplayError) {
    guard new != lid else { return }
    lid = new
    guard reconcile else { return }
    let old = heads
    report(try self.reconcile(reason: "lid \(new.rawValue)"), old)
  }

  /// Replaces the configuration and reconciles every monitor against it; windows whose
  /// picture is unchanged are kept as they are. The old config stays when this throws.
  public func reload(_ new: Config) throws(DisplayError) {
    let previous = (config, settled, failures, placeholderImage, profileRuntime, placeholderImageRead)
    config = new
    settled = [:]
    failures = [:]
    // A manual choice ends too (the desk now has another config): `arrange` restores what it changed.
    (profileRuntime.applied, profileRuntime.lidDesk) = (nil, nil)
    // Read again: the file may have changed under the same path. A changed picture redraws.
    prepareDrawing()
    if placeholderImage?.fingerprint != previous.3?.fingerprint {
      for name in monitors.keys { monitors[name]?.drawn = nil }
    }
    do {
      let old = heads
      report(try arrange(reason: "config reload"), old)
      syncWindows()
      graceReloaded()
    } catch {
      (config, settled, failures, placeholderImage, profileRuntime, placeholderImageRead) = previous
      throw error
    }
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

  /// Destroys every window and frees what served it.
  public func releaseAll() {
    for monitor in monitors.values { release(monitor) }
    monitors = [:]
    syncFrameTimer()
    changeSource.flush()
    _ = try? changeSource.sync()
  }
}
