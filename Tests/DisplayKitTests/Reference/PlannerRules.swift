import DisplayX11

@testable import DisplayModel

/// Where an output that is on goes in the RandR-shaped reference rule planner (`Planner`):
/// its CRTC, modes (the first is the choice), rotation and transform.
struct Target {
  var crtc: Crtc
  var modes: [Mode]
  var rotation: Rotation
  var transform = CrtcTransform.identity
  /// Whether a rule gives a `scale`: then the CRTC's size must match too.
  var scaled = false
}

// The layout keys of `monitors` rules: `enabled`, `scale`, `primary`, and what they cannot do
// for main.
extension Planner {
  /// The rule's scale in 16.16 fixed point, as `xrandr --scale` rounds it; 1 where the rule
  /// gives none, and (with a warning) where the CRTC takes no transforms.
  func fixedScale(_ output: Output, _ settings: MonitorSettings, _ crtc: Crtc, _ warnings: inout [PlanWarning]) -> Int {
    guard let scale = settings.scale else { return FixedScale.one }
    let fixed = FixedScale.fixed(scale)
    guard fixed == FixedScale.one || !noTransform.contains(crtc.id) else {
      warnings.append(.noTransform(output: output.name, scale: scale))
      return FixedScale.one
    }
    return fixed
  }

  /// `changes` with the outputs in `disabled` taken off their CRTCs: a CRTC left driving no
  /// connected output is turned off.
  func turningOff(_ disabled: Set<OutputID>, in changes: [CrtcChange]) -> [CrtcChange] {
    guard !disabled.isEmpty else { return changes }
    var result = changes
    let keeps = { (id: OutputID) in !disabled.contains(id) && self.topology.output(id)?.isConnected == true }
    for crtc in topology.crtcs where crtc.isActive && crtc.outputs.contains(where: disabled.contains) {
      let index =
        result.firstIndex { $0.crtc == crtc.id }
        ?? {
          result.append(
            CrtcChange(
              crtc: crtc.id, mode: crtc.mode, x: crtc.x, y: crtc.y, rotation: crtc.rotation, outputs: crtc.outputs,
              fallbacks: [], outputName: crtc.outputs.compactMap { topology.output($0)?.name }.joined(separator: ","),
              transform: crtc.transform))
          return result.count - 1
        }()
      result[index].outputs = result[index].outputs.filter(keeps)
      if result[index].outputs.isEmpty {
        (result[index].mode, result[index].x, result[index].y, result[index].rotation) = (nil, 0, 0, .normal)
        result[index].fallbacks = []
      }
    }
    return result
  }

  /// The output a rule makes primary (`primary: true`; the first such when several ask), nil
  /// when it already is. When the primary output is turned off and none asks, main takes
  /// its place.
  func primary(
    _ pending: [(output: Output, settings: MonitorSettings)], targets: [OutputID: Target],
    disabled: Set<OutputID>, main: Output?, _ warnings: inout [PlanWarning]
  ) -> OutputID? {
    let asking = pending.filter(\.settings.primary).map(\.output)
    var wanted: OutputID?
    if let first = asking.first {
      if asking.count > 1 {
        warnings.append(.primaryContested(outputs: asking.map(\.name), chosen: first.name))
      }
      if targets[first.id] != nil {
        wanted = first.id
      } else {
        warnings.append(.primaryOff(output: first.name))
      }
    } else if let current = topology.primary, disabled.contains(current), let main,
      topology.geometry(of: main) != nil
    {
      wanted = main.id
    }
    return wanted == topology.primary ? nil : wanted
  }

  /// What the rule matching main asks that the per-monitor planner never does to main.
  func mainWarnings(_ main: Output?) -> [PlanWarning] {
    guard let main, let settings = config.settings(for: main) else { return [] }
    var asked: [String] = []
    if !settings.enabled { asked.append("enabled: false") }
    if settings.transform != nil { asked.append("rotate/reflect") }
    if settings.scale != nil { asked.append("scale") }
    if settings.primary && topology.primary != main.id { asked.append("primary") }
    guard !asked.isEmpty else { return [] }
    return [.mainLeftAsIs(output: main.name, asked: asked)]
  }

  /// Whether the plan would leave no connected desktop output lit where one is connected.
  func leavesDark(_ plan: ReferencePlan) -> Bool { topology.leavesDark(plan.plan) }
}
