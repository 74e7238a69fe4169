import DisplayX11

@testable import DisplayModel

/// Chooses a monitor's mode: the rule's request if the output has it, else its preferred
/// mode, else its largest. A monitor is never left dark because a rule names a mode it lacks.
enum ModePolicy {
  /// Modes to try in order (the first is the choice; the rest are fallbacks should the server
  /// refuse it), and a warning when the request could not be met. With `custom`, a request
  /// the output lacks gets a mode displayd makes (`CustomModes`), possibly one still to be
  /// created under a virtual id. Modes displayd made are candidates only for such a request,
  /// so one no longer asked for stops being shown and is released. On a server that makes any
  /// size (`Output.takesAnySize`, wlroots) a size and rate it does not list is asked for as
  /// it is (`CustomModes.asked`), as with `custom`.
  static func candidates(
    _ request: ModeRequest, custom: CustomModeRequest? = nil, for output: Output, in topology: Topology
  ) -> (modes: [Mode], warning: PlanWarning?) {
    let all = topology.modes(of: output).filter { !$0.name.hasPrefix(CustomModes.prefix) }
    let preferred = output.preferredModes.first.flatMap { topology.modes[$0] }
    let largest = ModeChoice.largest(all)
    var requested = ModeChoice.requested(
      request, in: all, preferred: preferred, largest: largest, current: topology.currentMode(of: output),
      anySize: output.takesAnySize)
    var customWarning: PlanWarning?
    var custom = custom
    // A server that makes any size is asked for the size itself (a `custom: true` too); only
    // a modeline keeps its own timings.
    if requested == nil, output.takesAnySize, !isModeline(custom) {
      (requested, customWarning) = CustomModes.asked(request, for: output, in: topology)
      custom = nil
    }
    if let custom {
      let (made, why) = madeMode(request, custom, output, topology, listed: all)
      if let made { requested = made }
      customWarning = why
    }
    let chain = ModeChoice.chain([requested, preferred, largest], all, key: \.id)
    let warning = ModeChoice.warning(
      output.name, request, met: requested != nil, using: chain.first?.label, custom: customWarning)
    return (chain, warning)
  }

  /// Whether the request gives its own timings (they are kept even where any size is made).
  static func isModeline(_ custom: CustomModeRequest?) -> Bool { ModeChoice.isModeline(custom) }

  /// For a custom request: the listed mode with the modeline's timings, else nothing when a
  /// listed mode meets a CVT request, else the mode displayd makes.
  static func madeMode(
    _ request: ModeRequest, _ custom: CustomModeRequest, _ output: Output, _ topology: Topology, listed: [Mode]
  ) -> (Mode?, PlanWarning?) {
    if case .modeline(let line) = custom {
      let wanted = line.mode(id: ModeID(rawValue: 0), name: "")
      if let own = listed.first(where: { $0.sameTimings(as: wanted) }) { return (own, nil) }
      // A server that makes sizes lists what it made by size and rate alone (to the mHz).
      let same = { (m: Mode) in m.width == wanted.width && m.height == wanted.height }
      if output.takesAnySize,
        let own = listed.first(where: { same($0) && abs($0.refreshHz - wanted.refreshHz) < 0.001 })
      {
        return (own, nil)
      }
    } else if candidates(request, for: output, in: topology).warning == nil {
      return (nil, nil)
    }
    return CustomModes.resolve(request, custom, for: output, in: topology)
  }
}
