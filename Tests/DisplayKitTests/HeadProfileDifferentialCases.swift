import DisplayModel
import DisplayPorts

// The shapes of desk and profile where the profile planners over heads and over RandR's
// topology plan otherwise, for a reason RandR's CRTCs give or by design.
extension HeadProfileDifferential {
  static let shiftingMain =
    "same-as main where main is a same-as entry itself: the old planner takes main while it gives CRTCs out"

  /// Whether a `same-as main` entry's main is itself a `same-as` entry. The old planner takes
  /// main before such an entry has a CRTC and again after (another head, then this one), so
  /// it shares or places the clone as the allocation goes, and lights a ring of the two as
  /// it may or not at all; the head planner takes main once, and makes one head of a ring a
  /// head of its own, with a warning.
  func mainIsAClone(_ plan: HeadProfilePlan) -> Bool {
    guard profile.outputs.contains(where: { $0.position == .sameAs("main") }), let m = mainEntry(plan) else {
      return false
    }
    if case .sameAs = profile.outputs[m].position { return true }
    return false
  }

  /// The entry main is after the head plan, as the planner takes it: the head `main` names,
  /// the `primary` entry, the snapshot's primary, the built-in panel (each lit), else the
  /// first lit entry.
  func mainEntry(_ plan: HeadProfilePlan) -> Int? {
    let sent = Dictionary(plan.configuration.heads.map { ($0.name, $0.enabled) }, uniquingKeysWith: { $1 })
    let lit = names.indices.filter { sent[names[$0]] ?? snapshot.head(named: names[$0])?.enabled == true }
    let panel = { (name: String) in
      config.panel.map { $0 == name } ?? (snapshot.head(named: name)?.isInternalPanel == true)
    }
    let preferences: [(Int) -> Bool] = [
      { names[$0] == config.main }, { profile.outputs[$0].primary }, { names[$0] == snapshot.primary },
      { config.main == nil && panel(names[$0]) },
    ]
    for wanted in preferences {
      if let i = lit.first(where: wanted) { return i }
    }
    return lit.first
  }

  /// Whether the head plan turns a head otherwise than asked, for its capabilities, where
  /// the old plan's CRTCs could (a head the old plan leaves as it is, already so turned,
  /// is in no configuration for `D.beyondCapabilities` to see).
  func turnedBeyondCapabilities(_ plan: ReferencePlan, _ new: HeadProfilePlan) -> Bool {
    let cannot = { (w: PlanWarning) in if case .headCannot = w { true } else { false } }
    let crtcCannot = { (w: PlanWarning) in if case .crtcCannot = w { true } else { false } }
    return new.warnings.contains(where: cannot) && !plan.warnings.contains(where: crtcCannot)
  }

  /// Whether the old plan puts a clone on its target's CRTC though its entry asks another
  /// transform: RandR shares where the CRTC it gave the target cannot turn the clone as
  /// asked (and says nothing); heads offer what any CRTC of theirs can.
  func sharedUnturned(_ old: OutputConfiguration) -> Bool {
    old.heads.contains { head in
      guard head.enabled, head.sameAs != nil, let i = names.firstIndex(of: head.name) else { return false }
      return profile.outputs[i].transform != head.transform
    }
  }

  /// Whether a clone the head plan shares its target's picture with shows on a CRTC of its
  /// own in the old plan because the target's CRTC cannot drive it.
  func cloneOnOtherCrtc(_ plan: ReferencePlan, _ new: OutputConfiguration) -> Bool {
    let t = topology
    return new.heads.contains { clone in
      guard let target = clone.sameAs.flatMap(t.output(named:)), let output = t.output(named: clone.name),
        !plan.changes.contains(where: { $0.outputs.contains(output.id) && $0.outputs.contains(target.id) }),
        let crtc = plan.changes.first(where: { $0.mode != nil && $0.outputs.first == target.id }).flatMap({
          t.crtc($0.crtc)
        }) ?? t.activeCrtc(of: target)
      else { return false }
      return !output.possibleCrtcs.contains(crtc.id)
        || !crtc.possibleOutputs.isEmpty && !crtc.possibleOutputs.contains(output.id)
    }
  }

  /// Whether the old plan turns off clones of clones (it puts one on the CRTC it shares and
  /// names it in no change) that the head plan shows as the first head, and otherwise agrees.
  func cloneOfCloneLit(_ plan: ReferencePlan, _ old: OutputConfiguration, _ new: OutputConfiguration) -> Bool {
    let chained = new.heads.filter { head in
      guard let root = head.sameAs, old.heads.first(where: { $0.name == head.name })?.enabled == false else {
        return false
      }
      return plan.changes.contains { $0.outputs.count > 1 && topology.output($0.outputs[0])?.name == root }
    }
    guard !chained.isEmpty else { return false }
    let names = Set(chained.map(\.name))
    var (a, b) = (old, new)
    a.heads.removeAll { names.contains($0.name) }
    b.heads.removeAll { names.contains($0.name) }
    return D.compare(a, b).isEmpty
  }
}
