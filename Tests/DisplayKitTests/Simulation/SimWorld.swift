import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport

/// The simulated world the daemon lives in: the one adapter between the simulation and the
/// fakes. The daemon talks to it as to any display server and surface host (it is passed as
/// both); it forwards to `FakeDisplayServer` and `FakeSurfaceHost`, injects the faults the
/// simulation draws (the Nth apply fails, a surface cannot be opened, one is closed from
/// outside), and watches every apply for one that would change nothing. The simulation's
/// steps and invariants see the world only through this type, so a new fake behind other
/// ports changes this file (and SimSurfaces.swift) alone.
final class SimWorld: DisplayServer {
  let fake: FakeDisplayServer
  let host = FakeSurfaceHost()
  /// Connector names, in output order; the first is the built-in panel.
  let connectors: [String]

  init(connectors: [String]) {
    self.connectors = connectors
    fake = FakeDisplayServer(TopologyBuilder.topology(connectors, on: [connectors[0]: TopologyBuilder.m1080]))
  }

  // Faults.

  /// Applies from now until the one to fail (1: the next).
  private var applyFault: Int?
  /// Applies that changed nothing: each a description of the plan.
  private(set) var redundantApplies: [String] = []
  private(set) var applies = 0
  /// Whether the last apply failed (and was rolled back).
  private(set) var lastApplyFailed = false
  /// Applies that failed, from the start.
  private(set) var failedApplies = 0

  func failApply(_ n: Int) { applyFault = n }
  /// The `n`th surface open from now fails (1: the next).
  func failOpen(_ n: Int) { host.failOpen(n) }
  func clearFaults() { (applyFault, host.failingOpen) = (nil, nil) }

  /// Counts down a fault; true when this call is the one to fail.
  private static func strikes(_ fault: inout Int?) -> Bool {
    guard let n = fault else { return false }
    fault = n > 1 ? n - 1 : nil
    return n == 1
  }

  // The world's side: monitors, events, other clients.

  var topology: Topology { fake.topology }

  func output(_ connector: Int) -> Output { fake.topology.outputs[connector] }

  /// Plugs and unplugs since the start, and as of the daemon's last snapshot: the server's
  /// config timestamp, which a plug or unplug moves on X (and the generation on wlroots), so
  /// that an apply planned before it is answered stale and sends nothing.
  private var generation = 0
  private var generationRead = 0

  /// A monitor plugged into (or swapped on) a connector; one RandR event.
  func plug(_ connector: Int, edid: [UInt8]?) {
    generation += 1
    fake.change {
      $0.outputs[connector].connection = .connected
      $0.outputs[connector].edid = edid
    }
  }

  /// The monitor goes: as on real hardware, its CRTC stays set until a client turns it off.
  func unplug(_ connector: Int) {
    generation += 1
    fake.change {
      $0.outputs[connector].connection = .disconnected
      $0.outputs[connector].edid = nil
    }
  }

  /// RandR events waiting for the daemon.
  var pendingRandR: Int {
    get { fake.pendingRandR }
    set { fake.pendingRandR = newValue }
  }
  /// Surface events waiting for the daemon's `takeEvents`.
  var pendingSurfaceEvents: Int { host.pending.count }
  var blanked: Bool {
    get { fake.blanked }
    set { fake.blanked = newValue }
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

  // DisplayServer: forwarded, but for the faults and the watch on applies. Surface events
  // arrive on the server's connection on X: they are queued events too.

  var name: String { fake.name }
  var fileDescriptor: FileDescriptor { fake.fileDescriptor }
  var queuedEvents: Int { fake.queuedEvents + host.pending.count }
  func readAvailable() throws(DisplayError) -> Int { try fake.readAvailable() + host.pending.count }
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
    lastApplyFailed = !outcome.failed.isEmpty
    failedApplies += lastApplyFailed ? 1 : 0
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

  /// The fake's facilities, for the daemon.
  var facilities: DisplayFacilities { fake.facilities }
}
