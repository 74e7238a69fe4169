import DisplayModel

extension RandRConfigurationPlanner {
  /// Turns off, or takes outputs off, the CRTCs the plan does not set that drive heads the
  /// configuration turns off or lights on another CRTC; a CRTC that also drives outputs the
  /// configuration leaves alone keeps them.
  func release(_ entries: [Entry], _ work: inout Work) {
    let set = Set(work.plan.changes.map(\.crtc))
    let off = Set(entries.filter { !$0.head.enabled }.map(\.output.id))
    let moved = Set(work.plan.changes.filter { $0.mode != nil }.flatMap(\.outputs))
    for crtc in topology.crtcs where crtc.isActive && !set.contains(crtc.id) {
      let leaving = crtc.outputs.filter { off.contains($0) || moved.contains($0) }
      guard !leaving.isEmpty else { continue }
      let kept = crtc.outputs.filter { !leaving.contains($0) }
      let names = leaving.compactMap { topology.output($0)?.name }
      work.names[crtc.id] = names
      work.plan.changes.append(
        CrtcChange(
          crtc: crtc.id, mode: kept.isEmpty ? nil : crtc.mode, x: crtc.x, y: crtc.y, rotation: crtc.rotation,
          outputs: kept, fallbacks: [], outputName: names.joined(separator: ","),
          transform: kept.isEmpty ? .identity : crtc.transform))
    }
  }

  /// The screen that holds every CRTC lit afterwards, at least the server's minimum; refused
  /// beyond its maximum or X's 16-bit coordinates.
  func sizeScreen(_ work: inout Work) {
    fitDefaultModes(&work)
    let changed = Set(work.plan.changes.map(\.crtc))
    var rects = topology.crtcs.filter { $0.isActive && !changed.contains($0.id) }.map(\.rect)
    for change in work.plan.changes {
      guard let id = change.mode, let mode = work.plan.mode(id, in: topology),
        let rect = change.transform.footprint(
          x: change.x, y: change.y, width: mode.width, height: mode.height, rotation: change.rotation)
      else { continue }
      rects.append(rect)
    }
    let screen = topology.screen
    let width = max(screen.minWidth, 1, rects.map { $0.x.addingReportingOverflow($0.width).partialValue }.max() ?? 0)
    let height = max(screen.minHeight, 1, rects.map { $0.y.addingReportingOverflow($0.height).partialValue }.max() ?? 0)
    guard screen.holds(width, height) else {
      let largest = screen.largest
      work.problems.append(
        .screenTooLarge(width: width, height: height, maxWidth: largest.width, maxHeight: largest.height))
      return
    }
    if (width, height) != (screen.width, screen.height) { work.plan.screen = (width, height) }
  }
}
