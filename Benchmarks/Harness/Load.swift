// displayd-bench cpu and rss: the daemon's own CPU time per plug and unplug (from
// /proc/PID/stat, robust to the noise wall time has on two cores), and its resident memory
// over many plugs.
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// The two contents the CPU benchmarks measure.
let cpuConfigs = (
  placeholder: "{ placeholder: { background: '#204080', foreground: '#ffcc00', text: 'HELLO' } }",
  none: "{ defaults: { content: 'none' } }"
)

/// Daemon CPU per plug + unplug of a 1280x1024 monitor over `plugs` cycles, with the
/// placeholder and with `content: "none"`.
func cpuBenchmark(plugs: Int) throws {
  let server = try TestXServer.vnc()
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  let placeholder = try cpuPerCycle(server, vnc, main, plugs: plugs, config: cpuConfigs.placeholder)
  let none = try cpuPerCycle(server, vnc, main, plugs: plugs, config: cpuConfigs.none)
  server.stop()
  print("Daemon CPU (time on a CPU, /proc/PID/task/*/schedstat) per plug + unplug, \(plugs) cycles, 1280x1024 on Xvnc:")
  print(String(format: "  placeholder content      %6.2f ms", placeholder))
  print(String(format: "  content none             %6.2f ms   (placeholder / none: %.2fx)", none, placeholder / none))
  print(String(format: "  goal: placeholder <= 3 ms: %@", placeholder <= 3 ? "met" : "NOT met"))
}

/// The CPU time in ms the daemon `binary` spends per plug + unplug over `plugs` cycles.
func cpuPerCycle(
  _ server: TestXServer, _ vnc: VNCClient, _ main: UInt32, plugs: Int, config: String, binary: String = displaydPath
) throws -> Double {
  let daemon = try DaemonProcess(
    display: server.display, config: config, logLevel: "info", disconnectGrace: 0, binary: binary)
  let x = try XInspector(server.display)
  let windows = !config.contains("none")
  func cycle() throws {
    try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
    if windows {
      guard eventually(within: 2, { x.row(y: 512, from: 1920, to: 3200).contains(foreground) }) else {
        throw RigError("no placeholder")
      }
    }
    daemon.settle(quiet: 0.03)
    try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))
    if windows { guard eventually(within: 2, { x.displaydWindows().isEmpty }) else { throw RigError("window stayed") } }
    daemon.settle(quiet: 0.03)
  }
  // The first plugs fault in code and fonts: not what each later plug costs.
  for _ in 0..<3 { try cycle() }
  let counter = SyscallCounter(pid: daemon.child.pid)
  guard let before = preciseCPUSeconds(daemon.child.pid) else { throw RigError("no /proc/PID/task/*/schedstat") }
  for _ in 0..<plugs { try cycle() }
  guard let after = preciseCPUSeconds(daemon.child.pid) else { throw RigError("no /proc/PID/task/*/schedstat") }
  counter?.finish(cycles: plugs)
  daemon.child.signal(SIGTERM)
  daemon.child.wait()
  return (after - before) / Double(plugs) * 1000
}

/// RSS of the daemon with `monitors` 1280x1024 placeholders, after the first plug and after
/// `plugs` plugs (all monitors plugged and unplugged together: plugs / monitors cycles).
func rssBenchmark(plugs: Int, monitors: Int) throws {
  let server = try TestXServer.vnc()
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  let daemon = try DaemonProcess(
    display: server.display,
    config: "{ placeholder: { background: '#204080', foreground: '#ffcc00', text: 'HELLO' } }", logLevel: "info",
    disconnectGrace: 0)
  let x = try XInspector(server.display)
  let pid = daemon.child.pid
  let idle = statusKB(pid, "VmRSS") ?? 0
  let all = VNCClient.row([(main, 1920, 1080)] + (1...monitors).map { (main + UInt32($0), 1280, 1024) })
  let cycles = max(1, plugs / monitors)
  var samples: [(plugs: Int, kb: Int)] = []
  for i in 1...cycles {
    try vnc.setLayout(all)
    guard eventually(within: 5, { x.displaydWindows().filter(\.mapped).count == monitors }) else {
      throw RigError("\(monitors) windows did not appear")
    }
    daemon.drain()
    if i == 1 || i == cycles || i % max(1, cycles / 4) == 0 {
      daemon.settle(quiet: 0.05)
      samples.append((i * monitors, statusKB(pid, "VmRSS") ?? 0))
    }
    if i == cycles { break }
    try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))
    guard eventually(within: 5, { x.displaydWindows().isEmpty }) else { throw RigError("windows stayed") }
  }
  let libraries = mappedLibraries(pid).count
  let peak = statusKB(pid, "VmHWM") ?? 0
  daemon.child.signal(SIGTERM)
  daemon.child.wait()
  server.stop()
  print("Daemon RSS (VmRSS), \(monitors) monitors of 1280x1024 with placeholders on Xvnc, plugged together:")
  print(String(format: "  started, no monitor       %6.1f MB", Double(idle) / 1024))
  for s in samples {
    print(String(format: "  after %5d plugs          %6.1f MB", s.plugs, Double(s.kb) / 1024))
  }
  let first = samples.first?.kb ?? 0
  let last = samples.last?.kb ?? 0
  print(
    String(
      format: "  peak (VmHWM) %.1f MB; growth from first to last %+.1f MB; %d shared objects mapped",
      Double(peak) / 1024, Double(last - first) / 1024, libraries))
  print(
    String(format: "  goal: <= 16 MB with %d monitors: %@", monitors, Double(last) / 1024 <= 16 ? "met" : "NOT met"))
}

