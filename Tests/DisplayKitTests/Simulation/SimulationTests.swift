import DisplayModel
import Foundation
import Testing

@testable import DisplayKit

/// A seeded, deterministic simulation of the daemon's whole life, as FoundationDB and
/// TigerBeetle test theirs: each seed draws a sequence of plugs, unplugs, flaps, EDID swaps,
/// lid changes, reloads, switches by hand, failing applies and windows, events late, twice
/// or lost (then a resync), clock jumps and blanked screens, run against `SimWorld` (the fake
/// server) with a manual clock; the invariants of `SimInvariants.swift` are checked after
/// every step and once the sequence settled.
///
/// A failure prints its seed and steps. Replay one seed exactly, with the daemon's last log
/// lines: `DISPLAYD_SIM_SEED=1234 swift test --filter DaemonSimulation`. Other seeds than
/// the fixed ones: `DISPLAYD_SIM_BASE=N` (and `DISPLAYD_SIM_SEQUENCES=N`, default 2000).
@Suite struct DaemonSimulation {
  static let steps = 30

  static func environment(_ name: String) -> UInt64? {
    ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) }
  }

  @Test(.disabled("the findings still open are being fixed")) func thousandsOfSeededLivesKeepEveryInvariant() {
    if let seed = Self.environment("DISPLAYD_SIM_SEED") {
      let failure = SimRun(seed: seed).run(steps: Self.steps)
      if let failure {
        let log = failure.log.joined(separator: "\n")
        Issue.record("\(failure)\nlast log lines:\n\(log)")
      } else {
        print("simulation seed \(seed): every invariant held over \(Self.steps) steps")
      }
      return
    }
    let base = Self.environment("DISPLAYD_SIM_BASE") ?? 0x5EED_0000
    let count = Self.environment("DISPLAYD_SIM_SEQUENCES") ?? 2000
    let start = monotonicNanoseconds()
    var failures: [SimFailure] = []
    for seed in base..<(base + count) {
      if let failure = SimRun(seed: seed).run(steps: Self.steps) { failures.append(failure) }
      if failures.count >= 3 { break }
    }
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    print(
      "simulation: \(count) sequences of \(Self.steps) steps in \(String(format: "%.2f", seconds)) s, \(failures.count) failed"
    )
    for failure in failures { Issue.record("\(failure)") }
  }
}
