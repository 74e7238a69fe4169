// displayd-bench: figures docs/benchmarks.md quotes, measured on private X servers.
//
//   displayd-bench plug [RUNS]       plug -> hook started and plug -> painted, against references
//   displayd-bench cpu [PLUGS]       daemon CPU per plug + unplug, placeholder and content none
//   displayd-bench cpu PLUGS REFERENCE [ROUNDS]
//                                    the same against another build's displayd, in alternating rounds
//   displayd-bench rss [PLUGS [N]]   daemon RSS over PLUGS plugs with N monitors; then with content none
//   displayd-bench mirror [SECONDS]  mirror CPU and frames/s (auto, bilinear, box) against ffplay x11grab
//   displayd-bench wayland-plug [RUNS]               on the rig's sway: plug -> hook against kanshi
//   displayd-bench wayland-mirror [SECONDS [ROUNDS]] on sway: mirror CPU against wl-mirror
//   displayd-bench wayland-rss [MONITORS [ROUNDS]]   RSS with MONITORS heads, sway against Xvnc
//   displayd-bench grind PLUGS placeholder|none DISPLAYD OUT [QUIET [batched]]
//                                    DISPLAYD under callgrind for PLUGS plugs: instructions,
//                                    which load does not change (run it with 0 plugs too)
//
// The Wayland ones need the rig of scripts/wayland-rig (root); without it they say why and
// are skipped.
// Run through `make bench` (release builds of displayd and of this harness).
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p + 0.5))]
}

func report(_ name: String, _ ms: [Double]) {
  let label = name.padding(toLength: 44, withPad: " ", startingAt: 0)
  print(
    label
      + String(
        format: " median %6.1f ms   p90 %6.1f ms   min %6.1f ms   max %6.1f ms",
        percentile(ms, 0.5), percentile(ms, 0.9), ms.min() ?? 0, ms.max() ?? 0))
}

let args = Array(CommandLine.arguments.dropFirst())
do {
  switch args.first {
  case "plug": try plugBenchmark(runs: args.count > 1 ? Int(args[1]) ?? 30 : 30)
  case "cpu" where args.count > 2:
    try cpuPairBenchmark(plugs: Int(args[1]) ?? 100, reference: args[2], rounds: args.count > 3 ? Int(args[3]) ?? 8 : 8)
  case "cpu": try cpuBenchmark(plugs: args.count > 1 ? Int(args[1]) ?? 100 : 100)
  case "rss":
    let monitors = args.count > 2 ? Int(args[2]) ?? 4 : 4
    try rssBenchmark(plugs: args.count > 1 ? Int(args[1]) ?? 1000 : 1000, monitors: monitors)
    try rssWithoutPictures(monitors: monitors)
  case "mirror":
    try mirrorBenchmark(seconds: args.count > 1 ? Double(args[1]) ?? 5 : 5)
  case "wayland-plug": try waylandPlugBenchmark(runs: args.count > 1 ? Int(args[1]) ?? 32 : 32)
  case "wayland-mirror":
    try waylandMirrorBenchmark(
      seconds: args.count > 1 ? Double(args[1]) ?? 4 : 4, rounds: args.count > 2 ? Int(args[2]) ?? 3 : 3)
  case "wayland-rss":
    try waylandRSSBenchmark(
      monitors: args.count > 1 ? Int(args[1]) ?? 4 : 4, rounds: args.count > 2 ? Int(args[2]) ?? 3 : 3)
  case "grind" where args.count >= 5:
    try grindBenchmark(
      plugs: Int(args[1]) ?? 10, content: args[2], daemon: args[3], out: args[4],
      quiet: args.count > 5 ? Double(args[5]) ?? 1 : 1, batched: args.count > 6 && args[6] == "batched")
  case "animate" where args.count == 3: try animate(display: args[1], fps: Int(args[2]) ?? 60)
  default:
    print(
      "usage: displayd-bench plug [RUNS] | cpu [PLUGS [REFERENCE [ROUNDS]]] | rss [PLUGS [MONITORS]] | mirror [SECONDS [auto|bilinear|nearest]]"
        + " | wayland-plug [RUNS] | wayland-mirror [SECONDS [ROUNDS]] | wayland-rss [MONITORS [ROUNDS]]"
        + " | grind PLUGS placeholder|none DISPLAYD OUT [QUIET [batched]]"
    )
    exit(64)
  }
} catch {
  print("displayd-bench: \(error)")
  exit(1)
}
