import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing

/// The profile planner over heads (`HeadProfilePlanner`) beside the one over RandR's topology
/// (`ProfilePlanner`) on one desk and profile: the topology as heads, each side's matcher
/// and planner, and the old plan as a configuration (`OutputConfiguration(plan:in:)`),
/// compared as `HeadPlanDifferential` compares the rule planners, with the physical size, the
/// dpi, the heads configured and the warnings. Desks where RandR's limits make the old
/// planner plan otherwise are left out, each with its reason; a deliberate difference is named.
struct HeadProfileDifferential {
  typealias Verdict = HeadPlanDifferential.Verdict
  typealias D = HeadPlanDifferential

  let topology: Topology
  let config: Config
  let profile: Profile
  let lid: LidState
  let noTransform: Set<CrtcID>
  let snapshot: HeadSnapshot
  /// The heads the entries took, once both matchers agree.
  var names: [String] = []

  /// `heads`: the snapshot `t` was made from (`Topology(heads:)`), else `t` as heads.
  static func verdict(
    _ t: Topology, _ config: Config, _ profile: Profile, lid: LidState, noTransform: Set<CrtcID> = [],
    heads: HeadSnapshot? = nil
  ) -> Verdict {
    var desk = HeadProfileDifferential(
      topology: t, config: config, profile: profile, lid: lid, noTransform: noTransform,
      snapshot: heads ?? HeadSnapshot(topology: t, noTransform: noTransform))
    if let why = D.unsayable(t, desk.snapshot) { return .excluded(why) }
    switch (
      ProfileMatcher.match(profile, topology: t, lid: lid),
      HeadProfileMatcher.match(profile, snapshot: desk.snapshot, lid: lid)
    ) {
    case (.failure(let a), .failure(let b)):
      return a == b ? .refusedAlike("the profile does not match") : .differs(["mismatch \(a) vs \(b)"])
    case (.success(let a), .success(let b)):
      desk.names = a.outputs.compactMap { t.output($0)?.name }
      guard desk.names == b.heads else { return .differs(["assignment \(desk.names) vs \(b.heads)"]) }
      return desk.verdict(a, b)
    case (.success, .failure(let b)): return .differs(["only the head matcher refuses: \(b)"])
    case (.failure(let a), .success): return .differs(["only the RandR matcher refuses: \(a)"])
    }
  }

  func verdict(_ a: ProfileAssignment, _ b: HeadProfileAssignment) -> Verdict {
    let old = Result { () throws(ProfilePlanError) in
      try ProfilePlanner(topology: topology, config: config, lid: lid, noTransform: noTransform)
        .plan(profile, assignment: a)
    }
    let new = Result { () throws(ProfilePlanError) in
      try HeadProfilePlanner(snapshot: snapshot, config: config, lid: lid).plan(profile, assignment: b)
    }
    switch (old, new) {
    case (.failure(.tooLarge), _): return .excluded("the server's maximum screen")
    case (.failure(.dark), .failure(.dark)): return .refusedAlike("dark")
    case (.failure(let e), .failure(let f)): return e == f ? .refusedAlike("\(e)") : .differs(["\(e) vs \(f)"])
    case (.failure(.dark), .success(let plan)):
      if noCrtcFor(plan.configuration.heads.filter(\.enabled).map(\.name)) { return .excluded("no free CRTC") }
      return mainIsAClone(plan) ? .deliberate(Self.shiftingMain) : .differs(["only the RandR planner refuses: dark"])
    case (.failure(let e), .success): return .differs(["only the RandR planner refuses: \(e)"])
    case (.success, .failure(let f)): return .differs(["only the head planner refuses: \(f)"])
    case (.success(let plan), .success(let headPlan)): return compare(plan, headPlan)
    }
  }

