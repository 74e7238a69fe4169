import CXrandr
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// CPU seconds (user + system) a process has used so far.
func cpuSeconds(_ pid: pid_t) -> Double {
  guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
    let close = stat.lastIndex(of: ")")
  else { return 0 }
  let fields = stat[stat.index(after: close)...].split(separator: " ")
  // After "pid (comm)": state is field 3, utime 14, stime 15 (1-based in proc(5)).
  let utime = Double(fields[11]) ?? 0
  let stime = Double(fields[12]) ?? 0
  return (utime + stime) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// The pid of the X server behind a TestXServer (the guard shell's child).
func serverPid(_ server: TestXServer) throws -> pid_t {
  let out = try runCommand(["pgrep", "-f", "^Xvnc .*rfbunixpath \(server.vncSocket)"]).out
  guard let pid = out.split(separator: "\n").compactMap({ pid_t($0) }).first else { throw RigError("no Xvnc pid") }
  return pid
}

/// CPU per second of each process over `seconds`, while `during` runs.
func measure(_ pids: [pid_t], seconds: Double) -> [Double] {
  let before = pids.map(cpuSeconds)
  let start = now()
  _ = pollFDs([], timeoutMs: Int32(seconds * 1000))  // the measurement window
  let elapsed = now() - start
  return zip(pids, before).map { (cpuSeconds($0.0) - $0.1) / elapsed }
}

func composites(_ display: String, _ runtime: String) throws -> Int {
  let r = try runCommand(
    [displaydPath, "status", "--json", "--display", display], environment: ["XDG_RUNTIME_DIR": runtime])
  let obj = try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any]
  return (obj?["counters"] as? [String: Int])?["composites"] ?? -1
}

/// A child process drawing a full-screen animation on the main monitor at `fps`.
func startAnimator(_ display: String, fps: Int) throws -> ChildProcess {
  let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
  return try ChildProcess([me, "animate", display, String(fps)])
}

/// `displayd-bench animate DISPLAY FPS`: fills a 1920x1080 window with a new colour each
/// frame, on a fixed schedule, until killed.
func animate(display: String, fps: Int) throws {
  let x = try XInspector(display)
  let window = x.quadrants(.init(x: 0, y: 0, width: 1920, height: 1080), [0, 0, 0, 0])
  var frame = 0
  let interval = 1.0 / Double(fps)
  let start = now()
  while true {
    frame += 1
    let hue = UInt32(frame % 256)
    x.fill(window, .init(x: 0, y: 0, width: 1920, height: 1080), hue << 16 | (255 - hue) << 8 | 0x40)
    let next = start + Double(frame) * interval
    let wait = next - now()
    if wait > 0 { _ = pollFDs([], timeoutMs: Int32(wait * 1000)) }  // frame pacing
  }
}

/// CPU per second of each process, and what `work` returns, over the time `work` takes.
func measure<T>(_ pids: [pid_t], during work: () -> T) -> (cpu: [Double], result: T, seconds: Double) {
  let before = pids.map(cpuSeconds)
  let start = now()
  let result = work()
  let elapsed = now() - start
  return (zip(pids, before).map { (cpuSeconds($0.0) - $0.1) / elapsed }, result, elapsed)
}

/// `displayd-bench mirror SECONDS`: a 60 fps full-screen animation of a 1920x1080 main
/// monitor shown on a 1280x1024 one by displayd (`auto`, `bilinear`, and `box`, the old
/// convolution) and by ffplay grabbing it with x11grab into a scaled window, in one run on
/// one server.
func mirrorBenchmark(seconds: Double) throws {
  let server = try TestXServer.vnc()
  try mirrorRuns(server, seconds: seconds)
  server.stop()
}

func mirrorRuns(_ server: TestXServer, seconds: Double) throws {
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
  let x = try XInspector(server.display)
  let xvnc = try serverPid(server)
  // The server's own cost of the animation, shown by nobody.
  var animator = try startAnimator(server.display, fps: 60)
  _ = pollFDs([], timeoutMs: 500)  // the animation reaches its pace
  let baseline = measure([xvnc], seconds: seconds)[0]
  animator.signal(SIGKILL)
  animator.wait()

  var rows: [CopyFigures] = []
  // `box`, the slow convolution `auto` is measured against: not in the ratios.
  for filter in ["auto", "bilinear", "box"] {
    rows.append(try displaydCopy(server, x, xvnc, filter: filter, baseline: baseline, seconds: seconds))
  }
  rows.append(try ffplayCopy(server, x, xvnc, baseline: baseline, seconds: seconds))

  print(
    "Mirror: a 60 fps full-screen 1920x1080 source shown on a 1280x1024 monitor (fit), Xvnc, \(Int(seconds)) s each")
  print("  machine: \(machineName())")
  print("  Xvnc running the bare animation: \(String(format: "%.1f", baseline * 100)) % of a core")
  for r in rows {
    let name = r.name.padding(toLength: 22, withPad: " ", startingAt: 0)
    print(
      String(
        format: "  %@ %5.1f frames/s   extra CPU %5.1f %% (client %5.1f %% + Xvnc %5.1f %%)", name, r.framesPerSecond,
        r.total * 100, r.client * 100, r.serverExtra * 100))
  }
  let (auto, bilinear, ffplay) = (rows[0], rows[1], rows[3])
  print(
    String(
      format:
        "  auto / ffplay CPU = %.2fx (goal <= 0.25)   auto / bilinear CPU = %.2fx (goal <= 1.25)   auto %.1f frames/s (goal >= 50)",
      auto.total / max(ffplay.total, 0.0001), auto.total / max(bilinear.total, 0.0001), auto.framesPerSecond))
}

