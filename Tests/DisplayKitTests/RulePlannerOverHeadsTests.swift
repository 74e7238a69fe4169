@testable import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing

/// The rule planner over heads on random desks (seeded: a failing seed is printed and
/// replays): what holds on every desk.
@Suite struct RulePlannerOverHeadsTests {
  /// Desks a run draws; `DISPLAYD_HEADPLAN_DESKS` draws more (from `DISPLAYD_HEADPLAN_SEED`).
  static let desks = Int(ProcessInfo.processInfo.environment["DISPLAYD_HEADPLAN_DESKS"] ?? "") ?? 4000
  static let firstSeed = UInt64(ProcessInfo.processInfo.environment["DISPLAYD_HEADPLAN_SEED"] ?? "") ?? 1
}

extension RulePlannerOverHeadsTests {
  /// Scaled heads (`scaledArea: .logical`, rules' and heads' scales that are fractions of
  /// wlroots' logical scale) are where the compositor lays them out: planning again finds
  /// nothing to move. Left out: desks where lighting a head makes another main, and rules
  /// with a point, which the desk's shift to 0,0 moves: the daemon leaves the heads it
  /// configured alone (`settled`) rather than plan them again.
  @Test func aPlanMadeAgainAfterItIsAppliedChangesNothingOnRandomWaylandDesks() throws {
    var planned = 0
    for seed in Self.firstSeed..<Self.firstSeed + UInt64(Self.desks) {
      var draw = HeadDeskDraw(seed: seed, scaledArea: .logical)
      let (snapshot, config) = try draw.desk()
      guard !config.monitors.contains(where: { if case .absolute = $0.position { true } else { false } }) else {
        continue
      }
      let plan = RulePlanner(snapshot: snapshot, config: config).plan()
      // A size a head makes, or a mode without a refresh, is asked again as any of its size.
      guard !plan.configuration.heads.contains(where: { ProfilePlannerOverHeadsTests.isAnyOfItsSize($0.mode) }),
        case .success(let heads) = FakeOutputManager.configure(
          snapshot.heads, plan.configuration, generation: snapshot.generation)
      else { continue }
      let primary = plan.configuration.primary ?? snapshot.primary
      let after = HeadSnapshot(heads: heads, primary: primary, generation: snapshot.generation)
      let planner = RulePlanner(snapshot: after, config: config)
      guard planner.mainHead()?.name == RulePlanner(snapshot: snapshot, config: config).mainHead()?.name else {
        continue
      }
      let again = planner.plan()
      planned += 1
      #expect(again.isEmpty, "seed \(seed): \(again.configuration.heads)\n  \(draw.rules.configText)")
    }
    #expect(planned > Self.desks / 3)
    print("head planner planned again after applying on \(planned) of \(Self.desks) Wayland desks")
  }
}
