import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport

@testable import DisplayX11

/// The simulated world's server on X: `FakeDisplayServer`, its config timestamp moving on a
/// plug or an unplug (so that a plan made before one is answered stale and sends nothing),
/// the Nth apply failing half way (rolled back) and a watch on applies that change nothing.
final class SimRandRDesk: SimDesk {
  let fake: FakeDisplayServer
  let connectors: [String]
  /// The RandR backend over this desk: configurations are planned into CRTC plans that
  /// `apply` answers (stale, faults and all) as it answers the daemon's plans.
  private(set) lazy var outputManager = RandROutputManager(server: self)
  /// The daemon's layout over it, as on X.
  private(set) lazy var layout = OutputManagerLayout(
    ObservedOutputManager(outputManager), desk: OutputManagerLayout.randrDesk)

  /// A desk of `connectors`, the first (the panel) lit, `plugged` holding monitors
  /// (`SimScenario.monitors` by connector) left dark, no event waiting.
  init(connectors: [String], plugged: [Int: Int] = [:]) {
    self.connectors = connectors
    fake = FakeDisplayServer(TopologyBuilder.topology(connectors, on: [connectors[0]: TopologyBuilder.m1080]))
    for (connector, monitor) in plugged {
      fake.topology.outputs[connector].connection = .connected
      fake.topology.outputs[connector].edid = SimScenario.monitors[monitor]
    }
  }

  /// Applies from now until the one to fail (1: the next).
  private var applyFault: Int?
  private(set) var redundantApplies: [String] = []
  private(set) var applies = 0

  func failApply(_ n: Int) { applyFault = n }
  func clearFaults() { applyFault = nil }

  /// Counts down a fault; true when this call is the one to fail.
  private static func strikes(_ fault: inout Int?) -> Bool {
    guard let n = fault else { return false }
    fault = n > 1 ? n - 1 : nil
    return n == 1
  }

  // The world's side.

  var topology: Topology { fake.topology }
  var facilities: DisplayFacilities { fake.facilities }
  let withdrawsSurfaces = false
  var pendingChanges: Int {
    get { fake.pendingRandR }
    set { fake.pendingRandR = newValue }
  }
  var blanked: Bool {
    get { fake.blanked }
    set { fake.blanked = newValue }
  }

  /// Plugs and unplugs since the start, and as of the daemon's last snapshot: the server's
  /// config timestamp, which a plug or unplug moves.
  private var generation = 0
  private var generationRead = 0

  func plug(_ connector: Int, monitor: Int) {
    generation += 1
    fake.change {
      $0.outputs[connector].connection = .connected
      $0.outputs[connector].edid = SimScenario.monitors[monitor]
    }
  }

  /// As on real hardware, its CRTC stays set until a client turns it off.
  func unplug(_ connector: Int) {
    generation += 1
    fake.change {
      $0.outputs[connector].connection = .disconnected
      $0.outputs[connector].edid = nil
    }
  }

  /// Outputs the server unplugged, until they are plugged back.
  private var unpluggedByServer: Set<OutputID> = []
  /// Outputs unplugged and plugged back since the daemon's last read, as RandR's output-change
  /// events (and their times) say.
  private var reconnectsSeen: Set<OutputID> = []

  func serverUnplug(_ connector: Int) {
    unplug(connector)
    let output = fake.topology.outputs[connector].id
    unpluggedByServer.insert(output)
    fake.change { t in
      for i in t.crtcs.indices where t.crtcs[i].outputs.contains(output) {
        t.crtcs[i] = Crtc(id: t.crtcs[i].id, possibleOutputs: t.crtcs[i].possibleOutputs)
      }
      t.outputs[connector].crtc = nil
    }
    fake.pendingRandR -= 1
  }

