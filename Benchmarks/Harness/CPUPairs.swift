// displayd-bench cpu PLUGS REFERENCE [ROUNDS]: this build's daemon CPU per plug + unplug
// against another build's, in alternating rounds on one server. A single run of each moves
// by 5-10% on a shared 2-core machine, more than the difference to be measured; the ratio of
// two runs made one right after the other moves much less, and its median over rounds says
// which build costs more in this run.
import Foundation
import XRig

/// Rounds of `cpuPerCycle` for this build and `reference`, each content measured for both in
/// turn, the order swapped every round (so neither always runs on a warmer machine); prints
/// the medians of each and of the per-round ratios, with their range.
func cpuPairBenchmark(plugs: Int, reference: String, rounds: Int) throws {
  guard FileManager.default.isExecutableFile(atPath: reference) else {
    throw RigError("no executable reference displayd at \(reference)")
  }
  let server = try TestXServer.vnc()
  defer { server.stop() }
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  var samples: [String: (this: [Double], reference: [Double])] = [:]
  for round in 0..<max(1, rounds) {
    for (name, config) in [("placeholder", cpuConfigs.placeholder), ("none", cpuConfigs.none)] {
      let order = round % 2 == 0 ? [displaydPath, reference] : [reference, displaydPath]
      var figures: [String: Double] = [:]
      for binary in order {
        figures[binary] = try cpuPerCycle(server, vnc, main, plugs: plugs, config: config, binary: binary)
      }
      samples[name, default: ([], [])].this.append(figures[displaydPath] ?? 0)
      samples[name, default: ([], [])].reference.append(figures[reference] ?? 0)
    }
  }
  print("Daemon CPU per plug + unplug, \(plugs) cycles, \(rounds) alternating rounds, against \(reference):")
  for name in ["placeholder", "none"] {
    guard let pair = samples[name] else { continue }
    let ratios = zip(pair.this, pair.reference).map { $0 / max($1, 1e-9) }
    let label = name.padding(toLength: 12, withPad: " ", startingAt: 0)
    let lower = ratios.filter { $0 < 1 }.count
    print(
      String(
        format: "  %@ this %5.2f ms   reference %5.2f ms   ratio median %.3fx", label, median(pair.this),
        median(pair.reference), median(ratios))
        + String(
          format: " (range %.2f-%.2f, this lower in %d of %d)", ratios.min() ?? 0, ratios.max() ?? 0, lower,
          ratios.count))
  }
}