/// displayd mirroring with `filter` while the animation runs: CPU, frames into its window,
/// composites; for `auto` also a still screen's cost and the latency of isolated changes.
func displaydCopy(
  _ server: TestXServer, _ x: XInspector, _ xvnc: pid_t, filter: String, baseline: Double, seconds: Double
) throws -> CopyFigures {
  let runtime = try makeTempDirectory("displayd-bench-run")
  let daemon = try DaemonProcess(
    display: server.display, config: "{ defaults: { content: 'mirror', mirror: { filter: '\(filter)' } } }",
    environment: ["XDG_RUNTIME_DIR": runtime], logLevel: "info")
  defer {
    daemon.child.signal(SIGTERM)
    _ = daemon.child.wait()
  }
  guard eventually(within: 2, { x.displaydWindows().count == 1 }), let window = x.displaydWindows().first?.id else {
    throw RigError("no mirror window")
  }
  if filter == "auto" { try stillAndLatency(server, x, daemon, runtime, seconds: seconds) }
  let frames = try FrameCounter(x, window: window)
  let animator = try startAnimator(server.display, fps: 60)
  defer {
    animator.signal(SIGKILL)
    animator.wait()
  }
  _ = pollFDs([], timeoutMs: 500)  // the animation and the mirror reach their pace
  let c0 = try composites(server.display, runtime)
  let m = measure([daemon.child.pid, xvnc]) { frames.count(seconds: seconds) }
  let perSecond = Double(try composites(server.display, runtime) - c0) / m.seconds
  daemon.drain()
  print(String(format: "  (displayd %@: %.1f composites/s)", filter, perSecond))
  return CopyFigures(
    name: "displayd, \(filter)", client: m.cpu[0], serverExtra: m.cpu[1] - baseline,
    framesPerSecond: Double(m.result) / m.seconds)
}

/// ffplay grabbing the main monitor with x11grab at 60 fps, shown scaled to 1280x720 at
/// the second monitor's letterboxed place.
func ffplayCopy(_ server: TestXServer, _ x: XInspector, _ xvnc: pid_t, baseline: Double, seconds: Double) throws
  -> CopyFigures
{
  var env = ProcessInfo.processInfo.environment
  env["DISPLAY"] = server.display
  let ffplay = try ChildProcess(
    [
      "ffplay", "-loglevel", "error", "-nostats", "-an", "-f", "x11grab", "-framerate", "60", "-video_size",
      "1920x1080", "-i", "\(server.display)+0,0", "-x", "1280", "-y", "720", "-left", "1920", "-top", "152",
      "-noborder", "-window_title", "x11grab",
    ], environment: env)
  defer {
    ffplay.signal(SIGTERM)
    if ffplay.wait(timeout: 5) == nil { ffplay.signal(SIGKILL) }
  }
  guard eventually(within: 5, { foreignWindow(x, minX: 1920) != nil }), let window = foreignWindow(x, minX: 1920)
  else { throw RigError("no ffplay window: \(ffplay.drainOutput().err)") }
  let frames = try FrameCounter(x, window: window)
  let animator = try startAnimator(server.display, fps: 60)
  defer {
    animator.signal(SIGKILL)
    animator.wait()
  }
  _ = pollFDs([], timeoutMs: 1000)  // ffplay's start-up and buffering settle
  let m = measure([ffplay.pid, xvnc]) { frames.count(seconds: seconds) }
  return CopyFigures(
    name: "ffplay x11grab", client: m.cpu[0], serverExtra: m.cpu[1] - baseline,
    framesPerSecond: Double(m.result) / m.seconds)
}

/// A still screen's cost and the latency of isolated changes, mirrored with `auto`.
func stillAndLatency(
  _ server: TestXServer, _ x: XInspector, _ daemon: DaemonProcess, _ runtime: String, seconds: Double
) throws {
  let probe = x.quadrants(.init(x: 0, y: 0, width: 1920, height: 1080), [0x101010, 0x101010, 0x101010, 0x101010])
  defer { XDestroyWindow(x.display, Window(probe)) }
  _ = eventually(within: 1) { x.pixel(x: 1920 + 320, y: 332) == 0x101010 }
  _ = pollFDs([], timeoutMs: 300)  // let the start-up settle before measuring idle
  let c0 = try composites(server.display, runtime)
  let still = measure([daemon.child.pid], seconds: min(seconds, 2))[0]
  let stillComposites = try composites(server.display, runtime) - c0
  var latencies: [Double] = []
  for i in 0..<30 {
    let colour: UInt32 = i % 2 == 0 ? 0xc03030 : 0x30c030
    // Isolated changes: one within a frame of the last composite waits for the next frame.
    _ = pollFDs([], timeoutMs: 50)
    let t0 = now()
    x.fill(probe, .init(x: 430, y: 220, width: 100, height: 100), colour)
    guard eventually(within: 1, { x.pixel(x: 1920 + 320, y: 332) == colour }) else {
      throw RigError("change not mirrored")
    }
    latencies.append((now() - t0) * 1000)
  }
  print(
    String(
      format:
        "  (auto: still screen displayd %.1f %% CPU, %d composites; change -> mirror median %.1f ms, p90 %.1f ms)",
      still * 100, stillComposites, percentile(latencies, 0.5), percentile(latencies, 0.9)))
}
