import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing

/// The rule planner over heads (`HeadPlanner`) beside the one over RandR's topology
/// (`Planner`) on one desk: the topology as heads (`HeadSnapshot(topology:)`), the head plan,
/// and the old plan as a configuration (`OutputConfiguration(plan:in:)`), compared head by
/// head for the heads either changes, with the primary, the heads configured and the
/// warnings. Desks where RandR's limits make the old planner plan otherwise are left out,
/// each with its reason; a deliberate difference is named.
enum HeadPlanDifferential {
  enum Verdict: Equatable {
    /// Both plan the same configuration of this many heads.
    case same(heads: Int)
    /// RandR's limits (or a shape heads cannot say) make the planners differ.
    case excluded(String)
    /// The planners differ as documented (`deliberate`).
    case deliberate(String)
    case differs([String])
    /// Both refuse to plan, for this reason.
    case refusedAlike(String)
  }

  /// `heads`: the snapshot `t` was made from (`Topology(heads:)`), else `t` as heads.
  /// `replanningMain`: both planners plan a lit main for its mode (`Planner.replanningMain`).
  static func verdict(
    _ t: Topology, _ config: Config, settled: Set<OutputID> = [], noTransform: Set<CrtcID> = [],
    heads: HeadSnapshot? = nil, replanningMain: Bool = false
  ) -> Verdict {
    let snapshot = heads ?? HeadSnapshot(topology: t, noTransform: noTransform)
    if let why = unsayable(t, snapshot) { return .excluded(why) }
    var planner = Planner(topology: t, config: config, noTransform: noTransform)
    planner.replanningMain = replanningMain
    let plan = planner.plan(settled: settled)
    if let why = randrLimit(plan) { return .excluded(why) }
    guard let old = OutputConfiguration(plan: plan.plan, in: t) else {
      return .differs(["the bridge cannot say the plan"])
    }
    let names = Set(settled.compactMap { t.output($0)?.name })
    var headPlanner = HeadPlanner(snapshot: snapshot, config: config)
    headPlanner.replanningMain = replanningMain
    let new = headPlanner.plan(settled: names)
    var problems = compare(old, new.configuration)
    let configured = Set(plan.configures.compactMap { t.output($0)?.name })
    if configured != new.configures {
      problems.append("configures \(configured.sorted()) vs \(new.configures.sorted())")
    }
    let oldWarnings = plan.warnings.filter { !isTransformWarning($0) }.map(said)
    let newWarnings = new.warnings.filter { !isTransformWarning($0) }.map(said)
    if oldWarnings != newWarnings { problems.append("warnings \(oldWarnings) vs \(newWarnings)") }
    guard !problems.isEmpty else { return .same(heads: new.configuration.heads.count) }
    if beyondCapabilities(old, snapshot) {
      // `Topology(heads:)` gives every head's CRTC every rotation and takes every transform,
      // whatever the head's capabilities: the old path asks what the head says it cannot.
      return .deliberate("the old path asks a head a transform or scale its capabilities lack")
    }
    if plan.warnings.contains(where: isTransformWarning) {
      // RandR asks a CRTC for the turn and the reflection apart (`Crtc.fit`); a head offers
      // whole transforms, and RandR spells each in two ways: where a CRTC cannot do what
      // is asked, the two fall back differently.
      return .excluded("a CRTC cannot do the rotation or reflection asked")
    }
    if Set(plan.warnings.compactMap(unscaled)) != Set(new.warnings.compactMap(unscaled)) {
      // The old planner asks the CRTC it allocates; a dark head offers what any of its CRTCs can.
      return .excluded("the CRTC given refuses transforms")
    }
    if let why = deliberate(old, new.configuration, snapshot) { return .deliberate(why) }
    return .differs(problems)
  }

  /// Whether the old configuration asks a head a transform, or a scale, it cannot show.
  static func beyondCapabilities(_ old: OutputConfiguration, _ snapshot: HeadSnapshot) -> Bool {
    old.heads.contains { change in
      guard change.enabled, let head = snapshot.head(named: change.name) else { return false }
      return !head.capabilities.transforms.contains(change.transform)
        || (normalized(change).scale != 1 && !head.capabilities.scaling)
    }
  }