  /// Whether none of these outputs is lit now, and no CRTC is idle that could drive one.
  func noCrtcFor(_ names: [String]) -> Bool {
    names.allSatisfy { name in
      guard let output = topology.output(named: name), topology.activeCrtc(of: output) == nil else { return false }
      return !output.possibleCrtcs.compactMap(topology.crtc).contains { !$0.isActive }
    }
  }

  func compare(_ plan: ReferencePlan, _ new: HeadProfilePlan) -> Verdict {
    if let why = D.randrLimit(plan) ?? Self.screenLimit(plan) { return .excluded(why) }
    guard let old = OutputConfiguration(plan: plan.plan, in: topology) else {
      return .differs(["the bridge cannot say the plan"])
    }
    var problems = D.compare(old, new.configuration)
    let configured = Set(plan.configures.compactMap { topology.output($0)?.name })
    if configured != new.configures {
      problems.append("configures \(configured.sorted()) vs \(new.configures.sorted())")
    }
    let oldWarnings = plan.warnings.filter { !D.isTransformWarning($0) }.map(D.said)
    let newWarnings = new.warnings.filter { !D.isTransformWarning($0) }.map(D.said)
    if oldWarnings != newWarnings { problems.append("warnings \(oldWarnings) vs \(newWarnings)") }
    if plan.dpi != new.dpi { problems.append("dpi \(String(describing: plan.dpi)) vs \(String(describing: new.dpi))") }
    let (oldSize, newSize) = (old.physicalSize, new.configuration.physicalSize)
    // The screen already has the size a dpi gives it: the old plan leaves it, heads do not know it.
    let sizeInForce =
      oldSize == nil && newSize == PhysicalSize(width: topology.screen.mmWidth, height: topology.screen.mmHeight)
    if oldSize != newSize && !sizeInForce {
      problems.append("physical size \(String(describing: oldSize)) vs \(String(describing: newSize))")
    }
    guard !problems.isEmpty else {
      return sizeInForce
        ? .excluded("the screen already has that physical size") : .same(heads: new.configuration.heads.count)
    }
    return explained(plan, old, new, configured) ?? .differs(problems)
  }

  /// The reason RandR's allocation or a documented difference gives for differing plans.
  func explained(_ plan: ReferencePlan, _ old: OutputConfiguration, _ new: HeadProfilePlan, _ configured: Set<String>)
    -> Verdict?
  {
    if D.beyondCapabilities(old, snapshot) || turnedBeyondCapabilities(plan, new) {
      return .deliberate("the old path asks a head a transform or scale its capabilities lack")
    }
    if plan.warnings.contains(where: D.isTransformWarning) || sharedUnturned(old) {
      return .excluded("a CRTC cannot do the rotation or reflection asked")
    }
    if Set(plan.warnings.compactMap(Self.unscaled)) != Set(new.warnings.compactMap(Self.unscaled)) {
      return .excluded("the CRTC given refuses transforms")
    }
    if cloneOnOtherCrtc(plan, new.configuration) {
      return .excluded("RandR cannot drive the clone from its target's CRTC")
    }
    if mainIsAClone(new) { return .deliberate(Self.shiftingMain) }
    if let why = D.deliberate(old, new.configuration, snapshot) { return .deliberate(why) }
    if cloneOfCloneLit(plan, old, new.configuration) {
      return .deliberate("a clone of a clone shows the first head's picture; the old planner turns it off")
    }
    return nil
  }

  /// The output a warning says is left unscaled (a clone too), as `D.unscaled`.
  static func unscaled(_ warning: PlanWarning) -> String? {
    if case .cloneCannotScale(let output) = warning { return output + " clone" }
    return D.unscaled(warning).map { "\($0.output) \($0.scale)" }
  }

  /// A limit of RandR's screen the old plan met beyond the rule planner's: the largest mode
  /// that fits the server's maximum screen is the backend's to choose.
  static func screenLimit(_ plan: ReferencePlan) -> String? {
    plan.warnings.contains { if case .profileModeTooLarge = $0 { true } else { false } }
      ? "the server's maximum screen" : nil
  }
}
