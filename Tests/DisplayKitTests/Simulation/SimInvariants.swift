import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport
import DisplayX11

@testable import DisplayKit

/// The simulation's invariants, each a list of what is wrong (empty: it holds).
extension SimRun {
  /// Once the daemon has seen everything: the window decisions it takes over its heads hold
  /// together. Main is a connected head, lit whenever one is; the lid's main is lit; each
  /// window wanted is on a distinct lit desktop head, at that head's area, and a mirror's
  /// source is a lit head other than itself.
  func headProblems() -> [String] {
    let (heads, config) = (daemon.heads, daemon.layout.windowConfig)
    var problems: [String] = []
    let lit = heads.heads.filter { $0.connected && $0.rect != nil }
    let main = config.mainOutput(in: heads)
    if let main, !main.connected { problems.append("main \(main.name) is not connected") }
    if !lit.isEmpty, main?.rect == nil { problems.append("main \(main?.name ?? "-") is dark while a head is lit") }
    if !lit.isEmpty, let lidMain = LidPolicy.main(snapshot: heads, config: config), lidMain.rect == nil {
      problems.append("the lid's main \(lidMain.name) is dark")
    }
    var seen: Set<String> = []
    for want in config.wantedWindows(in: heads) {
      if !seen.insert(want.head).inserted { problems.append("two windows wanted on \(want.head)") }
      guard let head = heads.head(named: want.head), head.connected, !head.nonDesktop, let rect = head.rect else {
        problems.append("a window wanted on \(want.head), which is not a lit desktop head")
        continue
      }
      if rect != want.rect { problems.append("\(want.head)'s window wanted at \(want.rect), the head at \(rect)") }
      if let source = want.mirrorSource {
        if source == want.head || heads.head(named: source)?.rect == nil {
          problems.append("\(want.head) mirrors \(source), which is not another lit head")
        }
      }
    }
    return problems
  }

  /// Every moment: no surface closed twice or used after it was closed (but for the races
  /// the simulation makes, counted apart in `racedCalls`), and (once the surface events are
  /// taken) exactly the surfaces the daemon's monitors name are open, no more (a leak) no
  /// less. The server resources behind a surface (pixmaps, pictures, damage, cursor
  /// pictures) are the backend's to own and free: the X backend's tests check them against
  /// Xvnc, so the simulation, which runs no backend, does not.
  func surfaceProblems() -> [String] {
    var problems: [String] = []
    if world.host.misuses > 0 { problems.append("\(world.host.misuses) call(s) on a surface not open") }
    // A surface closed from outside is gone before the daemon hears of it: by design.
    guard world.pendingSurfaceEvents == 0 else { return problems }
    let surfaces = Set(daemon.monitors.values.map(\.surface))
    let held = Set(world.host.surfaces.keys)
    if held != surfaces {
      problems.append("surfaces held \(sorted(held)), the daemon's \(sorted(surfaces))")
    }
    return problems
  }

  /// Every apply changes something: the daemon never applies a plan already in force.
  func applyProblems() -> [String] {
    world.redundantApplies.map { "an apply that changed nothing: \($0)" }
  }

  /// When the daemon has seen every event: its view is the server's (but for disconnects
  /// waiting for their grace), every lit monitor that wants a surface has exactly one, at its
  /// place, showing what it wants (a mirror: a request naming the policy's source), none
  /// else has any, and some output is lit.
  func stateProblems() -> [String] {
    var problems: [String] = []
    let real = world.topology
    let pending = daemon.layout.grace.pending
    // The desk's last read is the server now, and the daemon's heads are that read's, held.
    if world.topology(holding: .none) != real || daemon.heads != world.heads(holding: daemon.layout.held) {
      problems.append("the daemon's view is not the server's")
    }
    let wanted = daemon.layout.windowConfig.wantedWindows(in: daemon.heads)
    let rects = world.surfaceRects
    for want in wanted where pending[want.head] == nil {
      guard let monitor = daemon.monitors[want.head], let rect = rects[monitor.surface] else {
        // A surface the backend would not open is opened again on the next change of the
        // desk (no timer retries it): uncovered until then, by design.
        if world.surfaceless.contains(want.head) { continue }
        problems.append("\(want.head) is lit and has no surface")
        continue
      }
      if rect != want.rect { problems.append("\(want.head)'s surface at \(rect), the monitor at \(want.rect)") }
      if monitor.content != want.content {
        problems.append("\(want.head) shows \(monitor.content.rawValue), not \(want.content.rawValue)")
      }
      problems += mirrorProblems(want, monitor)
    }
    // A monitor whose disconnect waits for its grace keeps its surface: by design.
    let allowed = Set(wanted.map(\.head)).union(pending.keys)
    for (name, monitor) in daemon.monitors where !allowed.contains(name) {
      let state = real.output(named: name).map { real.geometry(of: $0) == nil ? "unlit" : "lit" } ?? "gone"
      problems.append("\(monitor.name) has a surface it should not have (\(state))")
    }
    if rects.count != daemon.monitors.count {
      problems.append("\(rects.count) surface(s) for \(daemon.monitors.count) monitor(s)")
    }
    // While a disconnect waits, its monitor may have been the only one lit: dark for the
    // grace at most, by design.
    let connected = real.connectedOutputs
    if pending.isEmpty, !connected.isEmpty, !connected.contains(where: { real.geometry(of: $0) != nil }) {
      // After a refused apply too (seeds 1592590349, 1592590406, 1592590497, 1592590971): a
      // rollback to a dark desk is tried again at once.
      problems.append("the desk is dark: \(connected.map(\.name).joined(separator: ", ")) connected, none lit")
    }
    return problems
  }

