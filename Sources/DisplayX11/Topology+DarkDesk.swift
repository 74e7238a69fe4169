import DisplayModel

extension Topology {
  /// Whether `plan` would leave no connected desktop output lit where one is connected
  /// (never a dark desk): what the RandR backend checks before it sends a plan.
  public func leavesDark(_ plan: Plan) -> Bool {
    let topology = self
    var lit: [CrtcID: [OutputID]] = [:]
    for crtc in topology.crtcs where crtc.isActive { lit[crtc.id] = crtc.outputs }
    for change in plan.changes { lit[change.crtc] = change.mode == nil ? nil : change.outputs }
    let connected = Set(topology.connectedOutputs.filter { !$0.nonDesktop }.map(\.id))
    return !connected.isEmpty && connected.isDisjoint(with: lit.values.joined())
  }
}
