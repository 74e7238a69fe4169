import DisplayModel
import DisplayPorts

@testable import DisplayX11

extension OutputManagerLayout {
  /// The port's answer (`applyReporting`'s result and report) in the daemon's terms, for
  /// every backend. Stale is stale. A refusal before anything was set is the daemon's
  /// refused plan when the backend refused it itself (`server` nil: RandR checks without
  /// asking the server), in the daemon's words and its plan's order, with the CRTCs that
  /// cannot turn as asked; else the server's refusal, said as one problem ("the compositor
  /// refused the configuration: …"). Otherwise the report is the account: each head it
  /// names is the daemon's change naming it (one of the same kind, lit or off, first), at
  /// the mode the change asked that the server took, in the order the server set them
  /// (each run of offs or lits in the daemon's order) or, for a configuration put in force
  /// at once, in the daemon's order; the heads that failed, those already in force, the
  /// other problems, the desk's size and the warnings as reported. Either way the CRTCs the
  /// plan set heads whose transform was refused (planned unscaled next), and what a
  /// rollback did not restore. Pure.
  public static func outcome(
    _ result: ApplyResult, _ report: ApplyReport, _ plan: Plan, _ topology: Topology, refusedBy server: String?
  ) -> ApplyOutcome {
    var outcome = ApplyOutcome()
    switch result {
    case .stale:
      outcome.stale = true
      return outcome
    case .applied: break
    case .refused(let refusal):
      outcome.notRestored = refusal.notRestored
      outcome.transformRefused = crtcs(of: refusal.transformRefused, plan, topology)
      guard report.rolledBack else {
        if let server {
          outcome.problems = ["\(server) refused the configuration: \(refusal.reason)"]
        } else {
          outcome.refused = ordered(refusal.problems, plan, topology).map(\.description).joined(separator: "; ")
          outcome.rotationRefused = crtcs(of: refusal.rotationRefused, plan, topology)
        }
        return outcome
      }
    }
    let changes = PlanChanges(plan, topology)
    outcome.applied = changes.applied(report)
    outcome.unchanged = report.unchanged.map { changes.change(for: $0) }
    outcome.failed = report.failed.map { (changes.change(naming: $0.heads, lit: $0.enabled), $0.reason) }
    outcome.problems = report.problems
    outcome.screen = report.deskSize
    outcome.warnings = report.warnings
    return outcome
  }

  /// The CRTCs the plan set the named heads on: a head lit for the first time has none in
  /// the snapshot yet, but the plan's change names the bridge's idle one.
  public static func crtcs(of heads: Set<String>, _ plan: Plan, _ topology: Topology) -> Set<CrtcID> {
    let named = { (id: OutputID) in topology.output(id).map { heads.contains($0.name) } ?? false }
    let changes = plan.changes.filter { change in
      (change.outputs.isEmpty ? topology.crtc(change.crtc)?.outputs ?? [] : change.outputs).contains(where: named)
    }
    return Set(changes.map(\.crtc))
  }

  /// The problems in the order the daemon's plan names their heads (RandR's manager plans
  /// heads in its allocation order), those about no head first.
  static func ordered(_ problems: [ApplyRefusal.Problem], _ plan: Plan, _ topology: Topology)
    -> [ApplyRefusal.Problem]
  {
    let index = { (problem: ApplyRefusal.Problem) -> Int in
      guard let head = problem.head else { return -1 }
      return plan.changes.firstIndex { change in
        change.outputs.contains { topology.output($0)?.name == head } || change.outputName == head
      } ?? plan.changes.count
    }
    return problems.enumerated().sorted { (index($0.element), $0.offset) < (index($1.element), $1.offset) }
      .map(\.element)
  }
}

/// The daemon's changes by the heads they name, to read a report's heads back as them.
private struct PlanChanges {
  let plan: Plan
  let topology: Topology
  /// Each change's heads: its outputs, or its CRTC's when it names none (a CRTC turned off).
  let heads: [Set<String>]

  init(_ plan: Plan, _ topology: Topology) {
    self.plan = plan
    self.topology = topology
    heads = plan.changes.map { change in
      let ids = change.outputs.isEmpty ? topology.crtc(change.crtc)?.outputs ?? [] : change.outputs
      return Set(ids.compactMap { topology.output($0)?.name })
    }
  }

  /// The change naming one of `names`, one lighting (or turning off) as `lit` says first.
  func index(naming names: [String], lit: Bool) -> Int? {
    let naming = plan.changes.indices.filter { !heads[$0].isDisjoint(with: names) }
    return naming.first { (plan.changes[$0].mode != nil) == lit } ?? naming.first
  }

  /// The daemon's change for heads a report names; for heads the plan has no change for (the
  /// backend set them to make room), a change of their own on the CRTC the snapshot has them on.
  func change(naming names: [String], lit: Bool) -> CrtcChange {
    if let i = index(naming: names, lit: lit) { return plan.changes[i] }
    let outputs = names.compactMap { topology.output(named: $0) }
    let crtc = outputs.lazy.compactMap { topology.activeCrtc(of: $0)?.id }.first ?? CrtcID(rawValue: 0)
    return CrtcChange(
      crtc: crtc, mode: nil, x: 0, y: 0, rotation: .normal, outputs: lit ? outputs.map(\.id) : [], fallbacks: [],
      outputName: names.joined(separator: ","))
  }

  func change(for entry: ApplyReport.Entry) -> CrtcChange {
    var change = change(naming: entry.heads, lit: entry.modeLabel != nil)
    guard index(naming: entry.heads, lit: entry.modeLabel != nil) == nil else { return change }
    (change.x, change.y, change.mode) = (entry.x, entry.y, entry.modeLabel == nil ? nil : mode(entry, change))
    return change
  }

  /// What was set, each change once: in the order the server set them, each run of offs or
  /// lits in the daemon's order (RandR turns every CRTC off before it lights any, and plans
  /// them in its own order), or all in the daemon's order.
  func applied(_ report: ApplyReport) -> [(change: CrtcChange, mode: ModeID?)] {
    var taken: Set<Int> = []
    var rows: [(key: [Int], applied: (change: CrtcChange, mode: ModeID?))] = []
    var run = 0
    for (n, entry) in report.entries.enumerated() {
      let lit = entry.modeLabel != nil
      if report.sequential, n > 0, lit != (report.entries[n - 1].modeLabel != nil) { run += 1 }
      let i = index(naming: entry.heads, lit: lit)
      if let i, !taken.insert(i).inserted { continue }
      let change = change(for: entry)
      rows.append(([run, i ?? plan.changes.count, n], (change, lit ? mode(entry, change) : nil)))
    }
    return rows.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.applied)
  }

  /// The mode the server took: the one the backend made, else the first the change asked
  /// (then any the heads list) that the report names, else the one the change asked first.
  func mode(_ entry: ApplyReport.Entry, _ change: CrtcChange) -> ModeID? {
    if let made = entry.madeMode.flatMap({ UInt(exactly: $0) }) { return ModeID(rawValue: made) }
    let asked = [change.mode].compactMap { $0 } + change.fallbacks
    let listed = entry.heads.compactMap { topology.output(named: $0) }.flatMap(\.modes)
    let named = (asked + listed).first { id in
      guard let mode = plan.mode(id, in: topology) else { return false }
      return mode.label == entry.modeLabel
        && entry.mode.map { ($0.width, $0.height) == (mode.width, mode.height) } ?? true
    }
    return named ?? change.mode
  }
}
