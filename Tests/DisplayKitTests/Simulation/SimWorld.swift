import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import DisplayX11

/// The simulated world the daemon lives in: the one adapter between the simulation and the
/// fakes. The daemon talks to it as to any display server and surface host (it is passed as
/// both); it forwards to its desk (`SimDesk`: RandR's fake server, or the fake output manager
/// through the port) and to `FakeSurfaceHost`, injects the faults the simulation draws (the
/// Nth apply fails, a surface cannot be opened, one is closed from outside), and keeps the
/// desk's watch on applies that would change nothing. The simulation's steps and invariants
/// see the world only through this type, so they are written once for every backend.
final class SimWorld: TestDisplayServer, TopologyView {
  let backend: SimBackend
  let desk: any SimDesk
  let host = FakeSurfaceHost()
  /// Connector names, in output order; the first is the built-in panel.
  let connectors: [String]
  /// The monitor (`SimScenario.monitors`) on each connector; nil for none, and for the panel.
  private(set) var plugged: [Int?]

  /// A world of `connectors`, the panel lit and main, `plugged` holding monitors left dark,
  /// no event waiting. `seed` draws what the desk decides of its own (how an apply fails).
  init(_ backend: SimBackend = .randr, connectors: [String], plugged: [Int: Int] = [:], seed: UInt64 = 0) {
    self.backend = backend
    self.connectors = connectors
    self.plugged = connectors.indices.map { plugged[$0] }
    switch backend {
    case .randr: desk = SimRandRDesk(connectors: connectors, plugged: plugged)
    case .port: desk = SimPortDesk(connectors: connectors, plugged: plugged, seed: seed)
    }
    desk.layout.observed?.answered.append { [unowned self] _, result in
      guard result != .stale else { return }
      self.lastApplyFailed = result != .applied
      self.failedApplies += self.lastApplyFailed ? 1 : 0
    }
  }

  /// A world of the same backend at start-up, with this one's monitors plugged.
  func fresh() -> SimWorld {
    let monitors = plugged.enumerated().compactMap { i, m in m.map { (i, $0) } }
    return SimWorld(backend, connectors: connectors, plugged: Dictionary(uniqueKeysWithValues: monitors))
  }

  // Faults.

  /// Whether the last apply failed (and was rolled back).
  private(set) var lastApplyFailed = false
  /// Applies that failed, from the start.
  private(set) var failedApplies = 0
  var applies: Int { desk.applies }
  var redundantApplies: [String] { desk.redundantApplies }

  func failApply(_ n: Int) { desk.failApply(n) }
  /// The `n`th surface open from now fails (1: the next).
  func failOpen(_ n: Int) { host.failOpen(n) }
  func clearFaults() {
    desk.clearFaults()
    host.failingOpen = nil
  }

  // The world's side: monitors, events, other clients.

  var topology: Topology { desk.topology }

  /// The desk's last read, with `held` held.
  func topology(holding held: HeldHeads) -> Topology { desk.topology(holding: held) }

  /// Which connectors hold a monitor (the panel always).
  var connected: [Bool] { plugged.indices.map { $0 == 0 || plugged[$0] != nil } }

  /// Change events the world made (not the server's answers to the daemon's own
  /// configurations) that the daemon has not taken yet.
  private var worldEvents = 0

  /// A monitor plugged into (or swapped on) a connector; one change event.
  func plug(_ connector: Int, monitor: Int) {
    plugged[connector] = monitor
    worldEvents += 1
    desk.plug(connector, monitor: monitor)
  }

  /// The monitor goes. Where the server withdraws its head, the surfaces on it go with it.
  func unplug(_ connector: Int) { unplug(connector, byServer: false) }

  /// The monitor goes; `byServer`, the server turns its output off itself too.
  private func unplug(_ connector: Int, byServer: Bool) {
    plugged[connector] = nil
    worldEvents += 1
    if byServer { desk.serverUnplug(connector) } else { desk.unplug(connector) }
    guard desk.withdrawsSurfaces else { return }
    for (id, surface) in host.surfaces where surface.spec.head == connectors[connector] {
      host.headGoneFromOutside(id)
      closedOutside.insert(id)
    }
  }

  /// The monitor goes, and the server turns its output off itself.
  func serverUnplug(_ connector: Int) { unplug(connector, byServer: true) }

  /// A monitor back, lit by the server itself in a mode and place of its own.
  func serverPlug(_ connector: Int, monitor: Int, mode: Int, right: Bool) {
    plugged[connector] = monitor
    worldEvents += 1
    desk.serverPlug(connector, monitor: monitor, mode: mode, right: right)
  }

  /// The server repeats its last change event.
  func repeatEvent() {
    desk.pendingChanges += 1
    worldEvents += 1
  }

  /// The change events waiting are lost.
  func loseEvents() {
    desk.pendingChanges = 0
    worldEvents = 0
  }

  /// Change events wait, all of them answers to the daemon's own configurations (a
  /// compositor's `done`): its event loop takes them at once.
  var answersWaiting: Bool { desk.pendingChanges > 0 && worldEvents == 0 }

  /// Surface events waiting for the daemon's `takeEvents`.
  var pendingSurfaceEvents: Int { host.pending.count }
  var blanked: Bool {
    get { desk.blanked }
    set { desk.blanked = newValue }
  }

  /// Surfaces closed from outside whose event the daemon has not taken yet: until it does,
  /// it cannot know, and its own calls on them (an error a real backend answers, logged and
  /// harmless) are a race the simulation made, not a misuse.
  var closedOutside: Set<SurfaceID> = []
  /// Calls on such a surface, kept from the fake (whose `misuses` counts only the daemon's own).
  var racedCalls = 0
  /// Heads whose last surface open failed.
  var surfaceless: Set<String> = []
  var surfacesOpened = 0

  // DisplayServer: forwarded to the desk, but for the count of applies that failed. Surface
  // events arrive on the server's connection on X: they are queued events too.

  var name: String { desk.name }
  var fileDescriptor: FileDescriptor { desk.fileDescriptor }
  var queuedEvents: Int { desk.queuedEvents + host.pending.count }
  func readAvailable() throws(DisplayError) -> Int { try desk.readAvailable() + host.pending.count }
  func flush() { desk.flush() }
  func sync() throws(DisplayError) { try desk.sync() }
  func selectChangeEvents() throws(DisplayError) { try desk.selectChangeEvents() }
  func takeChanges(onInputDevice: () -> Void) throws(DisplayError) -> Int {
    worldEvents = 0
    return try desk.takeChanges(onInputDevice: onInputDevice)
  }
  /// The desk's layout: the world counts the applies that failed.
  var layout: OutputManagerLayout { desk.layout }

  /// The desk's facilities, for the daemon.
  var facilities: DisplayFacilities { desk.facilities }
}
