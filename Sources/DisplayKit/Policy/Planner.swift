/// One CRTC's new configuration. `mode == nil` turns it off.
public struct CrtcChange: Hashable, Sendable {
  public var crtc: CrtcID
  public var mode: ModeID?
  public var x: Int
  public var y: Int
  public var rotation: Rotation
  public var outputs: [OutputID]
  /// Modes to try, in order, if the server refuses `mode`.
  public var fallbacks: [ModeID]
  /// The output named in logs.
  public var outputName: String
}

/// What reconciling would change: the CRTC changes and the screen size they need.
public struct Plan: Sendable {
  public var changes: [CrtcChange] = []
  /// The screen size afterwards, nil to leave it.
  public var screen: (width: Int, height: Int)?
  public var warnings: [String] = []
  /// Outputs this plan configures: the daemon leaves them alone afterwards.
  public var configures: Set<OutputID> = []
  public var isEmpty: Bool { changes.isEmpty && screen == nil }
}

/// Desired state from actual state: which connected external outputs need a CRTC, a mode and
/// a place, and which CRTCs still drive monitors that are gone. Pure.
public struct Planner {
  public var topology: Topology
  public var config: Config

  public init(topology: Topology, config: Config) {
    self.topology = topology
    self.config = config
  }

  /// Plans for the outputs not in `settled` (outputs the daemon configured before and now
  /// leaves as they are, so its own changes and a user's later ones cause no loops).
  public func plan(settled: Set<OutputID>) -> Plan {
    var plan = Plan()
    let main = config.mainOutput(in: topology)
    let pending = topology.connectedOutputs.filter { output in
      output.id != main?.id && !settled.contains(output.id) && !output.nonDesktop
        && config.settings(for: output, identity: identity(output)) != nil
    }
    var rects: [OutputID: Rect] = [:]
    for output in topology.connectedOutputs where !pending.contains(where: { $0.id == output.id }) {
      if let r = topology.geometry(of: output) { rects[output.id] = r }
    }
    var targets: [OutputID: (crtc: Crtc, modes: [Mode], rotation: Rotation)] = [:]
    var usedCrtcs = Set(topology.crtcs.filter(\.isActive).map(\.id))
    for output in pending {
      guard let settings = config.settings(for: output, identity: identity(output)) else { continue }
      let (modes, warning) = ModePolicy.candidates(settings.mode, for: output, in: topology)
      if let warning { plan.warnings.append(warning) }
      guard let mode = modes.first else {
        plan.warnings.append("\(output.name) lists no modes; left alone")
        continue
      }
      guard let crtc = crtc(for: output, used: &usedCrtcs) else {
        plan.warnings.append("no free CRTC can drive \(output.name); left dark")
        continue
      }
      let rotation = topology.activeCrtc(of: output)?.rotation ?? .normal
      let size =
        rotation.contains(.left) || rotation.contains(.right) ? (mode.height, mode.width) : (mode.width, mode.height)
      let origin = place(size, settings.position, main: main, rects: rects)
      rects[output.id] = Rect(x: origin.x, y: origin.y, width: size.0, height: size.1)
      targets[output.id] = (crtc, modes, rotation)
      plan.configures.insert(output.id)
    }
    normalize(&rects)
    plan.changes = changes(rects: rects, targets: targets) + releases()
    plan.screen = screenSize(rects: rects, changed: !plan.changes.isEmpty, warnings: &plan.warnings)
    return plan
  }

  func identity(_ output: Output) -> EDID? { output.edid.flatMap { try? EDID(bytes: $0) } }

  /// The output's own CRTC, else a free one that can drive it.
  func crtc(for output: Output, used: inout Set<CrtcID>) -> Crtc? {
    if let id = output.crtc, let crtc = topology.crtc(id) { return crtc }
    let free = output.possibleCrtcs.compactMap(topology.crtc).first { c in
      !used.contains(c.id) && c.outputs.isEmpty && (c.possibleOutputs.isEmpty || c.possibleOutputs.contains(output.id))
    }
    if let free { used.insert(free.id) }
    return free
  }
}