  /// Why heads cannot say this topology, nil when they can.
  static func unsayable(_ t: Topology, _ snapshot: HeadSnapshot) -> String? {
    if t.crtcs.contains(where: { $0.isActive && $0.outputs.count > 1 }) {
      return "a CRTC drives several outputs (a clone)"
    }
    if Set(t.outputs.map(\.name)).count != t.outputs.count { return "two outputs share a name" }
    for output in t.outputs {
      guard let crtc = t.activeCrtc(of: output) else { continue }
      if snapshot.head(named: output.name)?.rect != crtc.rect {
        return "a lit CRTC's extent no head mode and scale make"
      }
    }
    return nil
  }

  /// The RandR limit the old plan met, nil when none: the backend's to refuse.
  static func randrLimit(_ plan: ReferencePlan) -> String? {
    for warning in plan.warnings {
      switch warning {
      case .noCrtc: return "no free CRTC"
      case .noModeFits, .modeTooLarge, .screenTooLarge, .customTooLarge: return "the server's maximum screen"
      default: continue
      }
    }
    return nil
  }

  /// A warning as both planners say it: a scale left out is said by the old planner of the
  /// CRTC, by the head planner of the head.
  static func said(_ warning: PlanWarning) -> String {
    unscaled(warning).map { "\($0.output): scale 1 instead of \($0.scale)" } ?? warning.description
  }

  /// The output whose scale a warning says is left out, and the scale.
  static func unscaled(_ warning: PlanWarning) -> Pair? {
    switch warning {
    case .noTransform(let output, let scale), .cannotScale(let output, let scale):
      return Pair(output: output, scale: scale)
    default: return nil
    }
  }

  struct Pair: Hashable {
    var output: String
    var scale: Double
  }

  static func isTransformWarning(_ warning: PlanWarning) -> Bool {
    switch warning {
    case .crtcCannot, .headCannot: return true
    default: return false
    }
  }

  /// The differences as lines, nil-free: heads by name, then the primary.
  static func compare(_ old: OutputConfiguration, _ new: OutputConfiguration) -> [String] {
    var problems: [String] = []
    let before = Dictionary(old.heads.map { ($0.name, [$0]) }, uniquingKeysWith: +)
    let after = Dictionary(new.heads.map { ($0.name, [$0]) }, uniquingKeysWith: +)
    for name in Set(before.keys).union(after.keys).sorted() {
      let (a, b) = (before[name] ?? [], after[name] ?? [])
      guard a.count == 1, b.count == 1 else {
        problems.append("\(name): \(a.count) old and \(b.count) new configurations")
        continue
      }
      if normalized(a[0]) != normalized(b[0]) { problems.append("\(name): \(a[0]) vs \(b[0])") }
    }
    if old.primary != new.primary { problems.append("primary \(old.primary ?? "-") vs \(new.primary ?? "-")") }
    return problems
  }

  /// A configuration as RandR keeps it: the scale in 16.16 fixed point (the head plan sends
  /// the config's scale, the bridge the matrix's), the filter only where something scales,
  /// nothing but the name for a head turned off, made modes without their names (the name
  /// a made mode gets is the RandR backend's to give; the bridge keeps the plan's), and no
  /// mark of a default mode (a plan does not say which of its modes were asked).
  static func normalized(_ head: HeadConfiguration) -> HeadConfiguration {
    guard head.enabled else { return .off(head.name) }
    var h = head
    h.modeIsDefault = false
    let unnamed = { (request: HeadModeRequest) -> HeadModeRequest in
      guard case .custom(var line) = request else { return request }
      line.name = nil
      return .custom(line)
    }
    h.mode = h.mode.map(unnamed)
    // A request asked twice is tried once (the bridge gives two listed modes of one size and
    // rate the same request; the head planner asks it once).
    var asked: Set<HeadModeRequest> = Set(h.mode.map { [unnamed($0)] } ?? [])
    h.fallbackModes = h.fallbackModes.map(unnamed).filter { asked.insert($0).inserted }
    h.scale = HeadTransform.quantized(head.scale, ScaleQuantum.randr) ?? head.scale
    h.scaleY = head.scaleY.map { HeadTransform.quantized($0, ScaleQuantum.randr) ?? $0 }
    if h.scaleY == h.scale { h.scaleY = nil }
    if h.scale == 1 { h.scaleFilter = .bilinear }
    return h
  }