  func serverPlug(_ connector: Int, monitor: Int, mode: Int, right: Bool) {
    plug(connector, monitor: monitor)
    if let back = unpluggedByServer.remove(fake.topology.outputs[connector].id) { reconnectsSeen.insert(back) }
    fake.change { t in
      let output = t.outputs[connector]
      guard let crtc = output.possibleCrtcs.first(where: { id in t.crtcs.contains { $0.id == id && $0.mode == nil } }),
        let index = t.crtcs.firstIndex(where: { $0.id == crtc }),
        let mode = t.modes[output.modes[mode % output.modes.count]]
      else { return }
      let x = right ? t.crtcs.filter { $0.mode != nil }.map { $0.x + $0.width }.max() ?? 0 : 0
      t.crtcs[index] = Crtc(
        id: crtc, x: x, y: 0, width: mode.width, height: mode.height, mode: mode.id, outputs: [output.id],
        possibleOutputs: t.crtcs[index].possibleOutputs)
      t.outputs[connector].crtc = crtc
      t.screen.width = max(t.screen.width, x + mode.width)
      t.screen.height = max(t.screen.height, mode.height)
    }
    fake.pendingRandR -= 1
  }

  func takeReconnectsSeen() -> Set<OutputID> {
    defer { reconnectsSeen = [] }
    return reconnectsSeen
  }

  /// The outputs the last read shows back since the read before, by name.
  var reconnected: Set<String> { layout.reconnected }

  func topology(holding held: HeldHeads) -> Topology { outputManager.reads.masked(holding: held) }

  // The server: forwarded, but for the faults and the watch on applies.

  var name: String { fake.name }
  var fileDescriptor: FileDescriptor { fake.fileDescriptor }
  var queuedEvents: Int { fake.queuedEvents }
  func readAvailable() throws(DisplayError) -> Int { try fake.readAvailable() }
  func flush() { fake.flush() }
  func sync() throws(DisplayError) { try fake.sync() }
  func selectChangeEvents() throws(DisplayError) { try fake.selectChangeEvents() }
  func takeChanges(onInputDevice: () -> Void) throws(DisplayError) -> Int {
    try fake.takeChanges(onInputDevice: onInputDevice)
  }
  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology {
    generationRead = generation
    return try fake.snapshot(options)
  }
  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String] { try fake.releaseModes(releases) }

  func apply(_ plan: Plan, in planned: Topology) throws(DisplayError) -> ApplyOutcome {
    guard generationRead == generation else {
      var stale = ApplyOutcome()
      stale.stale = true
      return stale
    }
    applies += 1
    if Self.changesNothing(plan, fake.topology) { redundantApplies.append(Self.describe(plan)) }
    if Self.strikes(&applyFault) { fake.failRequest(1) }
    let outcome = try fake.apply(plan, in: planned)
    fake.failingRequest = nil
    // The fake leaves the primary; a server sets it with the rest.
    if outcome.failed.isEmpty, let primary = plan.primary { fake.topology.primary = primary }
    return outcome
  }

  /// Whether every part of `plan` is as the server has it already.
  static func changesNothing(_ plan: Plan, _ t: Topology) -> Bool {
    guard plan.customModes.isEmpty, plan.screenMillimetres == nil else { return false }
    if let size = plan.screen, size.width != t.screen.width || size.height != t.screen.height { return false }
    if let primary = plan.primary, primary != t.primary { return false }
    return plan.changes.allSatisfy { change in
      guard let crtc = t.crtcs.first(where: { $0.id == change.crtc }) else { return false }
      guard change.mode != nil else { return crtc.mode == nil }
      return crtc.mode == change.mode && crtc.x == change.x && crtc.y == change.y
        && crtc.rotation == change.rotation && Set(crtc.outputs) == Set(change.outputs) && change.transform.isIdentity
    }
  }

  static func describe(_ plan: Plan) -> String {
    let changes = plan.changes.map { c in
      "\(c.outputName) " + (c.mode.map { "mode \($0.rawValue) at \(c.x),\(c.y)" } ?? "off")
    }
    let screen = plan.screen.map { ["screen \($0.width)x\($0.height)"] } ?? []
    let primary = plan.primary.map { ["primary \($0.rawValue)"] } ?? []
    return (changes + screen + primary).joined(separator: ", ")
  }
}

extension SimRandRDesk: RandRServer {
  var randrVersion: (major: Int, minor: Int) { (1, 6) }
  func readTopology(_ options: ReadOptions) throws(DisplayError) -> Topology { try snapshot(options) }
}
