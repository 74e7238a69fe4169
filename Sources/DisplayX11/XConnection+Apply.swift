import CXrandr
import DisplayModel

extension XConnection {
  /// Applies a plan in one server grab, all or nothing, in this order: transforms offered
  /// (pending until their CRTC is set), CRTCs turned off (those the plan turns off, and those
  /// whose outputs move), the screen grown to the union of the old and new sizes, every CRTC
  /// set (mode, position, rotation and reflection; the next candidate mode when the server
  /// refuses one), the screen shrunk to the plan's size with its millimetres, the primary
  /// output. Then everything set is read back and compared with the plan.
  ///
  /// Changes already in force send nothing. On any failure (a refused request, a read-back that
  /// differs) everything is put back as `topology`, the snapshot the plan was made from, had it
  /// (CRTCs, transforms, screen size and millimetres, primary), and the rollback is read back
  /// too (`notRestored`). Nothing at all is sent for a plan made on a snapshot the server's
  /// timestamps no longer match (`stale`), that would leave no connected output lit, or that
  /// asks for rotations the CRTCs cannot do (`refused`).
  ///
  /// The millimetres: the plan's `screenMillimetres`; else, when the size changes, the old
  /// vertical DPI kept, as xrandr does; else unchanged. They are taken from the snapshot, which
  /// has them from Xlib (kept current by RRScreenChangeNotify), since RandR cannot read them.
  public func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome {
    var outcome = ApplyOutcome()
    guard !plan.isEmpty else { return outcome }
    if let refusal = Self.refusal(of: plan, in: topology) {
      outcome.refused = refusal.reason
      outcome.rotationRefused = refusal.rotations
      return outcome
    }
    XGrabServer(display)
    defer {
      XUngrabServer(display)
      XFlush(display)
    }
    let resources = ScreenResources(self)
    guard let res = resources.pointer,
      UInt(res.pointee.configTimestamp) == topology.configTimestamp, UInt(res.pointee.timestamp) == topology.timestamp
    else {
      try checkAlive()
      outcome.stale = true
      return outcome
    }
    outcome = PlanRun(self, plan: plan, topology: topology, resources: resources).run()
    try checkAlive()
    return outcome
  }

  /// Why `plan` must not be sent at all, checked before any request: it leaves no connected
  /// output lit where one is connected, or asks a CRTC for a rotation it cannot do.
  static func refusal(of plan: Plan, in topology: Topology) -> (reason: String, rotations: Set<CrtcID>)? {
    var rotations: Set<CrtcID> = []
    var reasons: [String] = []
    for change in plan.changes {
      guard change.mode != nil, let crtc = topology.crtc(change.crtc), !crtc.rotations.contains(change.rotation)
      else { continue }
      rotations.insert(change.crtc)
      reasons.append(
        "\(change.outputName): its CRTC cannot do \(rotationWords(change.rotation)), only \(rotationWords(crtc.rotations))"
      )
    }
    if topology.leavesDark(plan) { reasons.insert("it would leave no connected output lit", at: 0) }
    return reasons.isEmpty ? nil : (reasons.joined(separator: "; "), rotations)
  }
}

/// A rotation set in xrandr's words: "left, reflect x".
func rotationWords(_ rotation: Rotation) -> String {
  let names: [(Rotation, String)] = [
    (.normal, "normal"), (.left, "left"), (.inverted, "inverted"), (.right, "right"), (.reflectX, "reflect x"),
    (.reflectY, "reflect y"),
  ]
  let listed = names.filter { rotation.contains($0.0) }.map(\.1)
  return listed.isEmpty ? "nothing" : listed.joined(separator: ", ")
}
