import DisplayModel

/// How one round of the apply loop ended, for its caller to judge.
enum ApplyStep {
  /// The plan sends nothing: the layout is as it would become.
  case unchanged(Plan)
  /// The plan was applied (or failed and was rolled back): `errors` is empty when it is in force.
  case applied(Plan, ApplyOutcome, errors: [ApplyProblem])
}

/// What the apply loop's caller says in its words: who is planned, and what a monitor
/// whose CRTC refused a transform gets instead.
struct ApplyWording {
  /// Named in the warning for refused rotations: "profile 'desk'" (the profile may change
  /// between rounds).
  var subject: () -> String
  /// Said after a refused transform: "scale 1 instead".
  var unscaled: String
}

extension Daemon {
  /// The apply loop over plans (what still plans from the topology; the rest goes through
  /// `applyConfigurations`): plans, applies, re-reads; a
  /// plan made from a snapshot that went stale is made again from the new one; CRTCs that
  /// refused a transform are planned unscaled from then on, outputs whose CRTC refused a
  /// rotation without it, each with a warning; every other end goes to `judge`, which says
  /// whether to plan again. `plan` gets the outputs to plan without rotation; it returns nil
  /// when there is nothing to apply (having said why). Each plan warning is logged once.
  /// Returns false when `maxRounds` rounds did not end it.
  func applyLoop(
    _ n: Int, _ reason: String, _ words: ApplyWording, _ events: inout [TopologyEvent],
    plan: (_ noRotation: Set<OutputID>) -> Plan?, judge: (ApplyStep) -> Bool
  ) throws(DisplayError) -> Bool {
    var noRotation: Set<OutputID> = []
    var logged: Set<PlanWarning> = []
    for _ in 0..<Self.maxRounds {
      guard let plan = plan(noRotation) else { return true }
      for warning in plan.warnings where logged.insert(warning).inserted { log.warning("\(warning)") }
      if plan.isEmpty {
        if judge(.unchanged(plan)) { return true }
        continue
      }
      let outcome = try layoutServer.apply(plan, in: topology)
      events += adopt(try layoutServer.snapshot())
      if outcome.stale {
        log.debug("the server changed since reconcile \(n)'s snapshot (\(reason)); planning again")
        continue
      }
      for warning in outcome.warnings { log.warning(warning) }
      if learn(outcome, plan, words, &noRotation) { continue }
      if judge(.applied(plan, outcome, errors: outcome.errors)) { return true }
    }
    return false
  }

  /// Whether no connected output is lit (a disconnect waiting for its grace counts as lit):
  /// after a rolled-back apply, the loop plans again, a few rounds at most, rather than
  /// leave a dark desk until the next change.
  var deskIsDark: Bool { topology.leavesDark(Plan()) }

  /// Takes in what the server refused before anything was sent: CRTCs without transforms
  /// (planned unscaled from then on, as for every later plan) and outputs whose CRTC cannot
  /// rotate as asked. Returns whether there was any, so the plan is made again.
  private func learn(
    _ outcome: ApplyOutcome, _ plan: Plan, _ words: ApplyWording, _ noRotation: inout Set<OutputID>
  ) -> Bool {
    let changes = { (crtcs: Set<CrtcID>) in plan.changes.filter { crtcs.contains($0.crtc) } }
    if !outcome.transformRefused.isEmpty {
      for change in changes(outcome.transformRefused) {
        log.warning("\(change.outputName): its CRTC refused a transform (RRSetCrtcTransform); \(words.unscaled)")
      }
      profileRuntime.noTransform.formUnion(outcome.transformRefused)
      return true
    }
    guard !outcome.rotationRefused.isEmpty else { return false }
    log.warning("\(words.subject()): \(outcome.refused ?? "rotation refused"); no rotation for those outputs")
    for change in changes(outcome.rotationRefused) { noRotation.formUnion(change.outputs) }
    return true
  }
}