  /// A monitor the policy mirrors asks its surface to mirror the policy's source, and the
  /// surface mirrors just that; one that does not mirror asks for no mirror.
  func mirrorProblems(_ want: WindowWanted, _ monitor: ManagedMonitor) -> [String] {
    let surface = world.host.surfaces[monitor.surface]
    guard want.content == .mirror, want.mirror != nil else {
      return monitor.mirror == nil && surface?.mirror == nil ? [] : ["\(monitor.name) mirrors, and should not"]
    }
    let source = want.mirrorSource ?? ""
    guard let request = monitor.mirror else {
      return ["\(monitor.name) should mirror \(source), and asked for nothing"]
    }
    var problems: [String] = []
    if request.source != source { problems.append("\(monitor.name) mirrors \(request.source), not \(source)") }
    if surface?.mirror != request { problems.append("\(monitor.name)'s surface does not mirror what the daemon asked") }
    return problems
  }

  /// Once settled: another look changes nothing (idempotent), and the layout and surfaces
  /// are those a fresh daemon started on the final monitors, lid and config makes.
  ///
  /// The first look changes nothing either, but for the retries (a failed configuration, a
  /// gone monitor's CRTC still on). It once moved the monitor that had been main, when
  /// another became main (seeds 1592590393, 1592590437, 1592590638, 1592592850): the rules
  /// now settle main where it is.
  func settledProblems() -> [String] {
    var problems: [String] = []
    if !daemon.pendingDisconnects.isEmpty { problems.append("disconnects still pending after every grace") }
    // An apply that failed (a monitor's configuration, or turning a gone one's CRTC off) is
    // retried on the next change of the desk, no timer retries it (no idle wake-ups): the
    // first look again is such a change, by design.
    let t = world.topology
    let releasing = t.crtcs.contains { c in
      c.isActive && !c.outputs.isEmpty && c.outputs.allSatisfy { t.output($0)?.isConnected != true }
    }
    let retrying = !daemon.layout.failures.isEmpty || world.lastApplyFailed || releasing
    for look in 0..<2 {
      let (applies, opened, refused) = (world.applies, world.surfacesOpened, world.surfaceless.count)
      world.repeatEvent()
      do {
        try daemon.handleServerEvents()
        try daemon.reconcile(reason: "simulation: a look again")
      } catch { return ["a look again threw: \(error)"] }
      let changed = world.applies != applies || world.surfacesOpened - opened > refused
      guard changed else { break }
      if look == 0 {
        if retrying { continue }
        problems.append("the first look again at a settled desk applied \(world.applies - applies) plan(s)")
        break
      }
      problems.append("a second look again at a settled desk applied \(world.applies - applies) plan(s)")
    }
    // Once an open finding (8 of 4000 lives): main (the panel off) kept a mode the rules
    // had given another monitor or config (seeds 1592591824, 1592592463, 1592592980,
    // 1592593525), a main its rule turns off stayed lit once another was main (1592591547),
    // and the panel stayed lit with the lid closed after a failed apply (1592591253,
    // 1592593738): fixed, see SimFindingsFreshTests.swift.
    return problems + freshProblems()
  }

  /// The layout a fresh daemon plans for the final monitor set (from a desk with only the
  /// panel lit), compared output by output with the simulated one.
  func freshProblems() -> [String] {
    // A monitor the daemon gave up on after `maxAttempts` failures stays as it is until it
    // or the config changes: history, by design.
    if daemon.layout.failures.values.contains(where: { $0.count >= DeskLayout.maxAttempts }) { return [] }
    // A profile whose apply failed is not tried again on the same desk (a server refusing it
    // is not asked again at every event): the layout before it stays, by design.
    if daemon.layout.profileRuntime.failed { return [] }
    let fresh = world.fresh()
    do {
      let other = try Daemon(
        server: fresh, surfaces: fresh, painter: CairoPicturePainter(), facilities: fresh.facilities,
        config: SimScenario.configs[config],
        log: Logger(level: .error) { _ in }, clock: ManualClock())
      try other.setLid(daemon.lid, reconcile: false)
      try other.start()
      if let choice = daemon.layoutChoice { _ = try other.switchTo(choice) }
      var problems: [String] = []
      // With the lid closed, a place relative to the dark panel means nothing: monitors
      // placed while it was off sit where its absence put them, a fresh daemon's beside where
      // it was lit at start-up before going off. Then only what is lit, and at which mode, is
      // compared: history, by design.
      let lidDecides = daemon.lid == .closed && SimScenario.configs[config].lidClosed == .disable
      // Without a profile (or built-in layout) the rules place each new monitor beside those
      // lit, avoiding them, and never move one they placed: the order of plugging decides,
      // and a monitor unplugged leaves a gap. Only a profile's layout is the same whatever
      // the history: history, by design.
      let places = !lidDecides && daemon.activeProfile.name != nil
      let crowded = places ? [] : crowdedOutputs(beside: fresh.topology)
      let (mine, theirs) = (
        layout(world.topology, places: places, crowded: crowded),
        layout(fresh.topology, places: places, crowded: crowded)
      )
      if mine != theirs { problems.append("layout \(mine), a fresh daemon's \(theirs)") }
      let skip = world.surfaceless.union(places ? [] : SimScenario.connectors)
      let (myWindows, theirWindows) = (windows(daemon, world, skipping: skip), windows(other, fresh, skipping: skip))
      if myWindows != theirWindows { problems.append("surfaces \(myWindows), a fresh daemon's \(theirWindows)") }
      if daemon.activeProfile != other.activeProfile {
        problems.append("profile \(daemon.activeProfile), a fresh daemon's \(other.activeProfile)")
      }
      return problems
    } catch { return ["a fresh daemon threw: \(error)"] }
  }

