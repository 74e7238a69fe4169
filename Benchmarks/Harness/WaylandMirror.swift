// displayd-bench wayland-mirror: a 60 fps wl_shm source on sway's main head (1280x720)
// mirrored full-screen onto a plugged 1920x1080 head by displayd (screencopy with damage into
// shm, scaled by the compositor) and by wl-mirror 0.17.0 (EGL through the rig's Mesa, in
// software; its dmabuf capture is refused on the pixman renderer and it falls back to
// screencopy), in rounds that take each subject in turn on the same sway.
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// One subject's figures over one measurement window.
private struct MirrorSample {
  var client: Double
  var swayExtra: Double
  var sourceFPS: Double
  var mirrorFPS: Double?
  var total: Double { client + swayExtra }
}

func waylandMirrorBenchmark(seconds: Double, rounds: Int) throws {
  try onTheRig("wayland-mirror") {
    let tools = try makeTempDirectory("displayd-bench")
    let program = try buildWaylandTool(
      "wl-animate", protocols: ["wlr-layer-shell-unstable-v1", "xdg-shell"], into: tools)
    let sway = try SwayCompositor()
    defer { sway.stop() }
    let target = try sway.plug()
    let swayPid = try sway.swayPid()
    let animator = try Animator(program, on: sway, output: "HEADLESS-1")
    defer { animator.stop() }
    _ = pollFDs([], timeoutMs: 500)  // the animation reaches its pace
    var baselines: [Double] = []
    var displayd: [MirrorSample] = []
    var wlMirror: [MirrorSample] = []
    for _ in 0..<rounds {
      baselines.append(measure([swayPid], seconds: seconds)[0])
      let base = median(baselines)
      displayd.append(try displaydMirror(sway, swayPid, animator, target, seconds: seconds, baseline: base))
      wlMirror.append(try wlMirrorRun(sway, swayPid, animator, target, seconds: seconds, baseline: base))
    }
    animator.stop()
    let still = try stillMirrors(sway, target, seconds: min(seconds, 2))
    printMirror(
      seconds: seconds, rounds: rounds, baseline: median(baselines), displayd: displayd, wlMirror: wlMirror,
      still: still)
  }
}

/// The medians of each figure over the rounds.
private func medianSample(_ s: [MirrorSample]) -> MirrorSample {
  let mirrors = s.compactMap(\.mirrorFPS)
  return MirrorSample(
    client: median(s.map(\.client)), swayExtra: median(s.map(\.swayExtra)), sourceFPS: median(s.map(\.sourceFPS)),
    mirrorFPS: mirrors.isEmpty ? nil : median(mirrors))
}

private func printMirror(
  seconds: Double, rounds: Int, baseline: Double, displayd: [MirrorSample], wlMirror: [MirrorSample],
  still: (displayd: Double, frames: Int, wlMirror: Double)
) {
  let (d, w) = (medianSample(displayd), medianSample(wlMirror))
  print(
    "Mirror on sway 1.10.1 (headless, pixman): a 60 fps wl_shm source on HEADLESS-1 (1280x720) shown full-screen on a")
  print("1920x1080 head, \(rounds) rounds of \(Int(seconds)) s per subject, medians; CPU in % of a core:")
  print("  machine: \(machineName())")
  print(String(format: "  sway compositing the bare animation: %.1f %%", baseline * 100))
  for (name, s) in [("displayd", d), ("wl-mirror 0.17.0", w)] {
    let frames = s.mirrorFPS.map { String(format: ", %.1f mirror frames/s", $0) } ?? ""
    print(
      pad("  " + name, 20)
        + String(
          format: " extra CPU %5.1f %% (client %5.1f %% + sway %5.1f %%), source %.1f frames/s%@", s.total * 100,
          s.client * 100, s.swayExtra * 100, s.sourceFPS, frames))
  }
  let ratio = d.total / max(w.total, 0.0001)
  print(String(format: "  displayd / wl-mirror: %.2fx (goal <= 0.5: %@)", ratio, ratio <= 0.5 ? "met" : "NOT met"))
  print(
    String(
      format: "  still source, %.0f s: displayd %.1f %% CPU, %d frames copied; wl-mirror %.1f %% CPU",
      min(seconds, 2), still.displayd * 100, still.frames, still.wlMirror * 100))
}

