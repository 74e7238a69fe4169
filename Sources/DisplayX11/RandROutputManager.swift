import DisplayModel
import DisplayPorts

/// The output-management port over RandR: heads from one consistent snapshot, and
/// configurations turned into a `Plan` (CRTCs allocated, modes matched or made, transforms as
/// rotation bits and 16.16 matrices, the screen sized within the server's limits) and applied
/// all or nothing under a server grab, with rollback and read-back (`XConnection.apply`).
///
/// RandR has no request that tests a configuration: `test` makes every check that can be made
/// without sending (heads exist, modes exist or can be made, transforms within the CRTC's
/// abilities and what the server refused before, the screen within its limits, the desk not
/// dark) and asks the server nothing; a configuration it accepts can still be refused by
/// `apply`, which then puts everything back.
public final class RandROutputManager: OutputManager {
  /// The server: an `XConnection`, or a test's double.
  let server: any RandRServer
  /// CRTCs whose transform the server refused (RRSetCrtcTransform BadValue): learned by
  /// `apply`, so `heads` stops offering scaling on them and `test` refuses a scale there.
  public private(set) var transformRefusing: Set<CrtcID> = []
  /// The modes of the last snapshot, and each output's head modes made from them: reads
  /// make the same modes again and again, so a snapshot with the same modes reuses the head
  /// modes of an output that lists the same ones.
  private var madeFrom: [ModeID: Mode] = [:]
  private var made: [OutputID: MadeModes] = [:]
  /// The last read, and each output as it was last read connected: the monitor a held head
  /// stands for (RandR lists a disconnected output with no EDID and no modes).
  public private(set) var reads = TopologyReads()

  public convenience init(_ connection: XConnection) { self.init(server: connection) }

  init(server: any RandRServer) { self.server = server }

  public var backendName: String { "x11" }
  public var serverName: String { server.name }

  /// Every output as a head, from one consistent snapshot, kept as the last read with the
  /// outputs the server's events said went and came back since the read before.
  public func heads(probe: Bool) throws(DisplayError) -> HeadSnapshot {
    try heads(ReadOptions(probe: probe, properties: true))
  }

  /// `heads(probe:)`, the EDID and non-desktop properties read only where `options` asks.
  public func heads(_ options: ReadOptions) throws(DisplayError) -> HeadSnapshot {
    // Taken before the read: an event that arrives during it is the next read's.
    let seen = server.takeReconnectsSeen()
    let topology = try server.readTopology(options)
    reads.remember(topology, reconnected: seen)
    return snapshot(topology)
  }

  /// The last read with every held output still connected, as it was last read connected
  /// (its EDID and modes), on the CRTC the server has it on now.
  public func heads(holding held: HeldHeads, lastRead: HeadSnapshot) -> HeadSnapshot {
    snapshot(reads.masked(holding: held))
  }

  /// The outputs of the last read on a lit CRTC whose every output is disconnected.
  public func litButDisconnected(lastRead: HeadSnapshot) -> Set<String> {
    let last = reads.last
    return Set(last.litButDisconnected.compactMap { last.output($0)?.name })
  }

  public var reconnected: Set<String> { reads.reconnected }

