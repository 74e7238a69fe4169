/// The display manager: gives every connected external monitor its chosen mode and place,
/// covers it with a window showing its content, and releases the window when it goes.
///
/// Reconciling is idempotent: it compares desired with actual state and changes only the
/// difference, and outputs it has configured are left alone afterwards, so the RandR events
/// its own changes cause lead to no further change.
public final class Daemon {
  public let connection: XConnection
  public private(set) var config: Config
  public let log: Logger
  public private(set) var topology: Topology
  public internal(set) var counters = DaemonCounters()
  public internal(set) var monitors: [OutputID: ManagedMonitor] = [:]
  /// Outputs configured since they connected; left as they are until they disconnect.
  private var settled: Set<OutputID> = []
  /// Called with each batch of topology events and the snapshots before and after.
  public var onEvents: (([TopologyEvent], Topology, Topology) -> Void)?
  /// Wall-clock time the daemon started.
  public let startedAt = timestampNow()
  /// Damage tracking and frame pacing for mirror windows.
  var mirrors = MirrorRuntime()

  /// Selects RandR events and reads the first snapshot, probing connectors once.
  public init(connection: XConnection, config: Config, log: Logger) throws(DisplayError) {
    self.connection = connection
    self.config = config
    self.log = log
    try connection.selectRandREvents()
    topology = try connection.readTopology(ReadOptions(probe: true))
    _ = try connection.drainEvents()
    // Load fonts now, not when the first monitor is plugged.
    _ = PlaceholderRenderer.render(
      PlaceholderContent(style: config.placeholder, details: "warm-up", width: 32, height: 32))
  }

  /// The first full reconcile: after it, every monitor present has its mode and window.
  public func start() throws(DisplayError) {
    let main = config.mainOutput(in: topology)?.name ?? "none"
    log.info("display \(connection.name): \(topology.connectedOutputs.count) connected, main \(main)")
    try reconcile(reason: "start-up")
    log.info("ready: \(monitors.count) external monitor(s) managed")
  }

  /// One line for systemd's STATUS=: "2 external monitors: HDMI-1 placeholder, DP-2 placeholder".
  public var summary: String {
    let list = monitors.values.sorted { $0.name < $1.name }.map { "\($0.name) \($0.content.rawValue)" }
    let count = "\(list.count) external monitor" + (list.count == 1 ? "" : "s")
    return list.isEmpty ? count : count + ": " + list.joined(separator: ", ")
  }

  /// Drains queued X events; on RandR changes takes a fresh snapshot and reconciles.
  public func handleXEvents() throws(DisplayError) {
    var windowEvents: [WindowEvent] = []
    let randr = try connection.drainEvents { windowEvents.append($0) }
    var resync = false
    for event in windowEvents { resync = handle(event) || resync }
    if randr > 0 {
      let new = try connection.readTopology()
      guard new != topology else {
        log.debug("\(randr) RandR event(s), topology unchanged")
        return
      }
      let old = topology
      let events = TopologyDiff.events(from: old, to: new)
      for event in events { log.info(EventReport.describe(event)) }
      topology = new
      try reconcile(reason: "RandR events")
      if !events.isEmpty { onEvents?(events, old, topology) }
    } else if resync {
      syncWindows()
    }
  }

  /// Plans, applies what differs, re-reads the result and brings the windows in line.
  public func reconcile(reason: String) throws(DisplayError) {
    counters.reconciles += 1
    let n = counters.reconciles
    settled = settled.filter { topology.output($0)?.isConnected == true }
    let plan = Planner(topology: topology, config: config).plan(settled: settled)
    for warning in plan.warnings { log.warning(warning) }
    settled.formUnion(plan.configures)
    if plan.isEmpty {
      log.debug("reconcile \(n) (\(reason)): nothing to change")
    } else {
      let outcome = try connection.apply(plan, in: topology)
      counters.reconcilesChanged += 1
      log.info("reconcile \(n) (\(reason)): " + describe(outcome))
      for failure in outcome.failed { log.error("could not configure \(failure.change.outputName): \(failure.reason)") }
      topology = try connection.readTopology()
    }
    syncWindows()
  }

  /// Replaces the configuration and reconciles every monitor against it; windows whose
  /// picture is unchanged are kept as they are.
  public func reload(_ new: Config) throws(DisplayError) {
    config = new
    settled = []
    try reconcile(reason: "config reload")
  }

  /// Destroys every window and frees what served it.
  public func releaseAll() {
    for monitor in monitors.values { release(monitor) }
    monitors = [:]
    updateDamageTracking()
    connection.flush()
    _ = try? connection.sync()
  }

  private func describe(_ outcome: ApplyOutcome) -> String {
    var parts = outcome.applied.map { applied -> String in
      guard let mode = applied.mode else { return "\(applied.change.outputName) off" }
      let label = topology.modes[mode].map(TopologyReport.modeLabel) ?? mode.description
      return "\(applied.change.outputName) \(label) at \(applied.change.x),\(applied.change.y)"
    }
    if let s = outcome.screen { parts.append("screen \(s.width)x\(s.height)") }
    return parts.joined(separator: ", ")
  }
}
