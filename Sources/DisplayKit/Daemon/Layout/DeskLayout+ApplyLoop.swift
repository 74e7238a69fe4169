import DisplayModel

extension DeskLayout {
  /// The apply loop over the output-management port's values: plans from the daemon's heads,
  /// has the layout server test and apply the configuration, re-reads; one planned from a
  /// snapshot that went stale is planned again from the new one. What is the server's
  /// business (CRTCs, the screen) the backend answers; a transform a CRTC refused it learns
  /// (a scale then takes another CRTC, and a head with no other says it cannot scale, so
  /// the plan made again is unscaled), heads that cannot turn as asked are planned again
  /// without rotation, each with a warning, once a loop. Every
  /// other end goes to `judge`, which says whether to plan again. `plan` gets the heads to
  /// plan without rotation; it returns nil when there is nothing to apply (having said why).
  /// Each plan warning is logged once. Returns false when `maxRounds` rounds did not end it.
  func applyConfigurations(
    _ n: Int, _ reason: String, _ words: ApplyWording, _ events: inout [HeadEvent],
    plan: (_ noRotation: Set<String>) -> RulePlan?, judge: (ConfigurationStep) -> Bool
  ) throws(DisplayError) -> Bool {
    var (noRotation, unscaled, unlit, logged): (Set<String>, Set<String>, Set<String>, Set<PlanWarning>) = (
      [], [], [], []
    )
    for _ in 0..<Self.maxRounds {
      guard var plan = plan(noRotation) else { return true }
      plan.leaveDark(unlit)
      for warning in plan.warnings where logged.insert(warning).inserted { log.warning("\(warning)") }
      if plan.isEmpty {
        if judge(.unchanged(plan)) { return true }
        continue
      }
      let (result, report) = try layoutServer.apply(plan.configuration, holding: held)
      events += adopt(try layoutServer.read())
      for warning in report.warnings { log.warning(warning) }
      let errors: [ApplyProblem]
      switch result {
      case .stale:
        log.debug("the server changed since reconcile \(n)'s snapshot (\(reason)); planning again")
        continue
      case .applied: errors = []
      case .refused(let refusal):
        if learn(refusal, words, &noRotation, &unscaled, &unlit) { continue }
        errors = Self.problems(refusal, report, refusedBy: layoutServer.refuser)
      }
      if judge(.applied(plan, report, errors: errors)) { return true }
    }
    return false
  }

  /// The backend's reason for each of `heads` refused a scale (or left dark, when `unlit`),
  /// by head name: the first the head was given.
  static func reasons(_ refusal: ApplyRefusal, unlit: Bool = false, _ heads: Set<String>) -> [(
    head: String, reason: String
  )] {
    var reasons: [String: String] = [:]
    for problem in refusal.problems {
      switch problem {
      case .transform(let head, let reason) where !unlit, .cannotLight(let head, let reason) where unlit:
        if heads.contains(head), reasons[head] == nil { reasons[head] = reason }
      default: continue
      }
    }
    return reasons.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
  }

  /// Takes in what the backend refused: heads whose CRTC refused a transform (the backend
  /// avoids that CRTC for a scale from then on, and a head with no other says it cannot
  /// scale), heads nothing can drive (RandR: no free CRTC; left dark, not configured, as the
  /// planners over CRTCs leave them), and heads that cannot turn as asked. Returns whether
  /// any was new in this loop, so the plan is made again; the same refusal twice goes to the
  /// judge.
  private func learn(
    _ refusal: ApplyRefusal, _ words: ApplyWording, _ noRotation: inout Set<String>, _ unscaled: inout Set<String>,
    _ unlit: inout Set<String>
  ) -> Bool {
    let refused = refusal.transformRefused.subtracting(unscaled)
    if !refused.isEmpty {
      for (head, reason) in Self.reasons(refusal, refused) { log.warning("\(head): \(reason); \(words.unscaled)") }
      unscaled.formUnion(refused)
      return true
    }
    let dark = refusal.unlit.subtracting(unlit)
    if !dark.isEmpty {
      for (_, reason) in Self.reasons(refusal, unlit: true, dark) { log.warning("\(reason); left dark") }
      unlit.formUnion(dark)
      return true
    }
    let turned = refusal.rotationRefused.subtracting(noRotation)
    guard !turned.isEmpty else { return false }
    let said = refusal.problems.filter { if case .rotation = $0 { true } else { false } }.map(\.description)
    log.warning("\(words.subject()): \(said.joined(separator: "; ")); no rotation for those outputs")
    noRotation.formUnion(turned)
    return true
  }

  /// What kept a configuration from being put in force, in the order the log gives it: the
  /// heads that failed and the other failures of an apply put back, else the refusal (the
  /// server's, said as one problem, when `server` names it; else the backend's own); then
  /// what the rollback did not restore.
  static func problems(_ refusal: ApplyRefusal, _ report: ApplyReport, refusedBy server: String? = nil)
    -> [ApplyProblem]
  {
    let notRestored = refusal.notRestored.map(ApplyProblem.notRestored)
    guard report.rolledBack else {
      let refused = server.map { ApplyProblem.failure("\($0) refused the configuration: \(refusal.reason)") }
      return [refused ?? .planRefused(refusal.reason)] + notRestored
    }
    let failed = report.failed.map {
      ApplyProblem.couldNotConfigure(output: $0.heads.joined(separator: ","), reason: $0.reason)
    }
    return failed + report.problems.map(ApplyProblem.failure) + notRestored
  }

  /// What an apply did, in the log's words: each head's mode and place (or off), the
  /// screen's new size, what failed and was put back.
  func describe(_ report: ApplyReport) -> String {
    var parts = report.entries.map(\.description)
    if let size = report.deskSize { parts.append("screen \(size.width)x\(size.height)") }
    if !report.failed.isEmpty {
      parts.append("rolled back: \(report.failed.flatMap(\.heads).joined(separator: ", ")) failed")
    }
    return parts.joined(separator: ", ")
  }
}

extension RulePlan {
  /// Without the heads nothing can drive: they are not sent, nor counted as configured.
  mutating func leaveDark(_ unlit: Set<String>) {
    guard !unlit.isEmpty else { return }
    configuration.heads.removeAll { $0.enabled && unlit.contains($0.name) }
    configures.subtract(unlit)
  }
}
