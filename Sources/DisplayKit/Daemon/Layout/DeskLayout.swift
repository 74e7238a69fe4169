import DisplayModel
import DisplayPorts
import DisplaySupport

/// The daemon's layout part: the heads as it treats them, and what it chooses for them (the
/// per-monitor rules, profiles, the lid policy, built-in layouts, the disconnect grace, the
/// layout saved for a manual choice), put in force through the layout server's apply loop.
///
/// It knows nothing of surfaces or desk settings: what they need it says through `hooks`,
/// which the coordinator routes, and the values it gives out (heads, the windows wanted,
/// main, the profile chosen).
final class DeskLayout {
  /// The server's layout: heads read, configurations put in force, made modes released.
  let layoutServer: OutputManagerLayout
  /// Whether the server has blanked the screen (a grace then waits for it to be on).
  let power: (any ScreenPower)?
  let log: Logger
  /// The time the grace's deadlines are in.
  let clock: any MonotonicClock
  /// What the layout asks of the rest of the daemon; set by the coordinator.
  var hooks = LayoutHooks()
  /// The watch loop's steps: the reads, and what changed between them.
  let watcher: HeadWatcher
  var config: Config
  /// The laptop lid as the service last heard it (open without logind).
  var lid = LidState.open
  /// Reconciles run, those that changed the configuration, and probes asked for.
  var counters = DaemonCounters()
  /// Heads (by name) configured since they connected, with the monitor then: left as they
  /// are until they disconnect or another monitor appears on the connector.
  var settled: [String: MonitorKey] = [:]
  /// Heads (by name) whose configuration failed, with the monitor and how many times in a
  /// row: retried when the heads next change (not on the events of their own rollback), up
  /// to `maxAttempts` times, and again when the monitor or the config changes.
  var failures: [String: (monitor: MonitorKey, count: Int)] = [:]
  /// Heads (by name) the daemon lit (set a mode on: by the rules, a profile or a built-in
  /// layout) since they connected, whatever monitor is on them now.
  var litByDaemon: Set<String> = []
  /// The profile in force, the lid policy's memory (DeskLayout+Profiles.swift).
  var profileRuntime = ProfileRuntime()
  /// Disconnects waiting for `disconnect_grace` (DeskLayout+Grace.swift).
  var grace = GraceRuntime()
  static let maxAttempts = 3
  /// Plans made again in one reconcile, each without the monitors that failed before.
  static let maxRounds = 8

  /// Selects the change events of `changeSource` and reads the first heads, probing
  /// connectors once.
  init(
    changeSource: any ChangeSource, layoutServer: OutputManagerLayout, power: (any ScreenPower)? = nil, config: Config,
    log: Logger, clock: any MonotonicClock = SystemClock()
  ) throws(DisplayError) {
    self.layoutServer = layoutServer
    self.power = power
    self.config = config
    self.log = log
    self.clock = clock
    watcher = try HeadWatcher(source: changeSource, layout: layoutServer, probe: true)
  }

  /// The latest read's heads, as the output-management port describes them and the daemon
  /// treats them (the disconnects waiting for their grace still connected).
  var heads: HeadSnapshot { watcher.heads }

  /// The PNP ids the makes of the heads stand for.
  var vendors: PNPVendors { layoutServer.vendors(of: heads) }

  /// The desk's screen as the latest heads say it (its size, limits and millimetres on X).
  var screen: ScreenSize { heads.screen ?? .none }

  /// Plans and applies what differs and re-reads the result; returns the events seen in the
  /// snapshots it adopted. A plan made from a snapshot that went stale, or that the server
  /// refused in part, is rolled back by `apply` and made again without the outputs that
  /// failed: a few rounds at most, never a half-applied layout.
  func arrange(reason: String) throws(DisplayError) -> [HeadEvent] {
    var events = try arrangeRounds(reason: reason)
    // The read after a release may show a monitor that came or went meanwhile (its events
    // then only say the layout is as read): arranged as any read is, a few times at most.
    for _ in 0..<2 {
      let released = try releaseUnusedModes()
      guard !released.isEmpty else { break }
      events += released + (try arrangeRounds(reason: reason))
    }
    return events
  }

  /// The plans of one arrangement, each round on what the last one read.
  private func arrangeRounds(reason: String) throws(DisplayError) -> [HeadEvent] {
    var events: [HeadEvent] = []
    for _ in 0..<Self.maxRounds {
      let (before, snapshots, main) = (heads, watcher.snapshots, mainName)
      events += try arrangeOnce(reason: reason)
      // A snapshot read on the way (a plan gone stale) showed other monitors, or main moved
      // (the lid policy lit the panel): the steps before (the rules) planned without that.
      // Without a read the heads, and so the monitors, are the same.
      let moved = watcher.snapshots != snapshots && desk.monitors != DeskKey.monitors(of: before)
      guard moved || mainName != main else { break }
    }
    return events
  }

