import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayX11

/// The simulated world's server on Wayland: `FakeOutputManager` through `PortDisplayServer`
/// (`OutputManagerLayout`, as the daemon runs over a compositor). Heads are named like the
/// connectors, the first the built-in panel; a monitor is a head listed with the make, model
/// and serial a compositor reads from its EDID (and no EDID, as wlroots gives none), and its
/// head goes when it is unplugged. The Nth apply fails as a compositor's does, refused with
/// nothing changed, or failed part way and put back; which, is drawn from the desk's own
/// generator, so that the life's steps are drawn as over RandR.
final class SimPortDesk: SimDesk {
  let manager: FakeOutputManager
  let server: PortDisplayServer
  let connectors: [String]
  private var random: SimRandom
  private(set) var applies = 0
  private(set) var redundantApplies: [String] = []
  /// The heads and the count of applies when the layout last asked about a configuration.
  private var headsBefore: [Head] = []
  private var appliedBefore = 0

  /// A desk of `connectors`, the panel lit, `plugged` listing monitors (`SimScenario.monitors`
  /// by connector) dark, no event waiting.
  init(connectors: [String], plugged: [Int: Int] = [:], seed: UInt64 = 0) {
    self.connectors = connectors
    let panel = FakeOutputManager.head(connectors[0], at: (0, 0), panel: true)
    manager = FakeOutputManager(
      [panel] + plugged.sorted { $0.key < $1.key }.map { Self.head(connectors[$0.key], monitor: $0.value) })
    server = PortDisplayServer(manager)
    random = SimRandom(seed: seed ^ 0x504F_5254)
    server.layout.observed?.asked.append { [unowned self] _ in
      (self.headsBefore, self.appliedBefore) = (self.manager.heads, self.manager.applied.count)
    }
    server.layout.observed?.answered.append { [unowned self] configuration, result in
      guard self.manager.applied.count > self.appliedBefore else { return }
      self.applies += 1
      if result == .applied, self.manager.heads == self.headsBefore {
        self.redundantApplies.append(Self.describe(configuration))
      }
    }
  }

  /// The head of `SimScenario.monitors[monitor]` on `name`, as a compositor lists it.
  static func head(_ name: String, monitor: Int) -> Head {
    var head = FakeOutputManager.head(name)
    if SimScenario.monitors[monitor] != nil {
      (head.make, head.model, head.serial) = ("Acer Technologies", SimScenario.monitorNames[monitor], "\(monitor + 1)")
    }
    return head
  }

  // The world's side.

  var topology: Topology {
    var t = Topology(heads: HeadSnapshot(heads: manager.heads, generation: manager.generation))
    (t.screen.maxWidth, t.screen.maxHeight) = (PortDisplayServer.desk.maxWidth, PortDisplayServer.desk.maxHeight)
    return t
  }
  /// A compositor has no DPMS facility the daemon reads, nor resources or properties.
  let facilities = DisplayFacilities()
  var blanked = false
  let withdrawsSurfaces = true
  var pendingChanges: Int {
    get { manager.pendingChanges }
    set { manager.pendingChanges = newValue }
  }

  /// A monitor on a connector that holds none comes as a new head, off. Another on one that
  /// holds a monitor takes its head's place as it is, lit where the old one was (as a
  /// compositor keeps an output's state by its name): what differs is what the monitor says
  /// of itself.
  func plug(_ connector: Int, monitor: Int) {
    let head = Self.head(connectors[connector], monitor: monitor)
    guard manager.head(head.name) != nil else { return manager.plug(head) }
    manager.change { heads in
      for i in heads.indices where heads[i].name == head.name {
        (heads[i].make, heads[i].model, heads[i].serial) = (head.make, head.model, head.serial)
      }
    }
  }
  func unplug(_ connector: Int) { manager.remove(connectors[connector]) }
  func serverUnplug(_ connector: Int) { unplug(connector) }

  /// A compositor lights a new output itself, as wlroots compositors do, where it likes.
  func serverPlug(_ connector: Int, monitor: Int, mode: Int, right: Bool) {
    plug(connector, monitor: monitor)
    let name = connectors[connector]
    let x = right ? manager.heads.compactMap { $0.rect.map { $0.x + $0.width } }.max() ?? 0 : 0
    manager.change { heads in
      for i in heads.indices where heads[i].name == name && !heads[i].modes.isEmpty {
        (heads[i].enabled, heads[i].currentMode) = (true, mode % heads[i].modes.count)
        (heads[i].x, heads[i].y) = (x, 0)
      }
    }
    manager.pendingChanges -= 1
  }

  /// A monitor back is a new head on a compositor: nothing to tell.
  var reconnected: Set<String> { [] }

  func failApply(_ n: Int) {
    if random.chance(50) {
      manager.refuseApply(n, reason: "the fake compositor failed the configuration")
    } else {
      manager.failApplyPartWay(n, after: random.below(3))
    }
  }
  func clearFaults() { manager.clearFaults() }

  // The server: forwarded.

  var name: String { server.name }
  var layout: OutputManagerLayout { server.layout }
  var fileDescriptor: FileDescriptor { server.fileDescriptor }
  var queuedEvents: Int { server.queuedEvents }
  func readAvailable() throws(DisplayError) -> Int { try server.readAvailable() }
  func flush() { server.flush() }
  func sync() throws(DisplayError) { try server.sync() }
  func selectChangeEvents() throws(DisplayError) { try server.selectChangeEvents() }
  func takeChanges(onInputDevice: () -> Void) throws(DisplayError) -> Int {
    try server.takeChanges(onInputDevice: onInputDevice)
  }
  func topology(holding held: HeldHeads) -> Topology { server.topology(holding: held) }

  static func describe(_ configuration: OutputConfiguration) -> String {
    configuration.heads.map { head in
      guard head.enabled else { return "\(head.name) off" }
      let mode = head.mode.map { "\($0)" } ?? "its mode"
      return "\(head.name) \(mode) at \(head.x),\(head.y)"
    }.joined(separator: ", ")
  }
}
