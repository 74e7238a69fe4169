import DisplayModel
import DisplayPorts
import DisplayX11

/// Random desks for the state records' golden files, varying what the wire shows beyond
/// what the planners' desks vary.
enum WireDesk {
  /// A `RandomDesk` with modes that are interlaced, double scanned, carry sync flags or
  /// displayd's names; outputs whose connection the server cannot tell, EDIDs and
  /// `non-desktop`; CRTCs turned and reflected in either spelling (keeping their sides).
  static func topology(_ r: inout SimRandom) -> Topology {
    var t = RandomDesk.topology(&r)
    for id in t.modes.keys.sorted(by: { $0.rawValue < $1.rawValue }) where r.chance(40) {
      guard var mode = t.modes[id] else { continue }
      switch r.below(4) {
      case 0: mode.flags = .interlace
      case 1: mode.flags = .doubleScan
      case 2: mode.flags = [.hSyncPositive, .vSyncNegative]
      default: mode.name = CustomModes.prefix + "\(mode.width)x\(mode.height)_59.95"
      }
      t.modes[id] = mode
    }
    for i in t.outputs.indices {
      if !t.outputs[i].isConnected && r.chance(40) { t.outputs[i].connection = .unknown }
      if r.chance(40) { t.outputs[i].edid = r.pick(DeskDraw.edids) }
      t.outputs[i].nonDesktop = r.chance(10)
    }
    for c in t.crtcs.indices where t.crtcs[c].isActive && r.chance(40) {
      let swaps = t.crtcs[c].rotation.transform.swapsAxes
      let turn = r.pick(Transform.allCases.filter { $0.swapsAxes == swaps })
      t.crtcs[c].rotation = Rotation(turn, r.pick(TransformSpelling.allCases))
    }
    return t
  }

  /// A `HeadDeskDraw` desk with EDIDs, physical sizes, `non-desktop`, heads not attached,
  /// transforms spelled with `reflect y` and interlaced modes.
  static func wayland(seed: UInt64) throws -> HeadSnapshot {
    var draw = HeadDeskDraw(seed: seed)
    var (snapshot, _) = try draw.desk()
    for i in snapshot.heads.indices {
      var head = snapshot.heads[i]
      if draw.random.chance(30) { head.edid = draw.random.pick(DeskDraw.edids) }
      if draw.random.chance(70) { (head.mmWidth, head.mmHeight) = (300 + draw.random.below(400), 200) }
      head.nonDesktop = draw.random.chance(10)
      head.connected = i == 0 || draw.random.chance(90)
      if draw.random.chance(30) { head.spelling = .reflectedY }
      if draw.random.chance(20) { head.modes[draw.random.below(head.modes.count)].interlaced = true }
      snapshot.heads[i] = head
    }
    return snapshot
  }
}
