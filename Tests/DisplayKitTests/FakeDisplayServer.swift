import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport

@testable import DisplayX11

/// A display server with no I/O, in the spirit of wlroots' headless backend: a topology the
/// test changes and faults on demand. Events are queued by the test and drained by the
/// daemon. (The surfaces are `FakeSurfaceHost`'s.) It has the desk facilities an X server has
/// but pointer devices (a server without XInput 2): DPMS, resources and output properties.
final class FakeDisplayServer: TestDisplayServer, ScreenPower, DesktopResources, OutputPropertyStore {
  let name = ":fake"
  var topology: Topology
  /// The RandR backend over this fake: what the daemon's configurations go through.
  private(set) lazy var outputManager = RandROutputManager(server: self)
  /// The daemon's layout: the RandR backend over this fake, each configuration recorded.
  private(set) lazy var layout: OutputManagerLayout = {
    let observed = ObservedOutputManager(outputManager)
    observed.asked.append { [unowned self] in self.configurations.append($0) }
    return OutputManagerLayout(observed, desk: OutputManagerLayout.randrDesk)
  }()
  /// RandR events waiting to be drained (each "may change the topology").
  var pendingRandR = 0
  /// Input devices added, waiting to be drained.
  var pendingDevices = 0
  /// Snapshots fail as on a connection that broke.
  var lost = false
  /// What snapshots that do not probe see, while set: the server's state before a client
  /// asks it to re-probe its connectors (as the dummy driver's connection changes). A
  /// probing snapshot sees `topology` and clears this.
  var unprobed: Topology?
  /// Snapshots that asked the server to re-probe its connectors.
  private(set) var probes = 0
  /// DPMS has blanked the screen.
  var blanked = false
  /// Applies of a change to these outputs fail with every mode, as a server refusing them.
  var refusing: Set<OutputID> = []
  /// Requests that alter the server's state (CRTC sets inside `apply`), counted from the
  /// start. (Screen sizes are not: the real applier does
  /// not check them either.)
  private(set) var requests = 0
  /// The request with this count fails as a real server's BadValue or BadAlloc would.
  var failingRequest: Int?
  /// The topology before and after each apply that failed half way: the same, when the fake
  /// rolls back as the real applier does.
  private(set) var rolledBack: [(before: Topology, after: Topology)] = []
  private(set) var applies = 0
  private(set) var changesApplied = 0
  /// Answers given instead of applying, first to last: what a server does not do on demand
  /// (a snapshot gone stale, a CRTC refusing a transform or a rotation). Nothing changes.
  var answers: [ApplyOutcome] = []
  /// Every configuration the daemon asked to apply through the port (its RandR backend
  /// turns each into a plan, in `plans` too).
  private(set) var configurations: [OutputConfiguration] = []
  /// Every plan the daemon asked to apply, answered or applied.
  private(set) var plans: [Plan] = []
  /// Each output's RandR properties, and the writes of them.
  var properties: [OutputID: [String: OutputProperty]] = [:]
  private(set) var propertyWrites = 0

  init(_ topology: Topology) { self.topology = topology }

  // The test's side.

  /// Makes the `n`th state-altering request from now fail (1: the next one).
  func failRequest(_ n: Int) { failingRequest = requests + n }

  /// Counts one state-altering request; false when it is the one to fail.
  private func request() -> Bool {
    requests += 1
    return requests != failingRequest
  }

  private func failure(_ what: String) -> DisplayError {
    .request(RequestFailure("BadValue (fake: request \(requests), \(what)) (error 2, request 140.0, resource 0x0)"))
  }

  /// The topology changed (a monitor plugged, an EDID set): one RandR event.
  func change(_ body: (inout Topology) -> Void) {
    body(&topology)
    pendingRandR += 1
  }

  /// Its facilities, for the daemon.
  var facilities: DisplayFacilities { DisplayFacilities(resources: self, properties: self, power: self) }

  // ChangeSource.

  let fileDescriptor = FileDescriptor(rawValue: -1)
  var queuedEvents: Int { pendingRandR + pendingDevices }
  func readAvailable() throws(DisplayError) -> Int { queuedEvents }
  func flush() {}
  func sync() throws(DisplayError) {}
  func selectChangeEvents() throws(DisplayError) {}

  func takeChanges(onInputDevice: () -> Void) throws(DisplayError) -> Int {
    for _ in 0..<pendingDevices { onInputDevice() }
    defer { (pendingRandR, pendingDevices) = (0, 0) }
    return pendingRandR
  }

  // The RandR server.

  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology {
    if lost { throw .connectionLost(display: name) }
    guard options.probe else { return unprobed ?? topology }
    probes += 1
    unprobed = nil
    return topology
  }

