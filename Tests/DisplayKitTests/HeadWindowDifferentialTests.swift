import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing

/// Main, the panel and the wanted windows over heads are what they are over RandR's
/// topology, on random desks (seeded: a failing seed is printed and replays) with random
/// main, panel, content and mirror settings.
@Suite struct HeadWindowDifferentialTests {
  /// Desks each test draws; `DISPLAYD_HEADWINDOW_DESKS` draws more (from `DISPLAYD_HEADWINDOW_SEED`).
  static let desks = Int(ProcessInfo.processInfo.environment["DISPLAYD_HEADWINDOW_DESKS"] ?? "") ?? 3000
  static let firstSeed = UInt64(ProcessInfo.processInfo.environment["DISPLAYD_HEADWINDOW_SEED"] ?? "") ?? 1
  static var seeds: Range<UInt64> { firstSeed..<firstSeed + UInt64(desks) }

  @Test func theWindowPolicyOverHeadsAnswersAsOverRandRTopologiesOnRandomDesks() throws {
    var tally = HeadWindowDifferential.Tally()
    for seed in Self.seeds {
      var r = SimRandom(seed: seed)
      let t = RandomDesk.topology(&r)
      var config = try Config.parse(Array(RandomDesk.rules(t, &r).utf8), file: "desk.json5")
      HeadWindowDifferential.vary(&config, names: t.outputs.map(\.name), &r)
      tally.add(HeadWindowDifferential.verdict(t, HeadSnapshot(topology: t), config, lid: &r), seed: seed)
    }
    tally.expectAgreement(of: Self.desks, "RandR desks", minimumSame: Self.desks / 5)
  }

  /// Monitors with EDIDs (their names in the details line, rules matching them), scaled
  /// and turned CRTCs, non-desktop outputs, a mode displayd made.
  @Test func theWindowPolicyOverHeadsAnswersAsOverRandRTopologiesOnRandomDesksWithEDIDs() throws {
    var tally = HeadWindowDifferential.Tally()
    for seed in Self.seeds {
      var draw = DeskDraw(seed: seed)
      let (t, drawn) = try draw.desk()
      var config = drawn
      var r = SimRandom(seed: seed &* 0x2545_F491)
      HeadWindowDifferential.vary(&config, names: t.outputs.map(\.name), &r)
      tally.add(HeadWindowDifferential.verdict(t, HeadSnapshot(topology: t), config, lid: &r), seed: seed)
    }
    tally.expectAgreement(of: Self.desks, "RandR desks with EDIDs", minimumSame: Self.desks / 5)
  }

  /// Heads as a wlroots compositor lists them, beside the topology the Wayland daemon reads
  /// of them today (`Topology(heads:)`): make, model and serial for the rules, heads
  /// scaled as RandR and as wlroots round a scaled area.
  @Test func theWindowPolicyOverHeadsAnswersAsOverTheBridgedTopologyOnRandomWaylandDesks() throws {
    var tally = HeadWindowDifferential.Tally()
    for seed in Self.seeds {
      var draw = HeadDeskDraw(seed: seed, scaledArea: seed % 2 == 0 ? .logical : .randr)
      let (snapshot, drawn) = try draw.desk()
      var config = drawn
      var r = SimRandom(seed: seed &* 0x2545_F491)
      HeadWindowDifferential.vary(&config, names: snapshot.heads.map(\.name), &r)
      tally.add(HeadWindowDifferential.verdict(Topology(heads: snapshot), snapshot, config, lid: &r), seed: seed)
    }
    tally.expectAgreement(of: Self.desks, "Wayland desks", minimumSame: Self.desks / 5)
  }
}
