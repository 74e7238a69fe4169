import DisplayModel

/// The modes displayd makes on an X server, over its topology: resolved for an output that
/// lacks one, asked for as they are, found unused to release.
extension CustomModes {
  /// The mode an output gets for a custom request it lacks: a mode displayd made before with
  /// these timings (the output's own first: then nothing is to be created), else the wanted
  /// mode under a virtual id, for the apply to create. nil (with a warning) when it cannot be
  /// made: timings RandR cannot carry, or larger than the server's maximum screen.
  public static func resolve(
    _ request: ModeRequest, _ custom: CustomModeRequest, for output: Output, in topology: Topology
  ) -> (mode: Mode?, warning: PlanWarning?) {
    guard let wanted = wanted(request, custom) else {
      if case .cvt = custom, request == .preferred || request == .highest || request == .keep { return (nil, nil) }
      return (nil, .customTimingsUnfit(output: output.name, request: request))
    }
    let screen = topology.screen
    if screen.maxWidth > 0 && screen.maxHeight > 0
      && (wanted.width > screen.maxWidth || wanted.height > screen.maxHeight)
    {
      let warning = PlanWarning.customTooLarge(
        output: output.name, mode: wanted.name, width: wanted.width, height: wanted.height,
        maxWidth: screen.maxWidth, maxHeight: screen.maxHeight)
      return (nil, warning)
    }
    let made = topology.modes.values.filter { $0.name.hasPrefix(prefix) && $0.sameTimings(as: wanted) }
    if let own = made.first(where: { output.modes.contains($0.id) }) { return (own, nil) }
    var virtual = wanted
    if let other = made.min(by: { $0.id.rawValue < $1.id.rawValue }) { virtual.name = other.name }
    virtual.id = ModeID(rawValue: virtualBase + output.id.rawValue % virtualBase)
    return (virtual, nil)
  }

  /// For a server that makes any size it is asked for (wlroots' `set_custom_mode`): a size
  /// and rate the output does not list, as a mode to create under a virtual id, with the
  /// timings the bridge gives a head's modes (totals of the size, so that the rate reads back
  /// exactly; rate 0 when the request names none: the compositor picks). nil for requests
  /// that name no size, and (with a warning) for a size beyond the server's maximum screen.
  public static func asked(_ request: ModeRequest, for output: Output, in topology: Topology) -> (
    mode: Mode?, warning: PlanWarning?
  ) {
    let screen = topology.screen
    let limit = (
      screen.maxWidth > 0 ? screen.maxWidth : Int(Int16.max), screen.maxHeight > 0 ? screen.maxHeight : Int(Int16.max)
    )
    var (mode, warning) = asked(request, output: output.name, limit: limit)
    mode?.id = ModeID(rawValue: virtualBase + output.id.rawValue % virtualBase)
    return (mode, warning)
  }

  /// The modes displayd made that no CRTC shows, with the outputs listing them: to delete.
  public static func unused(in topology: Topology) -> [ModeRelease] {
    // Asked after every reconcile, and mostly displayd made no mode: no tables made then.
    guard topology.modes.values.contains(where: { $0.name.hasPrefix(prefix) }) else { return [] }
    let shown = Set(topology.crtcs.compactMap(\.mode))
    return topology.modes.values.filter { $0.name.hasPrefix(prefix) && !shown.contains($0.id) }
      .sorted { $0.id.rawValue < $1.id.rawValue }
      .map { mode in
        ModeRelease(
          mode: mode.id, name: mode.name, outputs: topology.outputs.filter { $0.modes.contains(mode.id) }.map(\.id))
      }
  }
}

/// A mode displayd made and no longer shows: removed from these outputs, then destroyed.
public struct ModeRelease: Hashable, Sendable {
  public var mode: ModeID
  public var name: String
  public var outputs: [OutputID]
  public init(mode: ModeID, name: String, outputs: [OutputID]) {
    self.mode = mode
    self.name = name
    self.outputs = outputs
  }
}