  /// The documented difference this is, nil when it is none: a head already showing the
  /// transform asked, spelled otherwise by RandR (`inverted` for `reflect: xy`), is left alone
  /// by the head planner; the old planner, comparing rotation bits, sets it again.
  static func deliberate(_ old: OutputConfiguration, _ new: OutputConfiguration, _ snapshot: HeadSnapshot) -> String? {
    let planned = Set(new.heads.map(\.name))
    let respelled = old.heads.filter { change in
      guard !planned.contains(change.name), change.enabled, let head = snapshot.head(named: change.name),
        let mode = head.mode
      else { return false }
      return change.mode == .listed(width: mode.width, height: mode.height, refreshMilliHz: mode.refreshMilliHz)
        && (change.x, change.y, change.transform) == (head.x, head.y, head.transform)
    }
    guard !respelled.isEmpty else { return nil }
    var old = old
    old.heads.removeAll { change in respelled.contains { $0.name == change.name } }
    return compare(old, new).isEmpty ? "a transform in force that RandR spells otherwise is left alone" : nil
  }

  /// The old planner's plan, as the tests of it run it, after checking the head planner on
  /// the same desk: a difference fails the calling test.
  static func plan(
    _ t: Topology, _ config: Config, settled: Set<OutputID> = [], noTransform: Set<CrtcID> = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> ReferencePlan {
    let verdict = verdict(t, config, settled: settled, noTransform: noTransform)
    log(verdict)
    if case .differs(let problems) = verdict {
      Issue.record("the head planner differs: \(problems.joined(separator: "; "))", sourceLocation: sourceLocation)
    }
    return Planner(topology: t, config: config, noTransform: noTransform).plan(settled: settled)
  }

  /// With `DISPLAYD_HEADPLAN_LOG` set, a line per desk (to count them).
  /// Many desks' verdicts, counted by kind, the differing ones as lines naming their seed.
  struct Tally {
    var counts: [String: Int] = [:]
    var failures: [String] = []

    mutating func add(_ verdict: Verdict, seed: UInt64, config: String) {
      HeadPlanDifferential.log(verdict)
      switch verdict {
      case .same(let heads): counts[heads == 0 ? "same, nothing to change" : "same", default: 0] += 1
      case .excluded(let why): counts["excluded: " + why, default: 0] += 1
      case .deliberate(let why): counts["deliberate: " + why, default: 0] += 1
      case .refusedAlike(let why): counts["same refusal: " + why, default: 0] += 1
      case .differs(let problems):
        failures.append("seed \(seed): \(problems.joined(separator: "; "))\n  config: \(config)")
      }
    }

    /// No desk differs, and more than `minimumSame` (most, unless given) are compared and
    /// the same, not left out.
    func expectAgreement(of desks: Int, _ kind: String, planner: String = "head planner", minimumSame: Int? = nil) {
      #expect(failures.isEmpty, "\(failures.count) desks differ:\n\(failures.prefix(5).joined(separator: "\n"))")
      #expect(counts["same", default: 0] > minimumSame ?? desks / 2, "\(counts)")
      print("\(planner) differential over \(desks) \(kind): \(counts.sorted { $0.key < $1.key })")
    }
  }

  static func log(_ verdict: Verdict) {
    guard ProcessInfo.processInfo.environment["DISPLAYD_HEADPLAN_LOG"] != nil else { return }
    print("headplan-differential: \(verdict)")
  }
}
