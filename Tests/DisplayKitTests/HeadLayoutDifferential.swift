import DisplayModel
import DisplayPorts
import DisplayX11

/// The lid policy and the layout restore over heads (`HeadLidPolicy`, `HeadLayoutRestore`)
/// beside the ones over RandR's topology on one desk: the topology as heads, the head plan,
/// and the old plan as a configuration (`OutputConfiguration(plan:in:)`), compared as
/// `HeadPlanDifferential` compares the rule planners, with the heads configured. Desks
/// where RandR's limits make the old policy plan otherwise are left out, each with its
/// reason; a deliberate difference is named. The screen's size, which the old plans set, is
/// the backend's and not compared; the restore's physical size, which the head restore
/// gives from the screens the daemon keeps beside the heads, is.
enum HeadLayoutDifferential {
  typealias Verdict = HeadPlanDifferential.Verdict
  typealias D = HeadPlanDifferential

  /// `heads`: the snapshot `t` was made from (`Topology(heads:)`), else `t` as heads.
  static func lid(
    _ t: Topology, _ config: Config, lid: LidState, previous: Rect?, heads: HeadSnapshot? = nil
  ) -> Verdict {
    let snapshot = heads ?? HeadSnapshot(topology: t)
    if let why = D.unsayable(t, snapshot) { return .excluded(why) }
    let plan = LidPolicy.plan(topology: t, config: config, lid: lid, previous: previous)
    if let why = limit(plan) { return .excluded(why) }
    guard let old = OutputConfiguration(plan: plan.plan, in: t) else {
      return .differs(["the bridge cannot say the plan"])
    }
    let new = HeadLidPolicy.plan(snapshot: snapshot, config: config, lid: lid, previous: previous)
    let problems = compare(old, plan.configures, new, t)
    return problems.isEmpty ? .same(heads: new.configuration.heads.count) : .differs(problems)
  }

  /// `heads`: the snapshots the topologies were made from, else the topologies as heads.
  static func restore(
    saved: Topology, now: Topology, keptOff: Set<OutputID>, heads: (saved: HeadSnapshot, now: HeadSnapshot)? = nil
  ) -> Verdict {
    let (before, after) = heads ?? (HeadSnapshot(topology: saved), HeadSnapshot(topology: now))
    if let why = D.unsayable(saved, before) ?? D.unsayable(now, after) { return .excluded(why) }
    let plan = LayoutRestore.plan(saved: saved, now: now, keptOff: keptOff)
    if let why = limit(plan) { return .excluded(why) }
    guard let old = OutputConfiguration(plan: plan.plan, in: now) else {
      return .differs(["the bridge cannot say the plan"])
    }
    let kept = Set(keptOff.compactMap { now.output($0)?.name })
    // The screens beside the heads, as the daemon keeps them: the millimetres no head says.
    let new = HeadLayoutRestore.plan(saved: before, now: after, keptOff: kept, screen: (saved.screen, now.screen))
    // A saved scale the old restore drops can make the screen too large for the server.
    if new.warnings.contains(where: { if case .restoreTooLarge = $0 { true } else { false } }) {
      return .excluded("the server's maximum screen, for the saved scales")
    }
    let problems = compare(old, plan.configures, new, now)
    guard !problems.isEmpty else {
      guard old.physicalSize == new.configuration.physicalSize else {
        let (a, b) = (old.physicalSize, new.configuration.physicalSize)
        return .differs(["physical size \(a.map { "\($0)" } ?? "-") vs \(b.map { "\($0)" } ?? "-")"])
      }
      return .same(heads: new.configuration.heads.count)
    }
    let restore = RestoreCase(saved: saved, now: now, before: before, after: after, plan: plan, old: old, new: new)
    return restore.explained() ?? .differs(problems)
  }

  /// The configurations compared head by head with the primary, and the heads configured.
  static func compare(_ old: OutputConfiguration, _ configures: Set<OutputID>, _ new: HeadPlan, _ t: Topology)
    -> [String]
  {
    var problems = D.compare(old, new.configuration)
    let configured = Set(configures.compactMap { t.output($0)?.name })
    if configured != new.configures {
      problems.append("configures \(configured.sorted()) vs \(new.configures.sorted())")
    }
    return problems
  }

  /// The RandR limit the old plan met, nil when none: the backend's to refuse.
  static func limit(_ plan: ReferencePlan) -> String? {
    for warning in plan.warnings {
      switch warning {
      case .noCrtc: return "no free CRTC"
      case .panelTooLarge, .restoreTooLarge: return "the server's maximum screen"
      default: return "a warning heads do not give: \(warning)"
      }
    }
    return nil
  }
}

/// One restore both ways, for the differences RandR's CRTCs or a deliberate change explain.
struct RestoreCase {
  typealias D = HeadPlanDifferential
  let saved: Topology
  let now: Topology
  let before: HeadSnapshot
  let after: HeadSnapshot
  let plan: ReferencePlan
  let old: OutputConfiguration
  let new: HeadPlan

