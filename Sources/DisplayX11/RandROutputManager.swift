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
  public let connection: XConnection
  /// CRTCs whose transform the server refused (RRSetCrtcTransform BadValue): learned by
  /// `apply`, so `heads` stops offering scaling on them and `test` refuses a scale there.
  public private(set) var transformRefusing: Set<CrtcID> = []

  public init(_ connection: XConnection) { self.connection = connection }

  public var backendName: String { "x11" }
  public var serverName: String { connection.name }

  /// Every output as a head, from one consistent snapshot.
  public func heads(probe: Bool) throws(DisplayError) -> HeadSnapshot {
    let topology = try connection.readTopology(ReadOptions(probe: probe, properties: true))
    return snapshot(topology)
  }

  /// The snapshot `topology` is, reading the CRTC transforms of CRTCs whose extent is not
  /// their plain mode's (something scales them).
  func snapshot(_ topology: Topology) -> HeadSnapshot {
    let heads = topology.outputs.map { head($0, topology) }
    let primary = topology.primary.flatMap { topology.output($0)?.name }
    return HeadSnapshot(heads: heads, primary: primary, generation: Self.generation(topology))
  }

  /// The snapshot's generation: the config timestamp (changes with the server's outputs and
  /// modes) and the timestamp (changes with every CRTC set by any client), both 32-bit X
  /// timestamps, side by side.
  public static func generation(_ topology: Topology) -> UInt64 {
    UInt64(UInt32(truncatingIfNeeded: topology.configTimestamp)) << 32
      | UInt64(UInt32(truncatingIfNeeded: topology.timestamp))
  }

  private func head(_ output: Output, _ topology: Topology) -> Head {
    let edid = output.identity
    let modes = topology.modes(of: output)
    let crtc = topology.activeCrtc(of: output)
    var head = Head(
      name: output.name, edid: output.edid, mmWidth: output.mmWidth, mmHeight: output.mmHeight,
      connected: output.isConnected, enabled: crtc != nil, isInternalPanel: output.isInternalPanel,
      nonDesktop: output.nonDesktop)
    if let edid {
      head.make = edid.manufacturer
      head.model = edid.productName?.text ?? String(edid.productCode)
      head.serial = edid.serial ?? ""
      head.description = [head.make, head.model, head.serial].filter { !$0.isEmpty }.joined(separator: " ")
    }
    head.modes = modes.enumerated().map { index, mode in
      HeadMode(
        width: mode.width, height: mode.height, refreshMilliHz: RandRHeadValues.refreshMilliHz(mode),
        preferred: index < output.preferredCount, interlaced: mode.isInterlaced,
        custom: mode.name.hasPrefix(CustomModes.prefix))
    }
    head.capabilities = capabilities(output, topology)
    guard let crtc else { return head }
    head.currentMode = modes.firstIndex { $0.id == crtc.mode }
    (head.x, head.y) = (crtc.x, crtc.y)
    head.transform = RandRHeadValues.transform(crtc.rotation)
    if let mode = crtc.mode.flatMap({ topology.modes[$0] }),
      CrtcTransform.identity.footprint(
        x: crtc.x, y: crtc.y, width: mode.width, height: mode.height, rotation: crtc.rotation)
        != crtc.rect, let transform = connection.crtcTransform(crtc.id)
    {
      head.scale = RandRHeadValues.scale(transform)
    }
    return head
  }

  /// What the head's CRTC can do, or any of its possible CRTCs when it has none lit.
  private func capabilities(_ output: Output, _ topology: Topology) -> HeadCapabilities {
    let crtcs = topology.activeCrtc(of: output).map { [$0] } ?? output.possibleCrtcs.compactMap(topology.crtc)
    let allowed = crtcs.reduce(Rotation()) { $0.union($1.rotations) }
    let transforms = RandRHeadValues.transforms(allowed: allowed)
    let version = connection.randrVersion
    let atLeast = { (minor: Int) in version.major > 1 || (version.major == 1 && version.minor >= minor) }
    let scaling = atLeast(3) && crtcs.contains { !transformRefusing.contains($0.id) }
    return HeadCapabilities(
      transforms: transforms.isEmpty ? [.normal] : transforms, scaling: scaling, customModes: atLeast(2))
  }

  /// Checks `configuration` against the server's state without sending anything (RandR has
  /// no test request): `.applied` when `apply` would send it.
  public func test(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    let topology = try connection.readTopology(ReadOptions(probe: false, properties: false))
    guard Self.generation(topology) == configuration.generation else { return .stale }
    switch RandRConfigurationPlanner(topology, refusing: transformRefusing).plan(configuration) {
    case .failure(let refusal): return .refused(refusal)
    case .success(let planned):
      if let refusal = XConnection.refusal(of: planned.plan, in: topology) {
        return .refused(
          ApplyRefusal(reason: refusal.reason, transformRefused: planned.names(of: refusal.rotations)))
      }
      return .applied
    }
  }

  /// Puts `configuration` in force, all or nothing; `.stale` (nothing sent) when the server's
  /// configuration changed since the snapshot of its generation.
  public func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    let topology = try connection.readTopology(ReadOptions(probe: false, properties: false))
    guard Self.generation(topology) == configuration.generation else { return .stale }
    let planned: PlannedConfiguration
    switch RandRConfigurationPlanner(topology, refusing: transformRefusing).plan(configuration) {
    case .failure(let refusal): return .refused(refusal)
    case .success(let result): planned = result
    }
    let outcome = try connection.apply(planned.plan, in: topology)
    transformRefusing.formUnion(outcome.transformRefused)
    return Self.result(outcome, planned)
  }

  /// The port's answer for what an apply did.
  static func result(_ outcome: ApplyOutcome, _ planned: PlannedConfiguration) -> ApplyResult {
    if outcome.stale { return .stale }
    let errors = outcome.errors
    guard !errors.isEmpty || !outcome.transformRefused.isEmpty || !outcome.rotationRefused.isEmpty else {
      return .applied
    }
    let refused = planned.names(of: outcome.transformRefused.union(outcome.rotationRefused))
    let reason = errors.isEmpty ? "the server refused a transform" : errors.map(\.description).joined(separator: "; ")
    return .refused(ApplyRefusal(reason: reason, transformRefused: refused, notRestored: outcome.notRestored))
  }
}
