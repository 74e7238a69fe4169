import DisplayModel

extension RandRConfigurationPlanner {
  /// Gives each head whose mode is the planner's default choice (`HeadConfiguration
  /// .modeIsDefault`) and whose CRTC, at its place, turned and scaled as asked, reaches beyond
  /// the server's largest screen the largest of its modes (by area, then refresh; one every
  /// head on the CRTC lists) that stays within it, with a warning naming the head, its mode,
  /// the maximum and the mode taken. The screen holds every CRTC exactly when each far corner
  /// is within the maximum, and every CRTC keeps the place the configuration gives it (the
  /// heads right of or below this one do not move in), so each head is fitted on its own.
  /// When none of its modes fits, it keeps its mode and `sizeScreen` refuses the screen, as
  /// for a mode asked explicitly, which is never changed. A change that the smaller mode makes
  /// what its CRTC already shows is dropped: the CRTC is left as it is, as a head the
  /// configuration does not name (a head planner that knows no maximum screen asks again, at
  /// each look, for the mode the server cannot hold).
  func fitDefaultModes(_ work: inout Work) {
    let limit = topology.screen.largest
    var inForceNow: Set<CrtcID> = []
    for index in work.plan.changes.indices where work.defaultModes.contains(work.plan.changes[index].crtc) {
      let change = work.plan.changes[index]
      guard let id = change.mode, !CustomModes.isVirtual(id), let mode = topology.modes[id],
        !fits(mode, change), let chosen = largestFitting(change)
      else { continue }
      work.plan.changes[index].mode = chosen.id
      // The fallbacks were of the size of the mode given way: a larger one would not fit.
      work.plan.changes[index].fallbacks.removeAll { fallback in
        topology.modes[fallback].map { $0.width > chosen.width || $0.height > chosen.height } ?? true
      }
      work.warnings.append(
        .profileModeTooLarge(
          output: change.outputName, mode: mode.name, turned: change.rotation.isQuarterTurn, maxWidth: limit.width,
          maxHeight: limit.height, instead: chosen.name))
      if inForce(work.plan.changes[index]) { inForceNow.insert(change.crtc) }
    }
    work.plan.changes.removeAll { inForceNow.contains($0.crtc) }
  }

  /// Whether the change is what its CRTC shows already, unscaled.
  private func inForce(_ change: CrtcChange) -> Bool {
    guard let crtc = topology.crtc(change.crtc), change.transform.isIdentity,
      let mode = crtc.mode.flatMap({ topology.modes[$0] }),
      CrtcTransform.identity.footprint(
        x: crtc.x, y: crtc.y, width: mode.width, height: mode.height, rotation: crtc.rotation)
        == crtc.rect
    else { return false }
    return CrtcState(crtc) == CrtcState(change, mode: change.mode)
  }

  /// Whether `mode` on the change's CRTC, at its place, turned and scaled, ends within the
  /// server's largest screen.
  private func fits(_ mode: Mode, _ change: CrtcChange) -> Bool {
    guard
      let rect = change.transform.footprint(
        x: change.x, y: change.y, width: mode.width, height: mode.height, rotation: change.rotation)
    else { return false }
    let (right, wide) = rect.x.addingReportingOverflow(rect.width)
    let (bottom, tall) = rect.y.addingReportingOverflow(rect.height)
    return !wide && !tall && topology.screen.holds(right, bottom)
  }

  /// The largest mode every output of the change lists that fits (`fits`), nil when none.
  private func largestFitting(_ change: CrtcChange) -> Mode? {
    let outputs = change.outputs.compactMap(topology.output)
    guard let first = outputs.first else { return nil }
    let shared = topology.modes(of: first).filter { mode in outputs.allSatisfy { $0.modes.contains(mode.id) } }
    return shared.filter { fits($0, change) }.max { a, b in
      (a.width.multipliedReportingOverflow(by: a.height).partialValue, a.refreshHz)
        < (b.width.multipliedReportingOverflow(by: b.height).partialValue, b.refreshHz)
    }
  }
}
