import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayWayland

/// The daemon's display server on a wlroots compositor: the output manager's heads through
/// the `Topology(heads:)` bridge, plans applied as one configuration (tested, then applied),
/// and one socket shared with the surfaces (`WaylandSurfaces`), so one poll and one dispatch
/// serve both. Every output manager `done` counts as a topology change. It has none of the
/// X desk's facilities (DPMS, resources, XSETTINGS, output properties, touch matrices: its
/// daemon gets an empty `DisplayFacilities`), and made modes answer as a server without them.
public final class WaylandDisplayServer: DisplayServer {
  public let outputs: WaylandOutputManager
  public let surfaces: WaylandSurfaces
  /// Where `primary` is reported as not applicable (once).
  let note: (String) -> Void
  let warn: (String) -> Void
  /// The PNP ids a head's make stands for (hwdata's `pnp.ids`, read at run time).
  let vendors: PNPVendors
  private var changes = 0
  private var primaryNoted = false
  private var lastWarnings: [String] = []

  /// The compositor at `socket` (default `$WAYLAND_DISPLAY`): its surfaces and its output
  /// manager on one connection.
  public init(socket: String?, log: Logger, vendors: PNPVendors = .system) throws(DisplayError) {
    surfaces = try WaylandSurfaces(socket: socket)
    outputs = try WaylandOutputManager(sharing: surfaces)
    note = { log.info($0) }
    warn = { log.warning($0) }
    self.vendors = vendors
    outputs.changed = { [unowned self] in self.changes += 1 }
  }

  /// The socket's name (`wayland-1`): what the control socket and the lock are named by.
  public var name: String { outputs.socketName }
  /// The compositor's process name (`sway`); empty when unknown.
  public var compositor: String { outputs.compositorName }

  public var fileDescriptor: FileDescriptor { outputs.fileDescriptor }
  public var queuedEvents: Int { changes }

  public func readAvailable() throws(DisplayError) -> Int {
    try outputs.dispatch()
    try surfaces.dispatch()
    return changes
  }

  // A lost connection shows at the next dispatch, which throws and reaches the daemon.
  public func flush() { try? outputs.flush() }
  public var hasUnsent: Bool { outputs.hasUnsent }
  public func sync() throws(DisplayError) { try outputs.roundtrip() }
  /// The output manager sends its events unasked.
  public func selectRandREvents() throws(DisplayError) {}

  /// Surface events stay with the surfaces (the daemon takes them from the host). No
  /// roundtrip here for a plugged head's `wl_output`: the plan's own roundtrips bring its name
  /// before the daemon puts a surface on it, and the host asks itself when one has not come.
  public func drainEvents(_ onInputDevice: () -> Void) throws(DisplayError) -> Int {
    try surfaces.dispatch()
    guard changes > 0 else { return 0 }
    defer { changes = 0 }
    return changes
  }

  /// The heads through the bridge, with a screen as large as the protocol's positions can
  /// say: a compositor's layout has no maximum the planner must keep within.
  public func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology {
    let snapshot = try outputs.heads(probe: options.probe)
    report(snapshot.bounded().warnings)
    var topology = Topology(heads: snapshot, vendors: vendors)
    (topology.screen.maxWidth, topology.screen.maxHeight) = (Int(Int16.max), Int(Int16.max))
    return topology
  }

  /// What the bridge left out of a snapshot, logged when it changes (not at every snapshot).
  private func report(_ warnings: [String]) {
    guard warnings != lastWarnings else { return }
    lastWarnings = warnings
    for warning in warnings { warn("compositor: " + warning) }
  }

  /// The plan as one configuration: tested, then applied. A plan that changes no head (only
  /// a primary or a screen size, which have no Wayland meaning) sends nothing.
  public func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome {
    if plan.primary != nil && !primaryNoted {
      primaryNoted = true
      note("primary: not applicable on Wayland (the compositor has no primary output); ignored")
    }
    var outcome = ApplyOutcome()
    guard !plan.changes.isEmpty else { return outcome }
    guard let configuration = OutputConfiguration(plan: plan, in: topology) else {
      outcome.refused = "the plan names an output the compositor does not list"
      return outcome
    }
    var result = try outputs.test(configuration)
    if result == .applied { result = try outputs.apply(configuration) }
    return Self.outcome(result, plan, topology)
  }

  /// The port's answer in the daemon's terms.
  static func outcome(_ result: ApplyResult, _ plan: Plan, _ topology: Topology) -> ApplyOutcome {
    var outcome = ApplyOutcome()
    switch result {
    case .applied:
      outcome.applied = plan.changes.map { ($0, $0.mode) }
    case .stale:
      outcome.stale = true
    case .refused(let refusal):
      outcome.problems = ["the compositor refused the configuration: \(refusal.reason)"]
      outcome.notRestored = refusal.notRestored
      let crtcs = refusal.transformRefused.compactMap { topology.output(named: $0)?.crtc }
      outcome.transformRefused = Set(crtcs)
    }
    return outcome
  }

  /// Wayland has no modes a client makes and must remove.
  public func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String] { [] }
}
