import DisplayModel

extension RandROutputManager {
  /// What the applier did, as the port reports it: the heads of each CRTC set, in the order
  /// the server set them (every one turned off before any is lit), at the mode it took or
  /// off; those already in force; when it failed and put everything back, the changes that
  /// failed and the other problems; the screen's size when it changed; the warnings (the
  /// plan's, such as a default mode given way to a smaller one, then the applier's). Nothing
  /// was set for a stale plan or one the applier refused unsent.
  static func report(_ outcome: ApplyOutcome, _ planned: PlannedConfiguration, _ topology: Topology) -> ApplyReport {
    guard !outcome.stale, outcome.refused == nil else { return ApplyReport(warnings: outcome.warnings) }
    let heads = { (change: CrtcChange) in planned.crtcNames[change.crtc] ?? [change.outputName] }
    let entry = { (change: CrtcChange, mode: ModeID?) in Self.entry(change, mode, heads(change), planned, topology) }
    return ApplyReport(
      entries: outcome.applied.map { entry($0.change, $0.mode) }, deskSize: outcome.screen,
      warnings: planned.warnings.map(\.description) + outcome.warnings, sequential: true,
      unchanged: outcome.unchanged.map { entry($0, $0.mode) },
      failed: outcome.failed.map {
        ApplyReport.Failure(heads: heads($0.change), enabled: $0.change.mode != nil, reason: $0.reason)
      },
      problems: outcome.problems)
  }

  /// One CRTC's heads at the mode the server took, or off.
  private static func entry(
    _ change: CrtcChange, _ id: ModeID?, _ heads: [String], _ planned: PlannedConfiguration, _ topology: Topology
  ) -> ApplyReport.Entry {
    guard let id else { return ApplyReport.Entry(heads: heads, mode: nil, modeLabel: nil, x: change.x, y: change.y) }
    let asked = [change.mode].compactMap { $0 } + change.fallbacks
    // An id the change did not name is a custom mode the apply made (or found by its name):
    // the daemon's snapshot has no id for it, so the report carries the server's. Its timings
    // are those of the first custom mode the change asks (when the server did not list it).
    let made = !asked.contains(id)
    let mode =
      planned.plan.mode(id, in: topology)
      ?? asked.lazy.filter(CustomModes.isVirtual).compactMap { planned.plan.customModes[$0] }.first
    let shown = mode.map {
      HeadMode(
        width: $0.width, height: $0.height, refreshMilliHz: RandRHeadValues.refreshMilliHz($0),
        interlaced: $0.isInterlaced, custom: $0.name.hasPrefix(CustomModes.prefix))
    }
    return ApplyReport.Entry(
      heads: heads, mode: shown, modeLabel: mode?.label ?? id.description, modeName: mode?.name,
      madeMode: made ? UInt64(exactly: id.rawValue) : nil, x: change.x, y: change.y)
  }
}
