import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayX11

/// An output manager with no I/O, as a compositor would answer: heads the test sets, a
/// generation that moves on every change (so a configuration planned from an older snapshot
/// is answered `stale`), configurations recorded as they are tested and applied, and an
/// applied one changing the heads (mode, position, transform, scale, enabled), all or
/// nothing, with a change event after it, as a compositor's `done`. Faults on demand: the
/// Nth apply refused or gone stale, a head that cannot scale or turn.
final class FakeOutputManager: OutputManager {
  let backendName = "fake"
  let serverName = "fake-1"
  private(set) var heads: [Head]
  private(set) var generation: UInt64 = 1
  /// Changes not yet drained by the daemon's event loop (each a compositor's `done`).
  var pendingChanges = 0
  /// Every configuration tested, and every one asked to apply (answered or applied).
  private(set) var tested: [OutputConfiguration] = []
  private(set) var applied: [OutputConfiguration] = []
  /// Snapshots read, and those that asked to probe.
  private(set) var snapshots = 0
  private(set) var probes = 0
  /// Faults by the number of the apply they strike (1: the first apply from the start).
  private var faults: [Int: Fault] = [:]

  enum Fault {
    /// The compositor refuses it (as sway's `failed`): nothing changes.
    case refused(String)
    /// Another client changes the desk just before it: it finds the generation moved on.
    case stale
    /// The compositor sets the first `heads` heads asked (fewer when it asks fewer), each
    /// with its `done`, then fails on the next (as wlroots before 0.17, head by head), and
    /// the backend puts them back as they were (as the Wayland backend's rollback does):
    /// refused, the heads as before, the generation moved on.
    case partWay(heads: Int)
  }

  init(_ heads: [Head]) { self.heads = heads }

  // The test's side.

  /// Changes the heads as the compositor would on a plug, an unplug or another client's
  /// request: the generation moves on and a change event waits.
  func change(_ body: (inout [Head]) -> Void) {
    body(&heads)
    changed()
  }

  /// A monitor plugged in: its head listed, connected and off (a compositor that lights new
  /// heads itself is another client's change), a new head object (the next instance) unless
  /// its head is still listed.
  func plug(_ head: Head) {
    var head = head
    // A head still listed (unplugged as RandR says it) is the same object plugged again.
    if let listed = heads.first(where: { $0.name == head.name }) {
      head.instance = listed.instance
    } else {
      plugged += 1
      head.instance = plugged
    }
    change { heads in
      heads.removeAll { $0.name == head.name }
      heads.append(head)
    }
  }

  /// Heads plugged so far: each one's instance.
  private var plugged: UInt64 = 0

  /// Unplugged as RandR says it: listed, disconnected, still lit until a client turns it off.
  func unplug(_ name: String) {
    change { heads in
      for i in heads.indices where heads[i].name == name { heads[i].connected = false }
    }
  }

  /// Unplugged as wlroots says it: the head is gone.
  func remove(_ name: String) { change { $0.removeAll { $0.name == name } } }

  func head(_ name: String) -> Head? { heads.first { $0.name == name } }

  /// The `n`th apply from now (1: the next) is refused with `reason`.
  func refuseApply(_ n: Int, reason: String = "refused by the fake") { faults[applied.count + n] = .refused(reason) }

  /// Just before the `n`th apply from now (1: the next), another client changes the desk.
  func staleApply(_ n: Int) { faults[applied.count + n] = .stale }

  /// The `n`th apply from now (1: the next) fails after the first `heads` heads were set.
  func failApplyPartWay(_ n: Int, after heads: Int) { faults[applied.count + n] = .partWay(heads: heads) }

  /// No apply fails any more.
  func clearFaults() { faults = [:] }

  private func changed() {
    generation += 1
    pendingChanges += 1
  }

  // OutputManager.

  func heads(probe: Bool) throws(DisplayError) -> HeadSnapshot {
    snapshots += 1
    if probe { probes += 1 }
    return HeadSnapshot(heads: heads, generation: generation)
  }

