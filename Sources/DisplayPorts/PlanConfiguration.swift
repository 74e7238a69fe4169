import DisplayModel

extension OutputConfiguration {
  /// The daemon's RandR-shaped plan, made from `topology` (the `Topology(heads:)` bridge), as
  /// one configuration of the heads it changes: a CRTC change names its head (the bridge's
  /// CRTC of a head carries the head's id), a mode nil turns it off, the rotation becomes a
  /// transform and the CRTC's scale the config's scale; a mode the plan makes (not the
  /// topology's: a size the head does not list, a modeline) is a custom mode. Heads the plan does not change stay as
  /// they are. Nil when a change names no head of `topology`. Pure.
  public init?(plan: Plan, in topology: Topology) {
    var heads: [HeadConfiguration] = []
    for change in plan.changes {
      let ids = change.outputs.isEmpty ? topology.crtc(change.crtc)?.outputs ?? [] : change.outputs
      guard !ids.isEmpty else { return nil }
      for id in ids {
        guard let output = topology.output(id) else { return nil }
        guard let modeID = change.mode else {
          heads.append(.off(output.name))
          continue
        }
        guard let mode = plan.mode(modeID, in: topology) else { return nil }
        heads.append(
          HeadConfiguration(
            name: output.name, enabled: true,
            mode: topology.modes[modeID] == nil ? .custom(ModeLine(mode)) : Self.request(mode), x: change.x,
            y: change.y,
            transform: Self.transform(change.rotation), scale: Self.scale(change.transform),
            scaleFilter: change.transform.filter))
      }
    }
    let primary = plan.primary.flatMap { topology.output($0)?.name }
    self.init(generation: UInt64(truncatingIfNeeded: topology.configTimestamp), heads: heads, primary: primary)
  }

  /// A listed mode by size and refresh (the bridge's modes have a dot clock of exactly
  /// width × height × refresh, so the refresh reads back as the head listed it).
  static func request(_ mode: Mode) -> HeadModeRequest {
    let milli = mode.refreshHz * 1000
    let refresh = milli.isFinite && milli >= 0 && milli < Double(Int32.max) ? Int(milli.rounded()) : 0
    return .listed(width: mode.width, height: mode.height, refreshMilliHz: refresh)
  }

  /// RandR's rotation as wl_output's transform (`Rotation.transform`).
  static func transform(_ rotation: Rotation) -> HeadTransform { rotation.transform }

  /// The config's scale from a CRTC transform (a scaling matrix: its diagonal); 1 for none
  /// or anything that is not a positive, finite scale.
  static func scale(_ transform: CrtcTransform) -> Double {
    guard transform.matrix.count == 9 else { return 1 }
    let s = transform.matrix[0]
    return s.isFinite && s > 0 ? s : 1
  }
}
