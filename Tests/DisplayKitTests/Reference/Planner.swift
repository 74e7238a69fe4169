import DisplayX11

@testable import DisplayModel

/// The rule planner over RandR's outputs and CRTCs: the RandR-shaped reference `HeadPlanner`
/// is pinned against in the differential tests (random desks planned both ways must agree).
///
/// Desired state from actual state: which connected external outputs need a CRTC, a mode and
/// a place, and which CRTCs still drive monitors that are gone. A rule's `enabled: false`
/// turns its output off (never the last one lit), `rotate`/`reflect` what the CRTC can do of
/// them (none for outputs in `noRotation`), `scale` a transform (none on CRTCs in
/// `noTransform`), `primary` the RandR primary. Pure.
struct Planner {
  var topology: Topology
  var config: Config
  /// CRTCs known to refuse transforms (`RRSetCrtcTransform` answered BadValue): a `scale` on
  /// them falls back to 1 with a warning.
  var noTransform: Set<CrtcID>
  /// Outputs whose CRTC refused the rotation asked (the server's answer to an apply): planned
  /// unrotated.
  var noRotation: Set<OutputID>
  /// Main, lit and not settled, is planned too, for its mode alone (where it is, as it is
  /// turned): the daemon asks this for a main it lit itself whose rule now gives another mode.
  var replanningMain = false

  init(topology: Topology, config: Config, noTransform: Set<CrtcID> = [], noRotation: Set<OutputID> = []) {
    self.topology = topology
    self.config = config
    self.noTransform = noTransform
    self.noRotation = noRotation
  }

  /// Plans for the outputs not in `settled` (outputs the daemon configured before and now
  /// leaves as they are, so its own changes and a user's later ones cause no loops). When
  /// the rules' `enabled: false` would leave no output lit, those outputs stay on as they
  /// are, with a warning, and are not counted as configured (never a dark desk).
  func plan(settled: Set<OutputID>) -> ReferencePlan {
    let plan = arrange(settled: settled)
    let main = config.mainOutput(in: topology)
    let offs = pending(settled, main: main).filter { !$0.settings.enabled && topology.geometry(of: $0.output) != nil }
    guard !offs.isEmpty, leavesDark(plan) else { return plan }
    var kept = arrange(settled: settled.union(offs.map(\.output.id)))
    kept.warnings.append(.keptOn(outputs: offs.map(\.output.name)))
    return kept
  }

  /// The connected outputs to plan for, with their settings: not main (but a dark main,
  /// first, settled or not: never a dark desk; and a main `replanningMain` asks for, with
  /// only its mode from the rule), not settled, not non-desktop, not ignored.
  func pending(_ settled: Set<OutputID>, main: Output?) -> [(output: Output, settings: MonitorSettings)] {
    let darkMain = main.map { topology.geometry(of: $0) == nil } ?? false
    let outputs = topology.connectedOutputs.compactMap { output -> (output: Output, settings: MonitorSettings)? in
      let isMain = output.id == main?.id
      let replanned = isMain && replanningMain && !settled.contains(output.id)
      guard !isMain || darkMain || replanned, isMain || !settled.contains(output.id), !output.nonDesktop,
        var settings = config.settings(for: output)
      else { return nil }
      if replanned, let crtc = topology.activeCrtc(of: output) {
        // The layout keys are not applied to main (`mainWarnings`): its mode alone changes.
        settings.position = .absolute(x: crtc.x, y: crtc.y)
        (settings.transform, settings.scale, settings.primary, settings.enabled) = (nil, nil, false, true)
      }
      return (output, settings)
    }
    return outputs.filter { $0.output.id == main?.id } + outputs.filter { $0.output.id != main?.id }
  }

  func arrange(settled: Set<OutputID>) -> ReferencePlan {
    var plan = ReferencePlan()
    let main = config.mainOutput(in: topology)
    let pending = pending(settled, main: main)
    var rects: [OutputID: Rect] = [:]
    for output in topology.connectedOutputs where !pending.contains(where: { $0.output.id == output.id }) {
      if let r = topology.geometry(of: output) { rects[output.id] = r }
    }
    var targets: [OutputID: Target] = [:]
    var crtcs = CrtcAllocator(topology)
    for (output, settings) in pending {
      // Main is dark only when no connected output is lit: it is lit, whatever the rule says
      // (never a dark desk).
      guard settings.enabled || output.id == main?.id else {
        plan.configures.insert(output.id)
        continue
      }
      guard let target = target(output, settings, main: main, rects: &rects, crtcs: &crtcs, &plan.warnings)
      else { continue }
      targets[output.id] = target
      plan.configures.insert(output.id)
    }
    normalize(&rects)
    let disabled = Set(pending.filter { !$0.settings.enabled && $0.output.id != main?.id }.map(\.output.id))
    plan.changes = turningOff(disabled, in: changes(rects: rects, targets: targets)) + releases()
    plan.customModes = CustomModes.collect(targets.values.map(\.modes))
    plan.screen = screenSize(rects: rects, changed: !plan.changes.isEmpty, warnings: &plan.warnings)
    plan.primary = primary(pending, targets: targets, disabled: disabled, main: main, &plan.warnings)
    plan.warnings += mainWarnings(main)
    return plan
  }