  func test(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    tested.append(configuration)
    return Self.result(of: Self.configure(heads, configuration, generation: generation))
  }

  func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    applied.append(configuration)
    switch faults.removeValue(forKey: applied.count) {
    case .refused(let reason): return .refused(ApplyRefusal(reason: reason))
    case .stale: changed()
    case .partWay(let count): return failPartWay(configuration, after: count)
    case nil: break
    }
    let outcome = Self.configure(heads, configuration, generation: generation)
    if case .success(let next) = outcome {
      heads = next
      changed()
    }
    return Self.result(of: outcome)
  }

  /// `configuration`'s first `count` heads set one by one, then put back: refused.
  private func failPartWay(_ configuration: OutputConfiguration, after count: Int) -> ApplyResult {
    guard configuration.generation == generation else { return .stale }
    let before = heads
    for wanted in configuration.heads.prefix(count) {
      guard let i = heads.firstIndex(where: { $0.name == wanted.name }),
        case .success(let head) = Self.configure(heads[i], wanted), head != heads[i]
      else { continue }
      heads[i] = head
      changed()
    }
    if heads != before {
      heads = before
      changed()
    }
    let failing = configuration.heads.dropFirst(count).first?.name ?? "the desk"
    return .refused(ApplyRefusal(reason: "\(failing) could not be set (fake); put back as it was"))
  }

  private static func result(of outcome: Result<[Head], Refusal>) -> ApplyResult {
    switch outcome {
    case .success: return .applied
    case .failure(.stale): return .stale
    case .failure(.refused(let refusal)): return .refused(refusal)
    }
  }
}

extension FakeOutputManager {
  /// Why a configuration is not put in force.
  enum Refusal: Error {
    case stale
    case refused(ApplyRefusal)
  }

  /// The heads after `configuration`, as a compositor sets them: the heads it names as it
  /// asks, the others as they are; all or nothing. Pure.
  static func configure(
    _ heads: [Head], _ configuration: OutputConfiguration, generation: UInt64
  ) -> Result<[Head], Refusal> {
    guard configuration.generation == generation else { return .failure(.stale) }
    var next = heads
    for wanted in configuration.heads {
      guard let i = next.firstIndex(where: { $0.name == wanted.name }) else {
        return .failure(.refused(ApplyRefusal(reason: "no head named '\(wanted.name)'")))
      }
      switch configure(next[i], wanted) {
      case .success(let head): next[i] = head
      case .failure(let refusal): return .failure(.refused(refusal))
      }
    }
    return .success(next)
  }

  /// One head as `wanted` asks, refused where its capabilities say no: a scale where it
  /// cannot scale is a refused transform (the daemon then plans it unscaled).
  static func configure(_ head: Head, _ wanted: HeadConfiguration) -> Result<Head, ApplyRefusal> {
    var head = head
    guard wanted.enabled else {
      (head.enabled, head.currentMode) = (false, nil)
      return .success(head)
    }
    guard head.capabilities.transforms.contains(wanted.transform) else {
      return .failure(ApplyRefusal(reason: "\(head.name) cannot show the transform \(wanted.transform)"))
    }
    guard wanted.scale == 1 || head.capabilities.scaling else {
      return .failure(ApplyRefusal(problems: [.failed("\(head.name) cannot scale"), .crtcRefusedTransform(head.name)]))
    }
    guard wanted.scale.isFinite, wanted.scale > 0 else {
      return .failure(ApplyRefusal(reason: "\(head.name): scale \(wanted.scale)"))
    }
    switch mode(wanted.mode, on: &head) {
    case .success(let index): head.currentMode = index
    case .failure(let refusal): return .failure(refusal)
    }
    (head.enabled, head.x, head.y) = (true, wanted.x, wanted.y)
    (head.transform, head.scale) = (wanted.transform, wanted.scale)
    return .success(head)
  }