  /// Where the lit outputs' bounding box starts. The layout is compared from there: the
  /// planner never moves a monitor it placed, so one placed left of or above the others and
  /// unplugged leaves them where they were, away from 0,0 (a dead band of screen), where a
  /// fresh daemon starts at 0,0. Known; reported, not fixed here.
  func origin(_ t: Topology) -> (x: Int, y: Int) {
    let rects = t.connectedOutputs.compactMap { t.geometry(of: $0) }
    return (rects.map(\.x).min() ?? 0, rects.map(\.y).min() ?? 0)
  }

  func shifted(_ r: Rect, _ o: (x: Int, y: Int)) -> String {
    Rect(x: r.x - o.x, y: r.y - o.y, width: r.width, height: r.height).description
  }

  /// Outputs lit here and in `fresh` in another mode, whose mode there would not fit the
  /// server's maximum screen beside where the history left the others. Without a profile the
  /// rules never move a monitor they placed, so an unplug leaves a gap, and a monitor placed
  /// past it gets the largest mode of its chain that fits (with a warning), where a fresh
  /// daemon, with no gap, gives the first (seed 1592593887): history, by design. Their mode is
  /// not compared (they are still lit, as a fresh daemon's).
  func crowdedOutputs(beside fresh: Topology) -> Set<String> {
    let t = world.topology
    let rects = Dictionary(
      uniqueKeysWithValues: t.connectedOutputs.compactMap { o in t.geometry(of: o).map { (o.id, $0) } })
    var crowded: Set<String> = []
    for output in t.connectedOutputs {
      guard var rect = rects[output.id], let other = fresh.output(named: output.name),
        let theirs = fresh.currentMode(of: other), theirs.name != t.currentMode(of: output)?.name
      else { continue }
      (rect.width, rect.height) = (theirs.width, theirs.height)
      let all = rects.filter { $0.key != output.id }.map(\.value) + [rect]
      let x0 = min(0, all.map(\.x).min() ?? 0)
      let y0 = min(0, all.map(\.y).min() ?? 0)
      let x1 = all.map { $0.x + $0.width }.max() ?? 0
      let y1 = all.map { $0.y + $0.height }.max() ?? 0
      if !t.screen.holds(x1 - x0, y1 - y0) { crowded.insert(output.name) }
    }
    return crowded
  }

  /// Each connected output's place and mode ("off" when dark; "lit" alone for the
  /// `crowded`), in connector order.
  func layout(_ t: Topology, places: Bool = true, crowded: Set<String> = []) -> [String] {
    let o = origin(t)
    // In connector order: a compositor lists heads in the order they came.
    let order = { (o: Output) in SimScenario.connectors.firstIndex(of: o.name) ?? Int.max }
    return t.connectedOutputs.sorted { order($0) < order($1) }.map { output in
      let mode = crowded.contains(output.name) ? "lit" : t.currentMode(of: output).map(\.name) ?? ""
      let place = { (r: Rect) in places ? self.shifted(r, o) + " " : "" }
      return "\(output.name) " + (t.geometry(of: output).map { place($0) + mode } ?? "off")
    }
  }

  /// Each surface's monitor, content and place (outputs whose surface would not open excluded).
  func windows(_ d: Daemon, _ w: SimWorld, skipping: Set<String>) -> [String] {
    let o = origin(w.topology)
    return d.monitors.values.filter { !skipping.contains($0.name) }.sorted { $0.name < $1.name }.map { m in
      "\(m.name) \(m.content.rawValue) \(w.surfaceRects[m.surface].map { shifted($0, o) } ?? "gone")"
    }
  }

  private func sorted(_ ids: Set<SurfaceID>) -> String {
    ids.sorted { $0.rawValue < $1.rawValue }.map(\.description).joined(separator: ", ")
  }
}
