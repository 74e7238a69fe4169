import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayX11

/// What a plan does to a server, CRTC by CRTC, in the terms that matter to it: the changes
/// that change something (a change already in force sends nothing), each with its mode (a
/// listed mode by id, a made one by name and timings), place, rotation, outputs (a set: RandR
/// drives clones alike), fallbacks and transform; the screen afterwards, its millimetres and
/// the primary. Warnings, `configures` and `dpi` are the daemon's, not the server's.
struct PlanEffect: Equatable, CustomStringConvertible {
  struct Change: Equatable {
    var mode: String?
    var x: Int
    var y: Int
    var rotation: Rotation
    var outputs: Set<OutputID>
    var fallbacks: [String]
    var transform: CrtcTransform
  }

  var changes: [CrtcID: Change] = [:]
  var screen: [Int]
  var millimetres: [Int]?
  var primary: OutputID?

  init(_ plan: Plan, _ t: Topology) {
    let key = { (id: ModeID) -> String in
      guard CustomModes.isVirtual(id) else { return "\(id.rawValue)" }
      return plan.customModes[id].map { "\($0.name) \(ModeLine($0))" } ?? "missing \(id.rawValue)"
    }
    for change in plan.changes where !Self.inForce(change, plan, t) {
      // An off CRTC has no place, turn or transform.
      guard change.mode != nil else {
        changes[change.crtc] = Change(
          mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], fallbacks: [], transform: .identity)
        continue
      }
      changes[change.crtc] = Change(
        mode: change.mode.map(key), x: change.x, y: change.y, rotation: change.rotation, outputs: Set(change.outputs),
        fallbacks: change.fallbacks.map(key), transform: change.transform)
    }
    screen = plan.screen.map { [$0.width, $0.height] } ?? [t.screen.width, t.screen.height]
    millimetres = plan.screenMillimetres.map { [$0.width, $0.height] }
    primary = plan.primary ?? t.primary
  }

  /// Whether the server's CRTC already shows this (its size stands for its transform, which a
  /// snapshot does not carry), or it turns off a CRTC that is off.
  static func inForce(_ change: CrtcChange, _ plan: Plan, _ t: Topology) -> Bool {
    guard let crtc = t.crtc(change.crtc) else { return false }
    guard let id = change.mode else { return !crtc.isActive }
    guard let mode = plan.mode(id, in: t), let size = mode.footprint(change.rotation, change.transform) else {
      return false
    }
    return crtc.mode == id && (crtc.x, crtc.y, crtc.rotation) == (change.x, change.y, change.rotation)
      && Set(crtc.outputs) == Set(change.outputs) && (crtc.width, crtc.height) == size
  }

  var description: String {
    let lines = changes.sorted { $0.key.rawValue < $1.key.rawValue }.map { id, c in
      "crtc \(id.rawValue): \(c.mode ?? "off") at \(c.x),\(c.y) \(c.rotation.rawValue) outputs "
        + "\(c.outputs.map(\.rawValue).sorted()) fallbacks \(c.fallbacks) \(c.transform.matrix) \(c.transform.filter)"
    }
    return (lines + ["screen \(screen) mm \(millimetres ?? []) primary \(primary?.rawValue ?? 0)"])
      .joined(separator: "\n")
  }
}

/// What every output shows after a plan, whichever CRTC shows it: its mode, area, turn, the
/// outputs beside it on its CRTC, the fallbacks and transform it was set with.
struct PlanLayout: Equatable {
  var outputs: [OutputID: [String]] = [:]
  var screen: [Int]
  var millimetres: [Int]?
  var primary: OutputID?

  init(_ plan: Plan, _ t: Topology) {
    let after = t.after(plan)
    for output in after.outputs {
      guard let crtc = after.activeCrtc(of: output) else { continue }
      let change = plan.changes.first { $0.crtc == crtc.id && $0.mode != nil }
      let mode = crtc.mode.flatMap { plan.mode($0, in: t) }.map { "\($0.name) \(ModeLine($0))" } ?? "?"
      let fallbacks = change?.fallbacks.compactMap { plan.mode($0, in: t)?.name } ?? []
      outputs[output.id] =
        [mode, "\(crtc.rect)", "\(crtc.rotation.rawValue)", "\(Set(crtc.outputs))", "\(fallbacks)"]
        + ["\(change?.transform ?? .identity)"]
    }
    screen = [after.screen.width, after.screen.height]
    millimetres = plan.screenMillimetres.map { [$0.width, $0.height] }
    primary = after.primary
  }
}

enum PlanRoundTrip {
  /// Why `plan` does not survive the round trip through the port (the bridge's configuration,
  /// planned again by the RandR backend on `t`); nil when both plans do the same. With
  /// `otherCrtcs`, the same layout on other CRTCs counts as the same.
  static func difference(_ plan: Plan, _ t: Topology, otherCrtcs: Bool = false) -> String? {
    guard !plan.isEmpty, !outgrowsItsScreen(plan, t) else { return nil }
    guard let configuration = OutputConfiguration(plan: plan, in: t) else { return "the bridge made no configuration" }
    switch RandRConfigurationPlanner(t).plan(configuration) {
    case .failure(let refusal): return "refused: \(refusal.reason)\nconfiguration: \(configuration)"
    case .success(let planned):
      let (want, got) = (PlanEffect(plan, t), PlanEffect(planned.plan, t))
      if otherCrtcs && want != got && PlanLayout(plan, t) == PlanLayout(planned.plan, t) { return nil }
      let raw = plan.changes.map { "\($0.crtc.rawValue) \($0.mode?.rawValue ?? 0) \($0.outputs.map(\.rawValue))" }
      return want == got
        ? nil : "planned:\n\(want)\nround trip:\n\(got)\nchanges: \(raw)\nconfiguration: \(configuration)"
    }
  }

  /// Whether a CRTC lit after `plan` lies beyond the screen it sets: a plan the server
  /// refuses (XRRSetScreenSize: BadMatch), with no one meaning to carry over. The rules
  /// planner makes such plans when it leaves a lit monitor for which no mode fits as it is
  /// but sizes the screen without it; the backend sizes the screen to hold every lit CRTC.
  static func outgrowsItsScreen(_ plan: Plan, _ t: Topology) -> Bool {
    let after = t.after(plan)
    return after.crtcs.contains { crtc in
      crtc.isActive && (crtc.x + crtc.width > after.screen.width || crtc.y + crtc.height > after.screen.height)
    }
  }

  /// Records an issue when `plan` does not survive the round trip.
  static func expectSame(
    _ plan: Plan, _ t: Topology, _ what: String, otherCrtcs: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if let difference = difference(plan, t, otherCrtcs: otherCrtcs) {
      Issue.record("\(what): the round trip through the port differs\n\(difference)", sourceLocation: sourceLocation)
    }
  }
}
