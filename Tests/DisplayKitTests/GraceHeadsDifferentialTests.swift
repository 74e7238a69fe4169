import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

/// The disconnect grace's two questions of a desk, over heads beside the same over RandR's
/// topology, on random desks (seeded: a failing seed is printed and replays): whether a
/// monitor not pending is lit (which keeps disconnects held while the screen is blanked),
/// and whether a monitor back within the grace shows what it showed (which keeps its return
/// quiet) after its CRTC moved, turned, took another mode of its size or another size, went
/// off, or was left alone. A desk whose CRTCs show an extent no head mode and scale make
/// is left out (heads cannot say it).
@Suite struct GraceHeadsDifferentialTests {
  static let desks = 3000

  @Test func litAndBackAsItWasOverHeadsAnswerAsOverTheTopologyOnRandomDesks() throws {
    var (compared, same, lit) = (0, 0, 0)
    for seed in 1...UInt64(Self.desks) {
      var r = SimRandom(seed: seed)
      var draw = DeskDraw(seed: seed)
      let t = r.chance(50) ? RandomDesk.topology(&r) : try draw.desk().0
      let after = Self.changed(t, &r)
      let (before, now) = (HeadSnapshot(topology: t), HeadSnapshot(topology: after))
      guard Self.sayable(t, before), Self.sayable(after, now) else { continue }
      let pending = Set(t.outputs.map(\.name).filter { _ in r.chance(30) })
      let litOld = t.connectedOutputs.contains { !pending.contains($0.name) && t.geometry(of: $0) != nil }
      let litNew = before.heads.contains { $0.connected && !pending.contains($0.name) && $0.rect != nil }
      #expect(litOld == litNew, "seed \(seed): lit")
      if litNew { lit += 1 }
      for output in t.outputs {
        guard let back = after.output(named: output.name), let held = before.head(named: output.name),
          let head = now.head(named: output.name)
        else { continue }
        let old =
          after.geometry(of: back) == t.geometry(of: output)
          && after.activeCrtc(of: back)?.mode == t.activeCrtc(of: output)?.mode
        let new = head.rect == held.rect && head.shownMode == held.shownMode
        #expect(old == new, "seed \(seed): \(output.name) back as it was")
        compared += 1
        if old { same += 1 }
      }
    }
    // Each answer drawn often enough to mean something.
    #expect(same > compared / 5 && compared - same > compared / 10, "\(same) of \(compared) the same")
    #expect(lit > Self.desks / 5 && lit < Self.desks - Self.desks / 20, "\(lit) desks lit")
  }

  /// Whether every output's CRTC extent is its head's area.
  static func sayable(_ t: Topology, _ snapshot: HeadSnapshot) -> Bool {
    t.outputs.allSatisfy { t.geometry(of: $0) == snapshot.head(named: $0.name)?.rect }
  }

  /// `t` with some lit CRTCs moved, turned half round, set to another mode every output on
  /// them lists, or turned off.
  static func changed(_ t: Topology, _ r: inout SimRandom) -> Topology {
    var after = t
    for c in after.crtcs.indices where after.crtcs[c].isActive && r.chance(50) {
      var crtc = after.crtcs[c]
      switch r.below(4) {
      case 0: crtc.x += 8
      case 1 where crtc.rotations.contains(.inverted): crtc.rotation = .inverted
      case 2:
        let outputs = crtc.outputs.compactMap(t.output)
        let listed = t.modes.values.filter { mode in outputs.allSatisfy { $0.modes.contains(mode.id) } }
        guard let mode = listed.isEmpty ? nil : r.pick(listed.sorted { $0.id.rawValue < $1.id.rawValue }) else {
          continue
        }
        crtc.mode = mode.id
        (crtc.width, crtc.height) = crtc.rotation.turned(mode.width, mode.height)
      default:
        for i in after.outputs.indices where crtc.outputs.contains(after.outputs[i].id) { after.outputs[i].crtc = nil }
        crtc = Crtc(id: crtc.id, possibleOutputs: crtc.possibleOutputs, rotations: crtc.rotations)
      }
      after.crtcs[c] = crtc
    }
    return after
  }
}