  /// A CRTC, modes, rotation and transform for an output that is on, and its place in
  /// `rects`; nil (with a warning) when it has no modes, no CRTC or no room.
  func target(
    _ output: Output, _ settings: MonitorSettings, main: Output?, rects: inout [OutputID: Rect],
    crtcs: inout CrtcAllocator, _ warnings: inout [PlanWarning]
  ) -> Target? {
    let (modes, warning) = ModePolicy.candidates(settings.mode, custom: settings.custom, for: output, in: topology)
    if let warning { warnings.append(warning) }
    guard !modes.isEmpty else {
      warnings.append(.noModes(output: output.name, leftOff: false))
      return nil
    }
    guard let crtc = crtcs.crtc(for: output) else {
      warnings.append(.cannotLight(output: output.name, leftOff: false))
      return nil
    }
    var rotation = topology.activeCrtc(of: output)?.rotation ?? .normal
    if noRotation.contains(output.id) {
      rotation = .normal
    } else if let wanted = settings.transform {
      let fit = crtc.fit(Rotation(wanted, settings.transformSpelling))
      rotation = fit.rotation
      warnings += Crtc.fitWarnings(output.name, fit.problems)
    }
    let fixed = fixedScale(output, settings, crtc, &warnings)
    // Down the mode chain until the whole layout fits the server's maximum screen.
    guard let (index, rect) = firstFitting(modes, rotation, fixed, settings.position, main: main, rects: rects) else {
      let largest = topology.screen.largest
      warnings.append(.noModeFits(output: output.name, maxWidth: largest.width, maxHeight: largest.height))
      if output.crtc != crtc.id { crtcs.giveBack(crtc.id) }
      return nil
    }
    if index > 0 {
      warnings.append(.modeTooLarge(output: output.name, mode: modes[0].name, instead: modes[index].name))
    }
    rects[output.id] = rect
    let chosen = modes[index]
    // A few fallbacks, no larger than the choice: each is a round trip under the grab.
    let fallbacks = modes[(index + 1)...].filter { $0.width <= chosen.width && $0.height <= chosen.height }
    return Target(
      crtc: crtc, modes: [chosen] + fallbacks.prefix(Self.maxFallbacks), rotation: rotation,
      transform: FixedScale.transform(fixed, fixed, settings.scaleFilter), scaled: settings.scale != nil)
  }

  /// Modes tried after the chosen one when the server refuses it: as many as the heads
  /// planner tries.
  static let maxFallbacks = HeadPlanner.maxFallbacks

  /// The first of `modes` whose place keeps every monitor inside the maximum screen (after
  /// the shift that a place left of or above the origin causes), with its index and rectangle.
  /// `fixed` is the scale in 16.16 fixed point: the area shown is the turned mode times it.
  func firstFitting(
    _ modes: [Mode], _ rotation: Rotation, _ fixed: Int, _ position: PositionRequest, main: Output?,
    rects: [OutputID: Rect]
  ) -> (Int, Rect)? {
    let transform = FixedScale.transform(fixed, fixed)
    for (index, mode) in modes.enumerated() {
      guard let size = mode.footprint(rotation, transform), size.width > 0, size.height > 0 else { continue }
      let origin = place(size, position, main: main, rects: rects)
      let rect = Rect(x: origin.x, y: origin.y, width: size.0, height: size.1)
      let all = Array(rects.values) + [rect]
      let x0 = min(0, all.map(\.x).min() ?? 0)
      let y0 = min(0, all.map(\.y).min() ?? 0)
      let x1 = all.map { $0.x + $0.width }.max() ?? 0
      let y1 = all.map { $0.y + $0.height }.max() ?? 0
      if topology.screen.holds(x1 - x0, y1 - y0) { return (index, rect) }
    }
    return nil
  }
}
