import DisplayModel
import DisplayPorts
import DisplaySupport

/// The display manager: gives every connected external monitor its chosen mode and place,
/// covers it with a window showing its content, and releases the window when it goes.
///
/// A coordinator of three parts that never read each other's state: the layout
/// (`DeskLayout`: rules, profiles, lid, grace, the apply loop), the surfaces
/// (`DeskSurfaces`) and the desk settings (`DeskSettings`: `Xft.dpi`, properties, touch,
/// the desktop's manager). It routes the server's events and the service's requests to
/// them, hands each the values it needs from the others, and tells the service what
/// happened.
///
/// Reconciling is idempotent: it compares desired with actual state and changes only the
/// difference, and outputs it has configured are left alone afterwards, so the events its
/// own changes cause lead to no further change.
public final class Daemon {
  /// The server's events: the descriptor the service polls, flushes and syncs.
  let changeSource: any ChangeSource
  /// The server's layout: heads read, configurations put in force, made modes released.
  public let layoutServer: OutputManagerLayout
  /// The surfaces covering the monitors; nil for a daemon that only arranges the layout.
  public let surfaces: (any SurfaceHost)?
  /// Where every part logs.
  public let log: Logger
  /// The time mirror frames and the grace are paced by.
  public let clock: any MonotonicClock
  /// Wall-clock time the daemon started.
  public let startedAt = timestampNow()
  /// The layout part.
  let layout: DeskLayout
  /// The surface part; nil without a surface host (`displayd apply`: no renderer loaded).
  let shown: DeskSurfaces?
  /// The desk-settings part.
  let settings: DeskSettings
  /// Called with each batch of hot-plug events and the heads before and after.
  public var onEvents: (([HeadEvent], HeadSnapshot, HeadSnapshot) -> Void)?
  /// Called with each surface event about a surface of the host that is no monitor's
  /// (`identify`'s cards), so that its owner forgets one the host released.
  public var onOtherSurfaceEvent: ((SurfaceEvent) -> Void)?
  /// Called after a profile is brought into force, before the windows follow.
  public var onProfileApplied: ((Profile) -> Void)?

  /// Selects the change events and reads the first snapshot, probing connectors once.
  /// Without `surfaces`, the daemon only arranges the layout (`applyOnce`): the painter is
  /// never used. Without a painter, a placeholder leaves its surface's background colour.
  /// Without `facilities`, the server has none.
  public init(
    changeSource: any ChangeSource, layoutServer: OutputManagerLayout, surfaces: (any SurfaceHost)?,
    painter: (any PicturePainter)? = nil, facilities: DisplayFacilities = DisplayFacilities(), config: Config,
    log: Logger, clock: any MonotonicClock = SystemClock()
  ) throws(DisplayError) {
    self.changeSource = changeSource
    self.layoutServer = layoutServer
    self.surfaces = surfaces
    self.clock = clock
    self.log = log
    layout = try DeskLayout(
      changeSource: changeSource, layoutServer: layoutServer, power: facilities.power, config: config, log: log,
      clock: clock)
    settings = DeskSettings(facilities: facilities, config: config, log: log)
    shown = surfaces.map { DeskSurfaces(host: $0, painter: painter, config: config, log: log) }
    layout.hooks = routes()
  }

  /// Where what the layout asks for goes: the desk settings, the surfaces, the service.
  private func routes() -> LayoutHooks {
    LayoutHooks(
      desktopManager: { [unowned self] in settings.noteDesktop(layout.heads) },
      arranged: { [unowned self] in
        settings.applyOutputExtras(layout.heads, chosen: layout.chosenProfile, vendors: layout.vendors)
      },
      profileInForce: { [unowned self] profile, dpi in settings.followXftDPI(profile, planned: dpi) },
      profileApplied: { [unowned self] profile in onProfileApplied?(profile) },
      monitorSwapped: { [unowned self] name in shown?.drop(name) })
  }

  /// The first full reconcile: after it, every monitor present has its mode and window.
  public func start() throws(DisplayError) {
    let main = config.mainOutput(in: heads, vendors: layout.vendors)?.name ?? "none"
    log.info("display \(layoutServer.name): \(heads.heads.filter(\.connected).count) connected, main \(main)")
    let old = heads
    report(try layout.arrange(reason: "start-up"), old)
    syncSurfaces()
    log.info("ready: \(monitors.count) external monitor(s) managed")
  }