  /// The modes displayd made that no CRTC of the last read shows (`CustomModes.unused`).
  public func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String]) {
    let unused = CustomModes.unused(in: reads.last)
    guard !unused.isEmpty else { return ([], []) }
    return (unused.map(\.name), try server.releaseModes(unused))
  }

  /// The snapshot `topology` is: each lit head at its CRTC's place, rotation bits and the
  /// scale of the CRTC transform the snapshot read; the screen the topology has.
  public func snapshot(_ topology: Topology) -> HeadSnapshot {
    if topology.modes != madeFrom {
      madeFrom = topology.modes
      made.removeAll(keepingCapacity: true)
    }
    let heads = topology.outputs.map { head($0, topology) }
    let primary = topology.primary.flatMap { topology.output($0)?.name }
    return HeadSnapshot(heads: heads, primary: primary, generation: Self.generation(topology), screen: topology.screen)
  }

  /// The snapshot's generation (`Topology.generation`, which the Plan bridge quotes too).
  public static func generation(_ topology: Topology) -> UInt64 { topology.generation }

  private func head(_ output: Output, _ topology: Topology) -> Head {
    let edid = output.identity
    let crtc = topology.activeCrtc(of: output)
    let (modes, shown) = headModes(output, topology, showing: crtc?.mode)
    var head = Head(
      name: output.name, edid: output.edid, mmWidth: output.mmWidth, mmHeight: output.mmHeight,
      connected: output.isConnected, enabled: crtc != nil, modes: modes, scaledArea: .fixedPoint,
      isInternalPanel: output.isInternalPanel, nonDesktop: output.nonDesktop,
      capabilities: capabilities(output, topology))
    head.serverID = UInt64(exactly: output.id.rawValue)
    head.connectionUnknown = output.connection == .unknown
    if let edid {
      head.make = edid.manufacturer
      head.model = edid.productName?.text ?? String(edid.productCode)
      head.serial = edid.serial ?? ""
      head.description = [head.make, head.model, head.serial].filter { !$0.isEmpty }.joined(separator: " ")
    }
    guard let crtc else { return head }
    head.currentMode = shown
    (head.x, head.y) = (crtc.x, crtc.y)
    head.transform = RandRHeadValues.transform(crtc.rotation)
    head.spelling = crtc.rotation.spelling
    head.scale = RandRHeadValues.scale(crtc.transform)
    return head
  }

  /// The output's modes the topology lists, in the output's order (the first
  /// `preferredCount` of them preferred), as the head lists them; and the index of the first
  /// that is `shown`. Made once for the modes and list of the last snapshots.
  private func headModes(_ output: Output, _ topology: Topology, showing shown: ModeID?) -> ([HeadMode], Int?) {
    let modes = madeModes(output, topology)
    return (modes.heads, shown.flatMap { modes.ids.firstIndex(of: $0) })
  }

  /// The output's head modes: the ones made before while `snapshot` found the topology's
  /// modes unchanged and the output lists the same.
  private func madeModes(_ output: Output, _ topology: Topology) -> MadeModes {
    if let modes = made[output.id], modes.listed == output.modes, modes.preferredCount == output.preferredCount {
      return modes
    }
    var modes = MadeModes(listed: output.modes, preferredCount: output.preferredCount)
    modes.ids.reserveCapacity(output.modes.count)
    modes.heads.reserveCapacity(output.modes.count)
    for id in output.modes {
      guard let mode = topology.modes[id] else { continue }
      modes.ids.append(id)
      modes.heads.append(RandRHeadValues.headMode(mode, preferred: modes.heads.count < output.preferredCount))
    }
    // Outputs are the server's, but a hostile one could make many: keep about a server's worth.
    if made.count >= 256 { made.removeAll(keepingCapacity: true) }
    made[output.id] = modes
    return modes
  }

  /// An output's head modes: `heads` made from the modes it lists (`listed`, the first
  /// `preferredCount` preferred) that the topology has, whose ids are `ids`.
  private struct MadeModes {
    var listed: [ModeID]
    var preferredCount: Int
    var ids: [ModeID] = []
    var heads: [HeadMode] = []
  }

  /// What the head's CRTC can do, or any of its possible CRTCs when it has none lit.
  private func capabilities(_ output: Output, _ topology: Topology) -> HeadCapabilities {
    let crtcs = topology.activeCrtc(of: output).map { [$0] } ?? output.possibleCrtcs.compactMap(topology.crtc)
    let allowed = crtcs.reduce(Rotation()) { $0.union($1.rotations) }
    let transforms = RandRHeadValues.transforms(allowed: allowed)
    let version = server.randrVersion
    let atLeast = { (minor: Int) in version.major > 1 || (version.major == 1 && version.minor >= minor) }
    let scaling = atLeast(3) && crtcs.contains { !transformRefusing.contains($0.id) }
    // RandR 1.2 creates modes; an output still shows only the modes it lists.
    return HeadCapabilities(
      transforms: transforms.isEmpty ? [.normal] : transforms, scaling: scaling, customModes: atLeast(2),
      anySize: false)
  }

  /// Checks `configuration` against the server's state without sending anything (RandR has
  /// no test request): `.applied` when `apply` would send it.
  public func test(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    let topology = try server.readTopology(ReadOptions(probe: false, properties: false))
    switch check(configuration, in: topology) {
    case .failure(let failure): return failure.result
    case .success: return .applied
    }
  }

  /// Puts `configuration` in force, all or nothing; `.stale` (nothing sent) when the server's
  /// configuration changed since the snapshot of its generation.
  public func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    try applyReporting(configuration).result
  }

  /// As `apply`, with each CRTC's heads at the mode the server took (after fallbacks), and
  /// the screen's size when it changed.
  public func applyReporting(_ configuration: OutputConfiguration) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    try applyReporting(configuration, from: try server.readTopology(ReadOptions(probe: false, properties: false)))
  }

  /// `test` planned from the held view of the last read: no request.
  public func test(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> ApplyResult {
    switch check(configuration, in: reads.masked(holding: held)) {
    case .failure(let failure): return failure.result
    case .success: return .applied
    }
  }

  /// `applyReporting` planned from the held view of the last read (no read of its own).
  public func applyReporting(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    try applyReporting(configuration, from: reads.masked(holding: held))
  }

  /// `applyReporting` planned from `topology`, a snapshot the caller read (no read of its
  /// own): the server's apply finds a configuration changed since `topology` under its grab
  /// and sends nothing (`.stale`). It learns the CRTCs that refused a transform.
  public func applyReporting(_ configuration: OutputConfiguration, from topology: Topology) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    switch check(configuration, in: topology) {
    case .failure(let failure): return (failure.result, ApplyReport())
    case .success(let planned):
      guard !planned.plan.isEmpty else { return (.applied, ApplyReport(warnings: planned.warnings.map(\.description))) }
      let outcome = try server.apply(planned.plan, in: topology)
      transformRefusing.formUnion(outcome.transformRefused)
      return (Self.result(outcome, planned), Self.report(outcome, planned, topology))
    }
  }

  /// `test` against `topology`: the plan `apply` would send, else `.stale` (`topology` is not
  /// the configuration's generation) or `.refused`.
  private func check(_ configuration: OutputConfiguration, in topology: Topology) -> Result<
    PlannedConfiguration, CheckFailure
  > {
    guard Self.generation(topology) == configuration.generation else { return .failure(CheckFailure(.stale)) }
    switch RandRConfigurationPlanner(topology, refusing: transformRefusing).plan(configuration) {
    case .failure(let refusal): return .failure(CheckFailure(.refused(refusal)))
    case .success(let planned): return .success(planned)
    }
  }

  /// Why `check` found a configuration that cannot be sent: `.stale` or `.refused`.
  private struct CheckFailure: Error {
    var result: ApplyResult
    init(_ result: ApplyResult) { self.result = result }
  }

  /// The port's answer for what an apply did: typed problems for the CRTCs that refused a
  /// transform or a rotation, the rest in the applier's words.
  static func result(_ outcome: ApplyOutcome, _ planned: PlannedConfiguration) -> ApplyResult {
    if outcome.stale { return .stale }
    var problems: [ApplyRefusal.Problem] = planned.names(of: outcome.transformRefused).map { .crtcRefusedTransform($0) }
    let rotations = planned.names(of: outcome.rotationRefused)
    // The applier's words for each head ("HDMI-1: its CRTC cannot rotate left"), where it said.
    let said = (outcome.refused ?? "").split(separator: "; ")
    problems += rotations.map { head in
      let words = said.first { $0.hasPrefix(head + ": ") }.map { String($0.dropFirst(head.count + 2)) }
      return .rotation(head: head, reason: words ?? "its CRTC cannot do the rotation asked")
    }
    let errors = outcome.errors.filter { error in
      // The rotation refusal is said above, head by head.
      if case .planRefused = error, !rotations.isEmpty { return false }
      return true
    }
    problems += errors.map { .failed($0.description) }
    guard !problems.isEmpty else { return .applied }
    return .refused(ApplyRefusal(problems: problems, notRestored: outcome.notRestored))
  }
}