/// RSS of the daemon whose monitors show nothing (`content: "none"`), with `monitors`
/// 1280x1024 monitors plugged: no picture is drawn, so no renderer should be mapped.
func rssWithoutPictures(monitors: Int) throws {
  let server = try TestXServer.vnc()
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  let daemon = try DaemonProcess(
    display: server.display, config: "{ defaults: { content: 'none' } }", logLevel: "debug")
  let pid = daemon.child.pid
  let idle = statusKB(pid, "VmRSS") ?? 0
  try vnc.setLayout(VNCClient.row([(main, 1920, 1080)] + (1...monitors).map { (main + UInt32($0), 1280, 1024) }))
  guard daemon.waitFor("reconcile 2", timeout: 5) != nil else { throw RigError("the plug was not reconciled") }
  daemon.settle(quiet: 0.2)
  let plugged = statusKB(pid, "VmRSS") ?? 0
  let renderer = mappedLibraries(pid).filter { $0.contains("/libpango") || $0.contains("/libcairo") }
  daemon.child.signal(SIGTERM)
  daemon.child.wait()
  server.stop()
  print("Daemon RSS (VmRSS) with content none on Xvnc:")
  print(String(format: "  started, no monitor       %6.1f MB", Double(idle) / 1024))
  print(String(format: "  %d monitors plugged        %6.1f MB", monitors, Double(plugged) / 1024))
  print("  renderer (cairo, pango) mapped: \(renderer.isEmpty ? "no" : "yes")")
}

/// With `DISPLAYD_BENCH_PERF` set, `perf stat` counts the daemon's wake-ups and syscalls over
/// the measured cycles: CPU time alone cannot say whether a slower plug executes more or only
/// waits and wakes more often.
struct SyscallCounter {
  static let events = [
    "context-switches", "page-faults", "raw_syscalls:sys_enter", "syscalls:sys_enter_poll",
    "syscalls:sys_enter_recvmsg", "syscalls:sys_enter_read", "syscalls:sys_enter_writev",
    "syscalls:sys_enter_sendmsg", "syscalls:sys_enter_futex",
  ]
  let process = Process()
  let output: String

  init?(pid: pid_t) {
    guard ProcessInfo.processInfo.environment["DISPLAYD_BENCH_PERF"] != nil else { return nil }
    output = NSTemporaryDirectory() + "displayd-bench-perf-\(getpid()).csv"
    process.executableURL = URL(fileURLWithPath: "/usr/bin/perf")
    process.arguments = ["stat", "-x", ",", "-o", output, "-e", Self.events.joined(separator: ","), "-p", "\(pid)"]
    guard (try? process.run()) != nil else { return nil }
    // perf attaches after it starts: wait for its output file, which it opens first.
    _ = eventually(within: 2) { FileManager.default.fileExists(atPath: output) }
  }

  /// Stops counting and prints each count per cycle.
  func finish(cycles: Int) {
    kill(process.processIdentifier, SIGINT)
    process.waitUntilExit()
    guard let text = try? String(contentsOfFile: output, encoding: .utf8) else { return }
    print("  perf stat over \(cycles) cycles, the daemon's threads:")
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count > 2, let count = Double(fields[0]) else { continue }
      let name = String(fields[2]).padding(toLength: 28, withPad: " ", startingAt: 0)
      print("    " + name + String(format: "%8.1f per cycle", count / Double(cycles)))
    }
    try? FileManager.default.removeItem(atPath: output)
  }
}
