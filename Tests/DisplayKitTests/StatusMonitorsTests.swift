import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayService

/// `status` names each managed monitor's EDID identity and mode from the daemon's heads: on
/// random X desks (the RandR backend's heads) and Wayland desks, for every head and one the
/// desk lacks, the answers are those a person reviewed once (`Fixtures/golden/status.txt`).
/// The answer's wire format stays whichever backend the daemon runs on.
@Suite struct StatusMonitorsTests {
  @Test func identityAndModeOnRandomDesks() throws {
    try GoldenDesks.expectGolden("status", minimum: 150) { try Self.answers($0) }
  }

  /// Every head of an X desk and a Wayland desk of one seed, and one absent, as `status` shows them.
  static func answers(_ seed: UInt64) throws -> String {
    var r = SimRandom(seed: seed)
    let x = ExtrasDeskDraw.xDesk(&r).1
    let wayland = try WireDesk.wayland(seed: seed).bounded().snapshot
    return "x: \(shown(x)) || wayland: \(shown(wayland))"
  }

  static func shown(_ heads: HeadSnapshot) -> String {
    (heads.heads.map(\.name) + ["absent-1"]).map { name in
      let (identity, mode) = StatusAnswer.Monitor.shown(name, in: heads)
      let said = identity.map {
        "\($0.manufacturer)/\($0.productName ?? "-")/\($0.serial ?? "-")/\($0.displayID)"
      }
      return "\(name) \(said ?? "no identity") \(mode ?? "no mode")"
    }.joined(separator: "; ")
  }

  @Test func aMonitorTheHeadsLackHasNeitherIdentityNorMode() {
    let shown = StatusAnswer.Monitor.shown("HDMI-9", in: HeadSnapshot(heads: []))
    #expect(shown.identity == nil && shown.mode == nil)
  }
}