  /// Drains the server's queued events and asks the surface host what those about surfaces
  /// meant; on output changes reads the heads afresh and reconciles; brings the surfaces back
  /// in line when one of them was closed by someone else, whatever else happened.
  public func handleServerEvents() throws(DisplayError) {
    var devicesAdded = false
    let changes = try changeSource.takeChanges { devicesAdded = true }
    let wanted = { [unowned self] in layout.windowConfig.wantedWindows(in: heads, vendors: layout.vendors) }
    let resync = shown?.takeEvents(wanted: wanted) { onOtherSurfaceEvent?($0) } ?? false
    if devicesAdded {
      settings.inputDeviceAdded(heads, chosen: layout.chosenProfile, vendors: layout.vendors)
    }
    shown?.syncFrameTimer()
    let old = heads
    guard changes > 0, let events = try layout.serverChanged(count: changes) else {
      if resync { syncSurfaces() }
      return
    }
    // Hooks start as soon as modes and places are final; the windows follow.
    report(events, old)
    syncSurfaces()
  }

  /// Plans, applies what differs, re-reads the result and brings the windows in line;
  /// returns the events seen in the snapshots it adopted.
  @discardableResult
  public func reconcile(reason: String) throws(DisplayError) -> [HeadEvent] {
    let events = try layout.arrange(reason: reason)
    syncSurfaces()
    return events
  }

  /// Records the lid's state; a change reconciles, unless `reconcile` is false (the state
  /// before `start`).
  public func setLid(_ new: LidState, reconcile: Bool = true) throws(DisplayError) {
    guard new != lid else { return }
    layout.lid = new
    guard reconcile else { return }
    let old = heads
    report(try self.reconcile(reason: "lid \(new.rawValue)"), old)
  }

  /// Replaces the configuration and reconciles every monitor against it; windows whose
  /// picture is unchanged are kept as they are. The old config stays when this throws.
  public func reload(_ new: Config) throws(DisplayError) {
    let previous = (layout.take(new), shown?.take(new), settings.config)
    settings.config = new
    do {
      let old = heads
      report(try layout.arrange(reason: "config reload"), old)
      syncSurfaces()
      layout.graceReloaded()
    } catch {
      layout.restore(previous.0)
      if let surfaces = previous.1 { shown?.restore(surfaces) }
      settings.config = previous.2
      throw error
    }
  }

  /// Reads the heads afresh, re-probing the connectors, and reconciles as on any server
  /// event: some drivers send no event for monitors that changed while the machine slept,
  /// and a script may know better than the server (`SIGUSR1`). Counted in
  /// `counters.probes`; `reason` names the cause in the log.
  public func resync(reason: String) throws(DisplayError) {
    let old = heads
    guard let events = try layout.resync(reason: reason) else { return }
    // Hooks start as soon as modes and places are final; the windows follow.
    report(events, old)
    syncSurfaces()
  }

  /// The grace timer fired: handles the disconnects whose grace is over, as on any event.
  public func graceTimerFired() throws(DisplayError) {
    let old = heads
    guard let events = try layout.graceTimerFired() else { return }
    report(events, old)
    syncSurfaces()
  }

  /// The frame timer fired: the surface host draws what waited for the frame.
  public func frameTimerFired() {
    shown?.frameTimerFired()
  }

  /// Destroys every window and frees what served it.
  public func releaseAll() {
    shown?.releaseAll()
    changeSource.flush()
    _ = try? changeSource.sync()
  }

  /// Makes the surfaces match what the heads and the layout in force want; the requests go
  /// out at once.
  func syncSurfaces() {
    guard let shown else { return }
    // Over Xwayland, the compositor places managed windows itself: every surface an overlay.
    let onXwayland = settings.desktop(heads).manager == .xwayland
    shown.sync(layout.wantedWindows, pending: layout.pendingNames, onXwayland: onXwayland)
    changeSource.flush()
  }

  /// Hands a batch of events to `onEvents`, with the heads before it (`old`) and now.
  func report(_ events: [HeadEvent], _ old: HeadSnapshot) {
    if !events.isEmpty { onEvents?(events, old, heads) }
  }
}