  /// Has the layout server delete the modes displayd made that no CRTC shows any more (their
  /// monitor went, or the config or profile no longer asks for them), then reads the result.
  private func releaseUnusedModes() throws(DisplayError) -> [HeadEvent] {
    let (released, problems) = try layoutServer.releaseUnusedModes()
    guard !released.isEmpty else { return [] }
    for problem in problems { log.warning(problem) }
    log.info("released custom mode(s) no CRTC shows: " + released.joined(separator: ", "))
    return adopt(try layoutServer.read())
  }

  /// One round: the desktop's layout, else a manual choice ended, the profile, else the rules
  /// and the lid policy; the desk settings follow whatever layout it leaves.
  private func arrangeOnce(reason: String) throws(DisplayError) -> [HeadEvent] {
    counters.reconciles += 1
    let n = counters.reconciles
    forgetGoneMonitors()
    if let manager = hooks.desktopManager() {
      let events = leaveLayout(to: manager, n, reason: reason)
      // Properties and touch devices are not the layout: they follow the desktop's.
      hooks.arranged()
      return events
    }
    var events: [HeadEvent] = []
    if let manual = profileRuntime.manual, manual.desk != desk { events += try resumeAutomatic(n, reason: reason) }
    let profiled = try arrangeProfile(n, reason: reason)
    events += profiled.events
    // Properties and touch devices follow whatever layout this leaves.
    if profiled.handled {
      hooks.arranged()
      return events
    }
    try arrangeRules(n, reason, &events)
    events += try arrangeLid(n, reason: reason)
    hooks.arranged()
    return events
  }

  /// Remembers the head's monitor as configured; a head the daemon's heads do not list is
  /// none to remember.
  func settle(_ name: String) {
    guard let head = heads.head(named: name) else { return }
    settled[name] = MonitorKey(head)
    failures[name] = nil
  }

  /// The heads whose disconnect waits for the grace.
  var pendingNames: Set<String> { Set(grace.pending.keys) }

  /// Forgets settled and failed heads whose monitor went away or was swapped for another
  /// (one whose disconnect waits for the grace has not gone yet).
  func forgetGoneMonitors() {
    let pending = pendingNames
    let connected = { (name: String) in self.heads.head(named: name)?.connected == true }
    let present = { (name: String, key: MonitorKey) in
      pending.contains(name) || self.heads.head(named: name).map { $0.connected && key.isOn($0) } ?? false
    }
    settled = settled.filter { present($0.key, $0.value) }
    failures = failures.filter { present($0.key, $0.value.monitor) }
    litByDaemon = litByDaemon.filter { pending.contains($0) || connected($0) }
  }

  /// Makes `new`, the server's heads just read, the daemon's (with the monitors whose
  /// disconnect waits for the grace still in them); logs and returns what changed since the
  /// last ones.
  func adopt(_ new: HeadSnapshot, reconnected: Set<String>? = nil) -> [HeadEvent] {
    noteResetsBetweenReads(new, reconnected ?? layoutServer.reconnected)
    let step = graceStep(new)
    let diffed = watcher.adopt(step.heads).filter { !step.quiet.contains($0.head.name) }
    let events = step.events + diffed
    for event in events {
      log.info(event.summary)
      // Lit by the server as it connected (Xvnc, a compositor): no user's choice, so the
      // rules plan it as one the daemon lit, main too.
      if event.kind == .connected && event.rect != nil { litByDaemon.insert(event.head.name) }
    }
    return events
  }

  /// The names the daemon's heads list: what the daemon remembers of a head it no longer
  /// lists (a snapshot read after the plan) it forgets.
  func listed(_ names: Set<String>) -> Set<String> {
    let heads = self.heads.heads
    return names.filter { name in heads.contains { $0.name == name } }
  }

  /// Whether no connected head is lit (a disconnect waiting for its grace counts as lit):
  /// after a rolled-back apply, the loop plans again, a few rounds at most, rather than
  /// leave a dark desk until the next change.
  var deskIsDark: Bool { Self.isDark(heads) }

  /// Whether desktop heads are connected and none of them is lit: enabled with a mode it
  /// lists (a head showing a mode it does not list, as a compositor's custom mode, is the
  /// topology the heads bridge makes of it: no CRTC lit). A non-desktop head (a headset)
  /// neither lights nor darkens the desk.
  static func isDark(_ snapshot: HeadSnapshot) -> Bool {
    let desk = snapshot.heads.filter { $0.connected && !$0.nonDesktop }
    return !desk.isEmpty && !desk.contains { $0.enabled && $0.mode != nil }
  }
}