/// displayd mirroring the main head onto `target` while the animation runs.
private func displaydMirror(
  _ sway: SwayCompositor, _ swayPid: pid_t, _ animator: Animator, _ target: String, seconds: Double, baseline: Double
) throws -> MirrorSample {
  let runtime = try makeTempDirectory("displayd-bench-run")
  let daemon = try sway.daemon(config: "{ defaults: { content: 'mirror' } }", runtime: runtime)
  defer { stop(daemon) }
  guard daemon.log.contains(where: { $0.contains("mirror of ") }) || daemon.waitFor("mirror of ", timeout: 5) != nil
  else { throw RigError("no mirror: \(daemon.log)") }
  _ = pollFDs([], timeoutMs: 500)  // the mirror reaches its pace
  daemon.drain()
  let c0 = try mirrorFrames(sway, runtime)
  let m0 = animator.mark()
  let m = measure([daemon.child.pid, swayPid]) { _ = pollFDs([], timeoutMs: Int32(seconds * 1000)) }
  let m1 = animator.mark()
  let frames = Double(try mirrorFrames(sway, runtime) - c0) / m.seconds
  daemon.drain()
  return MirrorSample(
    client: m.cpu[0], swayExtra: m.cpu[1] - baseline, sourceFPS: Animator.rate(m0, m1), mirrorFPS: frames)
}

/// The frames displayd's mirrors copied, from its status counters.
private func mirrorFrames(_ sway: SwayCompositor, _ runtime: String) throws -> Int {
  let counters = try daemonStatus(sway.socketPath, runtime)["counters"] as? [String: Any]
  guard let n = counters?["composites"] as? Int else { throw RigError("no composites counter in status") }
  return n
}

/// wl-mirror 0.17.0 full-screen on `target`, mirroring the main head.
private func startWlMirror(_ sway: SwayCompositor, _ target: String) throws -> (ProcessGroup, pid_t) {
  var env = try SwayCompositor.mesaEnvironment()
  env["XDG_CACHE_HOME"] = sway.outputDirectory + "/cache"
  let group = try sway.startClient(
    ["wl-mirror", "--fullscreen-output", target, "HEADLESS-1"], name: "wl-mirror", environment: env)
  // It gives up on dmabuf (refused by the pixman renderer) before it copies with screencopy.
  guard eventually(within: 10, { group.log().contains("falling back to backend screencopy") || group.hasEnded }),
    try eventually(within: 5, { try sway.windows().contains { $0.output == target } }),
    let pid = rigProgramPid(group.members())
  else {
    group.stop()
    throw RigError("wl-mirror did not show: \(group.log().suffix(1000))")
  }
  return (group, pid)
}

private func wlMirrorRun(
  _ sway: SwayCompositor, _ swayPid: pid_t, _ animator: Animator, _ target: String, seconds: Double, baseline: Double
) throws -> MirrorSample {
  let (group, pid) = try startWlMirror(sway, target)
  defer { group.stop() }
  _ = pollFDs([], timeoutMs: 500)  // the mirror reaches its pace
  let m0 = animator.mark()
  let m = measure([pid, swayPid]) { _ = pollFDs([], timeoutMs: Int32(seconds * 1000)) }
  let m1 = animator.mark()
  return MirrorSample(client: m.cpu[0], swayExtra: m.cpu[1] - baseline, sourceFPS: Animator.rate(m0, m1))
}

/// Each mirror's CPU with nothing changing on the main head, and the frames displayd copied.
private func stillMirrors(_ sway: SwayCompositor, _ target: String, seconds: Double) throws -> (
  displayd: Double, frames: Int, wlMirror: Double
) {
  let runtime = try makeTempDirectory("displayd-bench-run")
  let daemon = try sway.daemon(config: "{ defaults: { content: 'mirror' } }", runtime: runtime)
  guard daemon.log.contains(where: { $0.contains("mirror of ") }) || daemon.waitFor("mirror of ", timeout: 5) != nil
  else { throw RigError("no mirror: \(daemon.log)") }
  _ = pollFDs([], timeoutMs: 500)  // the first frame is copied and shown
  let c0 = try mirrorFrames(sway, runtime)
  let d = measure([daemon.child.pid], seconds: seconds)[0]
  let frames = try mirrorFrames(sway, runtime) - c0
  stop(daemon)
  let (group, pid) = try startWlMirror(sway, target)
  defer { group.stop() }
  _ = pollFDs([], timeoutMs: 500)  // past its start-up
  let w = measure([pid], seconds: seconds)[0]
  return (d, frames, w)
}
