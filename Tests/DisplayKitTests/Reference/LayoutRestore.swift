import DisplayX11

@testable import DisplayModel

/// Putting back, over RandR's outputs and CRTCs, the layout automatic choice had before a
/// layout was chosen by hand: the RandR-shaped reference `HeadLayoutRestore` is pinned
/// against in the differential tests. Pure.
enum LayoutRestore {
  /// The plan that gives every monitor still present (same connector, same EDID) the CRTC,
  /// mode, place and rotation it had in `saved`, turns off those that were off, gives the
  /// primary back, and the physical size when the screen comes back to its old size.
  /// Monitors that `saved` did not know keep what they have (automatic choice arranges them
  /// next), and so do known ones whose old CRTC or mode is gone. Transforms come back as the
  /// identity: a snapshot carries none, and the automatic reconcile that follows sets the
  /// scales it wants again. Never a dark desk: nothing lit afterwards is an empty plan.
  /// Outputs in `keptOff` (a panel whose lid is closed) are not lit again: the lid policy
  /// would turn them off at once, a second resize.
  static func plan(saved: Topology, now: Topology, keptOff: Set<OutputID> = []) -> ReferencePlan {
    let same = Set(
      now.connectedOutputs.filter { o in saved.output(o.id).map { $0.isConnected && $0.edid == o.edid } ?? false }
        .map(\.id)
    ).subtracting(keptOff)
    let wanted = wantedCrtcs(saved, now, same)
    let restored = Set(wanted.values.flatMap(\.change.outputs))
    var plan = ReferencePlan()
    var lit: [Rect] = []
    var sets: [CrtcChange] = []
    for c in now.crtcs {
      if let (change, rect) = wanted[c.id] {
        lit.append(rect)
        let unchanged =
          c.mode == change.mode && (c.x, c.y) == (change.x, change.y) && c.rotation == change.rotation
          && Set(c.outputs) == Set(change.outputs) && (c.width, c.height) == (rect.width, rect.height)
        if !unchanged { sets.append(change) }
      } else if c.isActive {
        // Monitors `saved` had off go off; those it had on another CRTC move there.
        let stays = { (id: OutputID) in !restored.contains(id) && saved.geometry(ofID: id) != nil }
        let keep = c.outputs.filter { !same.contains($0) || stays($0) }
        if !keep.isEmpty { lit.append(c.rect) }
        if keep.count != c.outputs.count { plan.changes.append(leaving(c, keep, now)) }
      }
    }
    // CRTCs going off or giving up outputs first, as the profile planner orders them.
    plan.changes += sets
    plan.configures = restored
    guard !lit.isEmpty else { return ReferencePlan() }
    return screen(plan, lit, saved, now, restored)
  }

  /// Each CRTC `saved` had lit with monitors still present, as it was, and the rectangle it
  /// will cover (its mode, sides swapped when turned a quarter).
  static func wantedCrtcs(_ saved: Topology, _ now: Topology, _ same: Set<OutputID>) -> [CrtcID: (
    change: CrtcChange, rect: Rect
  )] {
    var wanted: [CrtcID: (change: CrtcChange, rect: Rect)] = [:]
    for c in saved.crtcs where c.isActive {
      guard let mode = c.mode, let m = now.modes[mode], now.crtc(c.id) != nil else { continue }
      let outputs = c.outputs.filter { id in same.contains(id) && now.output(id)?.modes.contains(mode) == true }
      guard !outputs.isEmpty else { continue }
      let names = outputs.compactMap { now.output($0)?.name }.joined(separator: ",")
      let (w, h) = c.rotation.turned(m.width, m.height)
      let change = CrtcChange(
        crtc: c.id, mode: mode, x: c.x, y: c.y, rotation: c.rotation, outputs: outputs, fallbacks: [],
        outputName: names)
      wanted[c.id] = (change, Rect(x: c.x, y: c.y, width: w, height: h))
    }
    return wanted
  }

  /// The CRTC as it is with only `keep` on it: off when that is none.
  static func leaving(_ c: Crtc, _ keep: [OutputID], _ now: Topology) -> CrtcChange {
    let name = c.outputs.compactMap { now.output($0)?.name }.joined(separator: ",")
    guard !keep.isEmpty else {
      return CrtcChange(
        crtc: c.id, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], fallbacks: [], outputName: name)
    }
    return CrtcChange(
      crtc: c.id, mode: c.mode, x: c.x, y: c.y, rotation: c.rotation, outputs: keep, fallbacks: [], outputName: name)
  }

  /// The plan with the screen that holds `lit`, the physical size `saved` had when the
  /// screen comes back to its size, and its primary; refused past the server's maximum.
  static func screen(
    _ plan: ReferencePlan, _ lit: [Rect], _ saved: Topology, _ now: Topology, _ restored: Set<OutputID>
  ) -> ReferencePlan {
    var plan = plan
    let w = max(now.screen.minWidth, lit.map { $0.x + $0.width }.max() ?? 0)
    let h = max(now.screen.minHeight, lit.map { $0.y + $0.height }.max() ?? 0)
    guard now.screen.holds(w, h) else {
      var refused = ReferencePlan()
      refused.warnings = [.restoreTooLarge(width: w, height: h)]
      return refused
    }
    if (w, h) != (now.screen.width, now.screen.height) { plan.screen = (w, h) }
    if (w, h) == (saved.screen.width, saved.screen.height),
      (saved.screen.mmWidth, saved.screen.mmHeight) != (now.screen.mmWidth, now.screen.mmHeight)
    {
      plan.screenMillimetres = (saved.screen.mmWidth, saved.screen.mmHeight)
    }
    if let p = saved.primary, restored.contains(p), p != now.primary { plan.primary = p }
    return plan
  }
}

extension Topology {
  /// The rectangle the output with this id covers, nil when it is off or unknown.
  func geometry(ofID id: OutputID) -> Rect? { output(id).flatMap { geometry(of: $0) } }
}