  /// The index of the mode asked: none asked, the current one (else the preferred, else the
  /// first); a listed one by size and refresh (0: the preferred of that size, else the
  /// nearest within 1 Hz); a custom one made where the head can make modes.
  static func mode(_ request: HeadModeRequest?, on head: inout Head) -> Result<Int, ApplyRefusal> {
    switch request {
    case nil:
      guard let index = head.currentMode ?? head.modes.firstIndex(where: \.preferred) ?? head.modes.indices.first
      else { return .failure(ApplyRefusal(reason: "\(head.name) has no mode to show")) }
      return .success(index)
    case .listed(let width, let height, let refresh):
      let modes = head.modes
      let sized = modes.indices.filter { modes[$0].width == width && modes[$0].height == height }
      let near = sized.filter { abs(modes[$0].refreshMilliHz - refresh) <= 1000 }
      let pick =
        refresh == 0
        ? sized.first { modes[$0].preferred } ?? sized.first
        : near.min { abs(modes[$0].refreshMilliHz - refresh) < abs(modes[$1].refreshMilliHz - refresh) }
      guard let pick else {
        return .failure(ApplyRefusal(reason: "\(head.name) lists no mode \(width)x\(height)@\(refresh) mHz"))
      }
      return .success(pick)
    case .custom(let line):
      guard head.capabilities.customModes else {
        return .failure(ApplyRefusal(reason: "\(head.name) cannot make a mode"))
      }
      let hertz = line.mode(id: ModeID(rawValue: 0), name: "").refreshHz * 1000
      let made = HeadMode(
        width: line.hDisplay, height: line.vDisplay, refreshMilliHz: hertz.isFinite ? Int(hertz.rounded()) : 0,
        custom: true)
      if let index = head.modes.firstIndex(of: made) { return .success(index) }
      head.modes.append(made)
      return .success(head.modes.count - 1)
    }
  }

  /// A head as a wlroots compositor lists it: 1920x1080 (preferred), 1280x1024 and 1024x768
  /// at 60 Hz, any transform, scale and mode; off, unless `at` lights it in its first mode.
  static func head(
    _ name: String, edid: [UInt8]? = nil, at place: (x: Int, y: Int)? = nil, panel: Bool = false
  ) -> Head {
    let modes = [
      HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true),
      HeadMode(width: 1280, height: 1024, refreshMilliHz: 60000),
      HeadMode(width: 1024, height: 768, refreshMilliHz: 60000),
    ]
    return Head(
      name: name, edid: edid, mmWidth: 510, mmHeight: 290, enabled: place != nil, modes: modes,
      currentMode: place == nil ? nil : 0, x: place?.x ?? 0, y: place?.y ?? 0, scaledArea: .logical,
      isInternalPanel: panel,
      capabilities: HeadCapabilities(
        transforms: Set(Transform.allCases), scaling: true, customModes: true, anySize: true))
  }
}

/// The daemon's display server over the fake output manager: the layout through
/// `OutputManagerLayout`, as on Wayland, and an event loop with no I/O whose events are the
/// fake's changes.
final class PortDisplayServer: TestDisplayServer {
  let manager: FakeOutputManager
  let layout: OutputManagerLayout

  init(_ manager: FakeOutputManager, desk: OutputManagerLayout.Desk = PortDisplayServer.desk) {
    self.manager = manager
    layout = OutputManagerLayout(ObservedOutputManager(manager), desk: desk)
  }

  /// A compositor's desk, with its words.
  static let desk = OutputManagerLayout.Desk(server: "the compositor", maxWidth: 32767, maxHeight: 32767)

  var name: String { manager.serverName }
  let fileDescriptor = FileDescriptor(rawValue: -1)
  var queuedEvents: Int { manager.pendingChanges }
  func readAvailable() throws(DisplayError) -> Int { queuedEvents }
  func flush() {}
  func sync() throws(DisplayError) {}
  func selectChangeEvents() throws(DisplayError) {}

  func takeChanges(onInputDevice: () -> Void) throws(DisplayError) -> Int {
    defer { manager.pendingChanges = 0 }
    return manager.pendingChanges
  }
}
