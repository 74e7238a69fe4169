// displayd-bench wayland-plug: plug -> hook started on the rig's sway 1.10, displayd against
// kanshi 1.5.1 on the same plugs: both place the new head below the main one (an applied
// configuration, not the compositor's own placement) and then start the same hook.
import Foundation
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// One plug's stamps, ms from `create_output` sent: the head announced to a bare client, and
/// the subject's hook started.
private struct PlugTimes {
  var announced: Double
  var hooked: Double
  /// The subject's first plug since it started (its code and caches still cold).
  var first = false
  var fromAnnouncement: Double { hooked - announced }
}

/// The plug benchmark's references and FIFOs.
private struct WaylandPlugRig {
  let sway: SwayCompositor
  let tools: Tools
  /// The subjects' hook writes here.
  let hooks: StampFIFO
  /// The bare output-management client writes here at every `done`.
  let announces: StampFIFO
}

/// Plugs in a block of one subject: blocks this short, in the order kanshi, displayd,
/// displayd, kanshi, ... , put both subjects' plugs in every stretch of the run, so a drift in
/// sway's own time to make and announce the head hits both alike.
private let blockPlugs = 4

/// `swaymsg create_output` -> hook started, `runs` plugs for each subject in short
/// interleaved blocks (each subject started anew for its block), with a bare client stamping
/// the head's announcement on every plug; medians and the ratio.
func waylandPlugBenchmark(runs: Int) throws {
  try onTheRig("wayland-plug") {
    let tools = try Tools()
    // The hook runs as the rig user under kanshi: it must reach the program and the FIFO.
    chmod(tools.directory, 0o755)
    let hooks = try StampFIFO(in: tools.directory)
    chmod(hooks.path, 0o666)
    let announces = try StampFIFO(in: try makeTempDirectory("displayd-bench"))
    let heads = try buildWaylandTool(
      "wl-heads", protocols: ["wlr-output-management-unstable-v1"], into: tools.directory)
    let sway = try SwayCompositor()
    defer { sway.stop() }
    // At nice -20: it wakes on the same events as the subject, and at normal priority its stamp
    // waited for a CPU while the subject (and swaymsg, swaybg) held both, which put the
    // announcement late by as much as the subject worked on it. `nice` goes on at the normal
    // priority where it may not raise it.
    let listener = try ChildProcess(
      ["/usr/bin/nice", "-n", "-20", heads, announces.path],
      environment: sway.waylandEnvironment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
    defer {
      listener.signal(SIGTERM)
      listener.wait()
    }
    guard listener.readLine(timeout: 5) == "ready" else { throw RigError("wl-heads did not start") }
    let rig = WaylandPlugRig(sway: sway, tools: tools, hooks: hooks, announces: announces)
    let runs = max(1, runs)
    var kanshi: [PlugTimes] = []
    var displayd: [PlugTimes] = []
    var block = 0
    while kanshi.count < runs {
      let n = min(blockPlugs, runs - kanshi.count)
      let kanshiFirst = block % 2 == 0
      if kanshiFirst { kanshi += try kanshiPlugs(rig, runs: n) }
      displayd += try displaydPlugs(rig, runs: n)
      if !kanshiFirst { kanshi += try kanshiPlugs(rig, runs: n) }
      block += 1
    }
    printPlugs(kanshi: kanshi, displayd: displayd, blocks: block)
  }
}

private func printPlugs(kanshi: [PlugTimes], displayd: [PlugTimes], blocks: Int) {
  print("Plug a head on sway 1.10.1 (headless, pixman; swaymsg create_output), \(kanshi.count) plugs each,")
  print("in \(blocks) blocks of each subject, interleaved (kanshi, displayd, displayd, kanshi, ...),")
  print("each subject started anew for its block;")
  print("ms from create_output sent; both place the new head below the main one before the hook:")
  print(pad("", 52) + "median      p90   vs kanshi")
  let reference = median(kanshi.map(\.hooked))
  func row(_ name: String, _ ms: [Double], ratio: Bool = false) {
    guard !ms.isEmpty else { return }
    let r = ratio ? String(format: "   %6.2fx", median(ms) / reference) : ""
    print(pad(name, 48) + String(format: "%8.1f %8.1f", median(ms), percentile(ms, 0.9)) + r)
  }
  row("head announced to a bare client, kanshi's plugs", kanshi.map(\.announced))
  row("head announced to a bare client, displayd's", displayd.map(\.announced))
  row("kanshi 1.5.1: profile exec started", kanshi.map(\.hooked), ratio: true)
  row("displayd: connected hook started", displayd.map(\.hooked), ratio: true)
  row("  kanshi, from the announcement", kanshi.map(\.fromAnnouncement))
  row("  displayd, from the announcement", displayd.map(\.fromAnnouncement))
  row("    kanshi, first plug after its start", kanshi.filter(\.first).map(\.fromAnnouncement))
  row("    displayd, first plug after its start", displayd.filter(\.first).map(\.fromAnnouncement))
  row("    kanshi, later plugs", kanshi.filter { !$0.first }.map(\.fromAnnouncement))
  row("    displayd, later plugs", displayd.filter { !$0.first }.map(\.fromAnnouncement))
  let ratio = median(displayd.map(\.hooked)) / reference
  print(String(format: "  goal: displayd <= 1.0x kanshi: %@ (%.2fx)", ratio <= 1 ? "met" : "NOT met", ratio))
}

/// Plugs a head, returns the stamps, waits for the subject's work on the plug (`done(1)`)
/// and on the unplug (`done(2)`), the head unplugged between.
private func timePlug(_ rig: WaylandPlugRig, done: (Int) throws -> Bool) throws -> PlugTimes {
  rig.hooks.drain()
  rig.announces.drain()
  let t0 = now()
  let r = try rig.sway.swaymsg(["create_output"])
  guard r.status == 0 else { throw RigError("create_output failed: \(r.err)") }
  guard let at = rig.hooks.next(timeout: 3) else { throw RigError("no hook within 3 s of the plug") }
  guard let announced = rig.announces.next(timeout: 1) else { throw RigError("the plug was not announced") }
  guard try eventually(within: 5, { try done(1) }) else { throw RigError("the plug was not handled") }
  for head in try rig.sway.outputs() where head.name != "HEADLESS-1" { try rig.sway.unplug(head.name) }
  guard try eventually(within: 5, { try done(2) }) else { throw RigError("the unplug was not handled") }
  return PlugTimes(announced: (announced - t0) * 1000, hooked: (at - t0) * 1000)
}

private func kanshiPlugs(_ rig: WaylandPlugRig, runs: Int) throws -> [PlugTimes] {
  let (sway, tools, fifo) = (rig.sway, rig.tools, rig.hooks)
  let config = sway.outputDirectory + "/kanshi.conf"
  try """
  profile single {
    output HEADLESS-1 enable position 0,0
  }
  profile docked {
    output HEADLESS-1 enable position 0,0
    output * enable position 0,720
    exec \(tools.hookStamp) \(fifo.path)
  }
  """.write(toFile: config, atomically: true, encoding: .utf8)
  chmod(config, 0o644)
  let kanshi = try sway.startClient(["kanshi", "-c", config], name: "kanshi")
  defer { kanshi.stop() }
  func applied() -> Int { kanshi.log().components(separatedBy: "' applied").count - 1 }
  guard eventually(within: 5, { applied() >= 1 || kanshi.hasEnded }), kanshi.isRunning else {
    throw RigError("kanshi did not start: \(kanshi.log())")
  }
  // kanshi applies a profile on every change of the heads: the plug's, then the unplug's.
  return try (0..<runs).map { i in
    let before = applied()
    var times = try timePlug(rig) { step in
      guard applied() >= before + step else { return false }
      // As for displayd: the next plug or unplug waits until the subject has been quiet.
      settle(kanshi, quiet: 0.05)
      return true
    }
    times.first = i == 0
    return times
  }
}

/// Waits until `group`'s log has not grown for `quiet` seconds, as `DaemonProcess.settle`
/// reads the daemon's: each subject's next plug or unplug starts after the same quiet. Started
/// at once after kanshi's own apply, kanshi's plugs met a machine still warm from it, which
/// displayd's (after the harness's quiet) never did.
private func settle(_ group: ProcessGroup, quiet: Double) {
  var size = group.log().utf8.count
  while true {
    _ = pollFDs([], timeoutMs: Int32(quiet * 1000))
    let grown = group.log().utf8.count
    if grown == size { return }
    size = grown
  }
}

private func displaydPlugs(_ rig: WaylandPlugRig, runs: Int) throws -> [PlugTimes] {
  let (sway, tools, fifo) = (rig.sway, rig.tools, rig.hooks)
  let runtime = try makeTempDirectory("displayd-bench-run")
  let daemon = try sway.daemon(
    config: """
      { disconnect_grace: 0, monitors: [{ match: { output: "HEADLESS-*" }, position: "below main" }],
        hooks: { connected: [["\(tools.hookStamp)", "\(fifo.path)"]] } }
      """, runtime: runtime)
  defer { stop(daemon) }
  return try (0..<runs).map { i in
    var times = try timePlug(rig) { step in
      daemon.drain()
      let managed = managedMonitors(sway.socketPath, runtime)
      guard step == 1 ? managed == 1 : managed == 0 else { return false }
      // Whatever the daemon still does for this plug or unplug ends before the next plug.
      daemon.settle(quiet: 0.05)
      return true
    }
    times.first = i == 0
    return times
  }
}
