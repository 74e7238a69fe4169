import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayKit

/// The daemon tells a dark desk (no connected desktop monitor lit: the apply loop plans
/// again rather than leave it) from its heads; on every desk that must be what
/// `Topology.leavesDark(Plan())` says of the topology those heads are, on X (the heads
/// RandR's outputs make) and on Wayland (the topology the heads bridge makes).
@Suite struct DeskDarkDifferentialTests {
  static let desks: UInt64 = 3000

  /// Counts the desks each way, so that neither answer goes untested.
  struct Tally {
    var dark = 0
    var lit = 0
    var differing: [String] = []

    mutating func add(_ topology: Topology, _ heads: HeadSnapshot, seed: UInt64) {
      let old = topology.leavesDark(Plan())
      let new = DeskLayout.isDark(heads)
      if old != new { differing.append("seed \(seed): the topology says dark \(old), the heads \(new)") }
      if old { dark += 1 } else { lit += 1 }
    }

    func expectAgreement(_ kind: String) {
      #expect(differing.isEmpty, "\(differing.count) \(kind) differ:\n\(differing.prefix(5).joined(separator: "\n"))")
      #expect(dark > 20 && lit > 20, "\(kind): \(dark) dark, \(lit) lit")
    }
  }

  @Test func aDarkDeskOverHeadsIsOneOverRandRTopologiesOnRandomDesks() throws {
    var tally = Tally()
    for seed in 1...Self.desks {
      var r = SimRandom(seed: seed)
      let t = RandomDesk.topology(&r)
      tally.add(t, HeadSnapshot(topology: t), seed: seed)
      var draw = DeskDraw(seed: seed)
      let (drawn, _) = try draw.desk()
      tally.add(drawn, HeadSnapshot(topology: drawn), seed: seed)
    }
    tally.expectAgreement("RandR desks")
  }

  @Test func aDarkDeskOverHeadsIsOneOverTheBridgedTopologyOnRandomWaylandDesks() throws {
    var tally = Tally()
    for seed in 1...Self.desks {
      var draw = HeadDeskDraw(seed: seed, scaledArea: seed % 2 == 0 ? .logical : .randr)
      let (heads, _) = try draw.desk()
      tally.add(Topology(heads: heads), heads, seed: seed)
    }
    tally.expectAgreement("Wayland desks")
  }

  /// A compositor's head set to a custom mode is enabled with no current mode: the bridge
  /// lights no CRTC for it, so the desk is dark (planned again) both ways.
  @Test func aHeadEnabledWithoutACurrentModeLeavesTheDeskDark() {
    var head = Head(name: "DP-1", modes: [HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000)])
    head.enabled = true
    let heads = HeadSnapshot(heads: [head])
    #expect(Topology(heads: heads).leavesDark(Plan()))
    #expect(DeskLayout.isDark(heads))
    head.currentMode = 0
    #expect(!DeskLayout.isDark(HeadSnapshot(heads: [head])))
  }

  /// A lit headset is no lit desk, and a desk of headsets alone is none to darken.
  @Test func nonDesktopHeadsNeitherLightNorDarkenTheDesk() {
    var headset = Head(
      name: "DP-2", modes: [HeadMode(width: 2880, height: 1600, refreshMilliHz: 90000)], nonDesktop: true)
    (headset.enabled, headset.currentMode) = (true, 0)
    let monitor = Head(name: "DP-1", modes: [HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000)])
    for heads in [HeadSnapshot(heads: [monitor, headset]), HeadSnapshot(heads: [headset])] {
      #expect(DeskLayout.isDark(heads) == Topology(heads: heads).leavesDark(Plan()))
    }
    #expect(DeskLayout.isDark(HeadSnapshot(heads: [monitor, headset])))
    #expect(!DeskLayout.isDark(HeadSnapshot(heads: [headset])))
  }
}
