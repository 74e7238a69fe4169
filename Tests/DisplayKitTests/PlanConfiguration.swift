import DisplayModel
import DisplayPorts

@testable import DisplayX11

extension OutputConfiguration {
  /// A RandR-shaped plan (the tests' reference planners'), made from `topology` (the `Topology(heads:)` bridge), as
  /// one configuration of the heads it changes: a CRTC change names its heads (the bridge's
  /// CRTC of a head carries the head's id), a mode nil turns them off, as does a change that
  /// leaves an output off its CRTC and lights it nowhere else; the rotation becomes a
  /// transform (with its spelling), the CRTC's scale matrix the config's scale (`scaleY` where the sides differ),
  /// the fallbacks further modes; a mode the plan makes (not the topology's: a size the head
  /// does not list, a modeline) is a custom mode, named as the plan names it. Several outputs
  /// on one CRTC are clones: the first is their head, the others `sameAs` it. The plan's
  /// screen millimetres are the physical size. Heads the plan does not change stay as they
  /// are. Nil when a change names no head of `topology`. Pure.
  init?(plan: Plan, in topology: Topology) {
    let lit = Set(plan.changes.filter { $0.mode != nil }.flatMap(\.outputs))
    var heads: [HeadConfiguration] = []
    var off: Set<OutputID> = []
    let turnOff = { (id: OutputID) -> Bool in
      guard !lit.contains(id), off.insert(id).inserted else { return true }
      guard let output = topology.output(id) else { return false }
      heads.append(.off(output.name))
      return true
    }
    for change in plan.changes {
      let ids = change.outputs.isEmpty ? topology.crtc(change.crtc)?.outputs ?? [] : change.outputs
      guard !ids.isEmpty else { return nil }
      guard let modeID = change.mode else {
        guard ids.allSatisfy(turnOff) else { return nil }
        continue
      }
      guard let shown = Self.heads(change, ids, modeID, plan, topology) else { return nil }
      heads += shown
      let dropped = topology.crtc(change.crtc)?.outputs.filter { !ids.contains($0) } ?? []
      guard dropped.allSatisfy(turnOff) else { return nil }
    }
    let primary = plan.primary.flatMap { topology.output($0)?.name }
    self.init(
      generation: topology.generation,
      heads: Self.allocationOrder(heads, plan, topology), primary: primary,
      physicalSize: plan.screenMillimetres.map { PhysicalSize(width: $0.width, height: $0.height) })
  }

  /// The heads a lit change shows on: the first its own, the others the same as it.
  static func heads(_ change: CrtcChange, _ ids: [OutputID], _ modeID: ModeID, _ plan: Plan, _ topology: Topology)
    -> [HeadConfiguration]?
  {
    guard let mode = request(modeID, plan, topology) else { return nil }
    let fallbacks = change.fallbacks.compactMap { request($0, plan, topology) }
    let (sx, sy) = scales(change.transform)
    var heads: [HeadConfiguration] = []
    for id in ids {
      guard let output = topology.output(id) else { return nil }
      heads.append(
        HeadConfiguration(
          name: output.name, enabled: true, mode: mode, fallbackModes: fallbacks, x: change.x, y: change.y,
          transform: transform(change.rotation), spelling: change.rotation.spelling, scale: sx,
          scaleY: sy == sx ? nil : sy,
          scaleFilter: change.transform.filter, sameAs: heads.first?.name))
    }
    return heads
  }

  /// The heads in an order in which RandR's allocator (own CRTCs first, then the first free
  /// one in each head's order of possible CRTCs, heads in turn) gives each lit head the CRTC
  /// the plan gives it: a head after those holding CRTCs it would rather have. Clones last.
  static func allocationOrder(_ heads: [HeadConfiguration], _ plan: Plan, _ topology: Topology)
    -> [HeadConfiguration]
  {
    var holder: [CrtcID: String] = [:]
    var crtcOf: [String: CrtcID] = [:]
    for change in plan.changes where change.mode != nil {
      guard let first = change.outputs.first.flatMap(topology.output) else { continue }
      (holder[change.crtc], crtcOf[first.name]) = (first.name, change.crtc)
    }
    // Who must come first: the head given this one's own CRTC (a CRTC that drove both), and
    // those given CRTCs before this one's in its order.
    let before = { (head: HeadConfiguration) -> [String] in
      guard let crtc = crtcOf[head.name], let output = topology.output(named: head.name) else { return [] }
      let own = topology.activeCrtc(of: output)?.id
      guard own != crtc else { return [] }
      let earlier = output.possibleCrtcs.firstIndex(of: crtc).map { output.possibleCrtcs[..<$0] } ?? []
      return ([own].compactMap { $0 } + earlier).compactMap { holder[$0] }.filter { $0 != head.name }
    }
    var waiting = heads.filter { $0.enabled && $0.sameAs == nil }
    var placed: [HeadConfiguration] = []
    while !waiting.isEmpty {
      let names = Set(waiting.map(\.name))
      let next = waiting.firstIndex { before($0).allSatisfy { !names.contains($0) } } ?? 0
      placed.append(waiting.remove(at: next))
    }
    return placed + heads.filter { $0.enabled && $0.sameAs != nil } + heads.filter { !$0.enabled }
  }

  /// A mode of the plan as a request: listed when the topology has it, else custom, with the
  /// name the plan gives it (less the custom prefix the RandR backend puts back).
  static func request(_ id: ModeID, _ plan: Plan, _ topology: Topology) -> HeadModeRequest? {
    guard let mode = plan.mode(id, in: topology) else { return nil }
    guard topology.modes[id] == nil else { return request(mode) }
    var line = ModeLine(mode)
    if mode.name.hasPrefix(CustomModes.prefix) { line.name = String(mode.name.dropFirst(CustomModes.prefix.count)) }
    return .custom(line)
  }

  /// A listed mode by size and refresh (the bridge's modes have a dot clock of exactly
  /// width × height × refresh, so the refresh reads back as the head listed it). On RandR,
  /// two listed modes of one size and one refresh to the mHz (a mode and its interlaced
  /// twin) are one request: the backend takes the first the output lists.
  static func request(_ mode: Mode) -> HeadModeRequest {
    let milli = mode.refreshHz * 1000
    let refresh = milli.isFinite && milli >= 0 && milli < Double(Int32.max) ? Int(milli.rounded()) : 0
    return .listed(width: mode.width, height: mode.height, refreshMilliHz: refresh)
  }

  /// RandR's rotation as wl_output's transform (`Rotation.transform`).
  static func transform(_ rotation: Rotation) -> HeadTransform { rotation.transform }

  /// The config's scales from a CRTC transform (a scaling matrix: its diagonal); 1 for none
  /// or anything that is not a positive, finite scale.
  static func scales(_ transform: CrtcTransform) -> (x: Double, y: Double) {
    guard transform.matrix.count == 9 else { return (1, 1) }
    let positive = { (s: Double) in s.isFinite && s > 0 ? s : 1 }
    return (positive(transform.matrix[0]), positive(transform.matrix[4]))
  }
}