  static let savedScale = "the saved scale comes back (the old restore shows it unscaled)"
  static let ownCrtc = "CRTC reuse: the old restore puts a head back on its old CRTC, showing what it shows now"
  static let takenCrtc = "CRTC reuse: the old restore takes a CRTC another head holds now, which goes dark"
  static let swapped = "another monitor on the connector (its make, model or serial) is not restored"

  /// The deliberate differences, when leaving out the heads they concern makes the plans
  /// agree and the head plan does for those heads what the difference says.
  func explained() -> HeadPlanDifferential.Verdict? {
    // A head one plan configures and the other leaves as it is differs too, even where both
    // configurations ask the same of it.
    let oldConfigures = Set(plan.configures.compactMap { now.output($0)?.name })
    let differing = differingHeads().union(oldConfigures.symmetricDifference(new.configures))
    var reasons: [String] = []
    var left: Set<String> = []
    for (reason, names) in [
      (Self.swapped, swappedMonitors()), (Self.savedScale, scaledBefore()), (Self.ownCrtc, backOnOwnCrtc()),
      (Self.takenCrtc, darkenedByTheft()),
    ] where !names.isDisjoint(with: differing) {
      reasons.append(reason)
      left.formUnion(names.intersection(differing))
    }
    var (a, b) = (old, new.configuration)
    a.heads.removeAll { left.contains($0.name) }
    b.heads.removeAll { left.contains($0.name) }
    if let p = a.primary, left.contains(p) { a.primary = nil }
    if let p = b.primary, left.contains(p) { b.primary = nil }
    if !D.compare(a, b).isEmpty, let respelled = D.deliberate(a, b, after) {
      reasons.append(respelled)
      a.heads.removeAll { change in !b.heads.contains { $0.name == change.name } }
    }
    let configured = oldConfigures.subtracting(left)
    guard !reasons.isEmpty, D.compare(a, b).isEmpty, configured == new.configures.subtracting(left) else {
      return nil
    }
    return .deliberate(reasons.joined(separator: "; "))
  }

  /// The heads the two configurations ask differently of.
  func differingHeads() -> Set<String> {
    let names = Set(old.heads.map(\.name)).union(new.configuration.heads.map(\.name))
    return names.filter { name in
      let (a, b) = (old.heads.first { $0.name == name }, change(name))
      return a.map(D.normalized) != b.map(D.normalized)
    }
  }

  func change(_ name: String) -> HeadConfiguration? { new.configuration.heads.first { $0.name == name } }

  /// Whether `config` asks what the head shows now: its mode, place, transform and scale.
  static func showsAlready(_ config: HeadConfiguration, _ head: Head) -> Bool {
    guard config.enabled, head.enabled, let mode = head.mode else { return false }
    var shown = config
    shown.mode = .listed(width: mode.width, height: mode.height, refreshMilliHz: mode.refreshMilliHz)
    (shown.x, shown.y, shown.transform, shown.scale, shown.scaleY) = (head.x, head.y, head.transform, head.scale, nil)
    var asked = config
    asked.fallbackModes = []
    return D.normalized(asked) == D.normalized(shown)
  }

  /// Heads whose monitor says another make, model or serial than the one saved, with no
  /// EDID to tell them apart: the head plan leaves them as they are.
  func swappedMonitors() -> Set<String> {
    Set(
      after.heads.filter { head in
        guard let was = before.head(named: head.name), was.edid == head.edid, change(head.name) == nil else {
          return false
        }
        return (was.make, was.model, was.serial) != (head.make, head.model, head.serial)
      }.map(\.name))
  }

  /// Heads restored that were saved scaled: the head plan gives them the saved scale (or
  /// leaves them where they show it already).
  func scaledBefore() -> Set<String> {
    new.configures.filter { name in
      guard let was = before.head(named: name), let head = after.head(named: name),
        !head.scaledArea.sameScale(was.scale, 1)
      else { return false }
      guard let config = change(name) else { return head.scaledArea.sameScale(head.scale, was.scale) }
      return config.scale == was.scale && (config.x, config.y, config.transform) == (was.x, was.y, was.transform)
    }
  }

  /// Heads the old plan sets to what they show, on the CRTC they had in `saved` rather than
  /// the one they are on; the head plan leaves them.
  func backOnOwnCrtc() -> Set<String> {
    Set(
      plan.changes.compactMap { change -> String? in
        guard change.mode != nil, change.outputs.count == 1, let output = now.output(change.outputs[0]),
          now.activeCrtc(of: output)?.id != change.crtc, self.change(output.name) == nil,
          let head = after.head(named: output.name), let config = old.heads.first(where: { $0.name == head.name })
        else { return nil }
        return Self.showsAlready(config, head) ? output.name : nil
      })
  }

  /// Heads the old plan turns off because it lights another head on their CRTC; the head
  /// plan leaves them lit.
  func darkenedByTheft() -> Set<String> {
    Set(
      old.heads.filter { config in
        guard !config.enabled, change(config.name) == nil, let output = now.output(named: config.name),
          let crtc = now.activeCrtc(of: output)
        else { return false }
        return plan.changes.contains { $0.crtc == crtc.id && $0.mode != nil && !$0.outputs.contains(output.id) }
      }.map(\.name))
  }
}
