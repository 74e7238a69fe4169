// displayd-bench: figures the README quotes, measured on private X servers.
//
//   displayd-bench plug [RUNS]       plug-to-painted and unplug-to-released latency on Xvnc
//   displayd-bench mirror [SECONDS]  mirror CPU and frames/s (auto, bilinear) against ffplay x11grab
//
// Run through `make bench` (release builds of displayd and of this harness).
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

let background: UInt32 = 0x204080
let foreground: UInt32 = 0xffcc00

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

/// Plugs a 1280x1024 monitor right of a 1920x1080 main one and times, from the moment the
/// layout is sent: the server accepting it, the window's background on screen, the
/// placeholder text on screen; then unplugs and times the window's disappearance.
func plugBenchmark(runs: Int) throws {
  let server = try TestXServer.vnc()
  // Everything talking to the server ends before the server does.
  try plugRuns(server, runs: runs)
  server.stop()
}

func plugRuns(_ server: TestXServer, runs: Int) throws {
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  let daemon = try DaemonProcess(
    display: server.display,
    config: "{ placeholder: { background: '#204080', foreground: '#ffcc00', text: 'HELLO' } }")
  let x = try XInspector(server.display)
  var accepted: [Double] = []
  var mapped: [Double] = []
  var painted: [Double] = []
  var released: [Double] = []
  for _ in 0..<runs {
    let t0 = now()
    try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
    accepted.append((now() - t0) * 1000)
    guard eventually(within: 2, { x.pixel(x: 1925, y: 5) == background }) else { throw RigError("no window") }
    mapped.append((now() - t0) * 1000)
    guard eventually(within: 2, { x.row(y: 512, from: 1920, to: 3200).contains(foreground) }) else {
      throw RigError("no text")
    }
    painted.append((now() - t0) * 1000)
    let t1 = now()
    try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))
    guard eventually(within: 2, { x.displaydWindows().isEmpty }) else { throw RigError("window stayed") }
    released.append((now() - t1) * 1000)
  }
  daemon.settle(quiet: 0.1)
  print("Plug a 1280x1024 monitor on Xvnc (1920x1080 main), \(runs) runs, displayd release build:")
  report("SetDesktopSize sent -> server accepted", accepted)
  report("... -> window background on screen", mapped)
  report("... -> placeholder text on screen (painted)", painted)
  report("unplug sent -> window gone", released)
  print("  (changing reconciles: \(daemon.changingReconciles.count); XGetImage polling adds ~1 ms)")
  if getenv("BENCH_VERBOSE") != nil { daemon.changingReconciles.forEach { print("  " + $0) } }
}

let args = Array(CommandLine.arguments.dropFirst())
do {
  switch args.first {
  case "plug": try plugBenchmark(runs: args.count > 1 ? Int(args[1]) ?? 30 : 30)
  case "mirror":
    try mirrorBenchmark(seconds: args.count > 1 ? Double(args[1]) ?? 5 : 5)
  case "animate" where args.count == 3: try animate(display: args[1], fps: Int(args[2]) ?? 60)
  default:
    print("usage: displayd-bench plug [RUNS] | mirror [SECONDS]")
    exit(64)
  }
} catch {
  print("displayd-bench: \(error)")
  exit(1)
}