  /// The heads the RandR backend makes of `topology`.
  func heads(of topology: Topology) -> HeadSnapshot { outputManager.snapshot(topology) }

  /// One consistent snapshot, without probing connectors, as the daemon's reads see it.
  func snapshot() throws(DisplayError) -> Topology { try snapshot(ReadOptions()) }

  /// The last read the daemon's layout made.
  var lastRead: Topology { outputManager.reads.last }

  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String] {
    for release in releases {
      topology.modes[release.mode] = nil
      for i in topology.outputs.indices { topology.outputs[i].modes.removeAll { $0 == release.mode } }
    }
    return []
  }

  func apply(_ plan: Plan, in planned: Topology) throws(DisplayError) -> ApplyOutcome {
    applies += 1
    plans.append(plan)
    if !answers.isEmpty { return answers.removeFirst() }
    var outcome = ApplyOutcome()
    var next = topology
    // Custom modes are made under their virtual ids: the fake has no others to give.
    for (id, mode) in plan.customModes {
      next.modes[id] = mode
      for i in next.outputs.indices where id.rawValue == CustomModes.virtualBase + next.outputs[i].id.rawValue {
        next.outputs[i].modes.append(id)
      }
    }
    for change in plan.changes {
      if change.outputs.contains(where: refusing.contains) {
        outcome.failed.append((change, "refused by the fake"))
        return outcome  // all or nothing: `next` is dropped
      }
      guard request() else {
        // Half way: what was set before is rolled back, as the real applier does.
        outcome.failed.append((change, "request \(requests) failed (fake)"))
        rolledBack.append((topology, topology))
        return outcome
      }
      guard let index = next.crtcs.firstIndex(where: { $0.id == change.crtc }) else { continue }
      let mode = change.mode.flatMap { next.modes[$0] }
      next.crtcs[index] = Crtc(
        id: change.crtc, x: change.x, y: change.y, width: mode?.width ?? 0, height: mode?.height ?? 0,
        mode: mode?.id, rotation: change.rotation, outputs: mode == nil ? [] : change.outputs,
        possibleOutputs: next.crtcs[index].possibleOutputs, rotations: next.crtcs[index].rotations)
      for i in next.outputs.indices where change.outputs.contains(next.outputs[i].id) {
        next.outputs[i].crtc = mode == nil ? nil : change.crtc
      }
      outcome.applied.append((change, mode?.id))
    }
    if let size = plan.screen {
      next.screen.width = size.width
      next.screen.height = size.height
      outcome.screen = size
    }
    changesApplied += outcome.applied.count
    topology = next
    return outcome
  }

  // The facilities.

  func screenBlanked() -> Bool { blanked }

  /// The root window's RESOURCE_MANAGER ([]: unset), and the XSETTINGS selection's owner.
  var resources: [UInt8] = []
  private(set) var resourceWrites = 0
  var xsettings: XSettingsOwner?

  func editResources(_ edit: ([UInt8]) -> [UInt8]?) throws(DisplayError) -> Bool {
    if let new = edit(resources), new != resources {
      resources = new
      resourceWrites += 1
    }
    return true
  }

  func xsettingsOwner() -> XSettingsOwner? { xsettings }

  // Output properties: what the test gives each output (by its id, the head named as it is);
  // writes change them and are counted.
  func outputProperties(head: String, names: Set<String>?) -> [String: OutputProperty] {
    guard let output = topology.output(named: head)?.id else { return [:] }
    return (properties[output] ?? [:]).filter { names?.contains($0.key) ?? true }
  }
  func setOutputProperty(head: String, _ write: PropertyWrite) throws(DisplayError) {
    propertyWrites += 1
    guard let output = topology.output(named: head)?.id else { return }
    properties[output]?[write.name]?.value = [write.value]
  }
}

extension Daemon {
  /// A daemon on the fake with the fake's facilities, as on an X server.
  convenience init(
    server: FakeDisplayServer, surfaces: (any SurfaceHost)?, painter: (any PicturePainter)? = nil, config: Config,
    log: Logger, clock: any MonotonicClock = SystemClock()
  ) throws(DisplayError) {
    try self.init(
      server: server as any TestDisplayServer, surfaces: surfaces, painter: painter, facilities: server.facilities,
      config: config, log: log, clock: clock)
  }
}

/// A clock that moves only when the test says.
final class ManualClock: MonotonicClock {
  private(set) var nanoseconds: UInt64 = 1_000_000_000
  func advance(_ by: UInt64) { nanoseconds += by }
}

extension FakeDisplayServer: RandRServer {
  var randrVersion: (major: Int, minor: Int) { (1, 6) }
  func readTopology(_ options: ReadOptions) throws(DisplayError) -> Topology { try snapshot(options) }
  func takeReconnectsSeen() -> Set<OutputID> { [] }
}
