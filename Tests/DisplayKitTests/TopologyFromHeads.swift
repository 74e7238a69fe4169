import DisplayModel
import DisplayX11

extension Topology {
  /// The heads of a snapshot as a RandR-shaped topology, for the tests that look at a
  /// Wayland desk the way they look at an X one (the simulation's world, the daemon's view):
  /// one output per head and one virtual CRTC per lit head, turned as the head's bits spell
  /// it and scaled by the head's scale (its transform). Ids are made from the head's name, so
  /// that a head keeps its id across snapshots. Modes have no timings on Wayland: a mode's
  /// dot clock is its pixel rate (width × height × refresh), so that its refresh reads back
  /// exactly; preferred modes come first (RandR's `npreferred`). The screen is the lit heads'
  /// bounding box (Wayland has no screen: the limits are 0). Beyond `HeadSnapshot.maxHeads`
  /// heads and `maxModes` modes a head, the rest are left out (`HeadSnapshot.bounded`).
  init(heads snapshot: HeadSnapshot) {
    self.init(bounded: snapshot.bounded().snapshot)
  }

  /// The same, of a snapshot already `bounded()` (its warnings said by the caller).
  init(bounded snapshot: HeadSnapshot) {
    var outputs: [Output] = []
    var crtcs: [Crtc] = []
    var modes: [ModeID: Mode] = [:]
    for head in snapshot.heads {
      let id = Self.outputID(head.name)
      let (order, ids) = Self.modeIDs(head)
      for index in order { if let modeID = ids[index] { modes[modeID] = Self.mode(head.modes[index], id: modeID) } }
      var output = Output(
        id: id, name: head.name, connection: head.connected ? .connected : .disconnected, mmWidth: head.mmWidth,
        mmHeight: head.mmHeight, modes: order.compactMap { ids[$0] },
        preferredCount: head.modes.filter(\.preferred).count, edid: head.edid, nonDesktop: head.nonDesktop)
      // Every connected head has its own CRTC, an idle one while it is off, so that a plan
      // can light it again.
      let crtc = CrtcID(rawValue: id.rawValue)
      if let rect = head.rect {
        output.crtc = crtc
        output.possibleCrtcs = [crtc]
        var lit = Crtc(
          id: crtc, x: rect.x, y: rect.y, width: rect.width, height: rect.height,
          mode: head.currentMode.flatMap { ids[$0] }, rotation: Self.rotation(head.transform, head.spelling),
          outputs: [id], possibleOutputs: [id], rotations: Self.allRotations)
        // A plan that moves the head keeps its scale.
        lit.transform = Self.transform(scale: head.scale)
        crtcs.append(lit)
      } else if head.connected {
        output.possibleCrtcs = [crtc]
        crtcs.append(
          Crtc(
            id: crtc, x: 0, y: 0, width: 0, height: 0, mode: nil, rotation: .normal, outputs: [],
            possibleOutputs: [id], rotations: Self.allRotations))
      }
      outputs.append(output)
    }
    self.init(
      screen: snapshot.litBounds,
      outputs: outputs, crtcs: crtcs, modes: modes,
      primary: snapshot.primary.flatMap { name in outputs.first { $0.name == name }?.id },
      configTimestamp: UInt(truncatingIfNeeded: snapshot.generation >> 32),
      timestamp: UInt(truncatingIfNeeded: snapshot.generation & 0xffff_ffff))
  }

  /// A head name's id (`HeadWireIDs.outputID`).
  static func outputID(_ name: String) -> OutputID { OutputID(rawValue: HeadWireIDs.outputID(name)) }

  /// A head's modes as the bridge lists them and their ids (`HeadWireIDs.modeIDs`).
  static func modeIDs(_ head: Head) -> (order: [Int], ids: [Int: ModeID]) { HeadWireIDs.modeIDs(head) }

  /// A head's mode as the bridge makes it (`HeadMode.wireMode`).
  static func mode(_ mode: HeadMode, id: ModeID) -> Mode { mode.wireMode(id: id) }

  static let allRotations: Rotation = [.normal, .left, .inverted, .right, .reflectX, .reflectY]

  /// wl_output's counter-clockwise quarter turns are RandR's (`rotated90` is `left`); a flip
  /// is about the vertical axis, RandR's X reflection; spelled as the head spells it.
  static func rotation(_ transform: Transform, _ spelling: TransformSpelling = .turned) -> Rotation {
    Rotation(transform, spelling)
  }

  /// The scale matrix of a head's scale (`xrandr --scale`): the identity for 1 and for a
  /// scale that is not a positive, finite number.
  static func transform(scale: Double) -> CrtcTransform {
    guard scale != 1, scale.isFinite, scale > 0 else { return .identity }
    return CrtcTransform(matrix: [scale, 0, 0, 0, scale, 0, 0, 0, 1])
  }
}
