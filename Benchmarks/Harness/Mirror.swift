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

/// Mirror cost and latency, against ffmpeg's x11grab capture of the same animation.
func mirrorBenchmark(seconds: Double, filter: String) throws {
  let server = try TestXServer.vnc()
  try mirrorRuns(server, seconds: seconds, filter: filter)
  server.stop()
}

func mirrorRuns(_ server: TestXServer, seconds: Double, filter: String) throws {
  let runtime = try makeTempDirectory("displayd-bench-run")
  let vnc = try VNCClient(socketPath: server.vncSocket)
  guard let main = vnc.screens.first?.id else { throw RigError("no main screen") }
  let daemon = try DaemonProcess(
    display: server.display, config: "{ defaults: { content: 'mirror', mirror: { filter: '\(filter)' } } }",
    extra: ["--log-level", "info"],
    environment: ["XDG_RUNTIME_DIR": runtime])
  let x = try XInspector(server.display)
  let xvnc = try serverPid(server)
  let pids = [daemon.child.pid, xvnc]
  try vnc.setLayout(VNCClient.row([(main, 1920, 1080), (main + 1, 1280, 1024)]))
  guard eventually(within: 2, { x.displaydWindows().count == 1 }) else { throw RigError("no mirror") }
  let probe = x.quadrants(.init(x: 0, y: 0, width: 1920, height: 1080), [0x101010, 0x101010, 0x101010, 0x101010])
  _ = eventually(within: 1) { x.pixel(x: 1920 + 320, y: 332) == 0x101010 }
  _ = pollFDs([], timeoutMs: 300)  // let the start-up settle before measuring idle

  // Still screen.
  let c0 = try composites(server.display, runtime)
  let still = measure(pids, seconds: seconds)
  let stillComposites = Double(try composites(server.display, runtime) - c0) / seconds

  // Source change to mirror latency, one change at a time.
  var latencies: [Double] = []
  for i in 0..<30 {
    let colour: UInt32 = i % 2 == 0 ? 0xc03030 : 0x30c030
    // Isolated changes: a change within one frame of the last composite waits for the next
    // frame (pacing), which back-to-back probes would measure instead.
    _ = pollFDs([], timeoutMs: 50)
    let t0 = now()
    x.fill(probe, .init(x: 430, y: 220, width: 100, height: 100), colour)
    guard eventually(within: 1, { x.pixel(x: 1920 + 320, y: 332) == colour }) else {
      throw RigError("change not mirrored")
    }
    latencies.append((now() - t0) * 1000)
  }

  // Animated source, mirrored.
  var animator = try startAnimator(server.display, fps: 60)
  _ = pollFDs([], timeoutMs: 500)
  let c1 = try composites(server.display, runtime)
  let animated = measure(pids, seconds: seconds)
  let animatedComposites = Double(try composites(server.display, runtime) - c1) / seconds
  animator.signal(SIGKILL)
  animator.wait()

  // The same animation with no mirror monitor: the server's baseline.
  try vnc.setLayout(VNCClient.row([(main, 1920, 1080)]))
  _ = eventually(within: 2) { x.displaydWindows().isEmpty }
  animator = try startAnimator(server.display, fps: 60)
  _ = pollFDs([], timeoutMs: 500)
  let baseline = measure([xvnc], seconds: seconds)[0]

  // The client-side capture path: ffmpeg x11grab of the same region at 60 fps.
  let ffmpeg = try ChildProcess([
    "ffmpeg", "-loglevel", "error", "-f", "x11grab", "-framerate", "60", "-video_size", "1920x1080", "-i",
    "\(server.display)+0,0", "-f", "null", "-",
  ])
  _ = pollFDs([], timeoutMs: 1000)
  let grab = measure([ffmpeg.pid, xvnc], seconds: seconds)
  ffmpeg.signal(SIGINT)
  ffmpeg.wait(timeout: 5)
  animator.signal(SIGKILL)
  animator.wait()

  let ours = animated[0] + (animated[1] - baseline)
  let theirs = grab[0] + (grab[1] - baseline)
  func pct(_ v: Double) -> String { String(format: "%5.1f %%", v * 100) }
  print("Mirror 1920x1080 main -> 1280x1024 (fit, filter \(filter)) on Xvnc, \(Int(seconds)) s per figure:")
  print(
    "  still screen:    displayd \(pct(still[0])) CPU, Xvnc \(pct(still[1])), \(String(format: "%.1f", stillComposites)) composites/s"
  )
  print(
    "  60 fps source:   displayd \(pct(animated[0])) CPU, Xvnc \(pct(animated[1])) (baseline \(pct(baseline)): extra \(pct(animated[1] - baseline))), \(String(format: "%.1f", animatedComposites)) composites/s"
  )
  print("  ffmpeg x11grab:  ffmpeg \(pct(grab[0])) CPU, Xvnc \(pct(grab[1])) (extra \(pct(grab[1] - baseline)))")
  print(
    String(
      format: "  source change -> mirror: median %.1f ms, p90 %.1f ms (30 isolated changes, XGetImage polling)",
      percentile(latencies, 0.5), percentile(latencies, 0.9)))
  print(
    String(
      format:
        "  total CPU for a live 60 fps copy: displayd path %.1f %%, x11grab path %.1f %% (x11grab / displayd = %.1fx)",
      ours * 100, theirs * 100, theirs / max(ours, 0.0001)))
  _ = daemon
}
