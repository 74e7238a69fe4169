import DisplayModel
import DisplayRender
import DisplaySupport
import Foundation

@testable import DisplayKit

/// What a failed sequence tells: its seed, the steps up to the failure, what broke.
struct SimFailure: Error, CustomStringConvertible {
  var seed: UInt64
  var backend: SimBackend
  var steps: [String]
  var problems: [String]
  var log: [String]

  var description: String {
    let numbered = steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
    return
      (["simulation seed \(seed) over \(backend.rawValue) failed after \(steps.count) step(s):"] + numbered
      + ["invariants broken:"] + problems.map { "  - " + $0 }
      + [
        "replay: DISPLAYD_SIM_WORLD=\(backend.rawValue) DISPLAYD_SIM_SEED=\(seed) swift test --filter DaemonSimulation"
      ])
      .joined(separator: "\n")
  }
}

/// One seeded life of the daemon: steps drawn from the seed, run against `SimWorld` with a
/// manual clock, the invariants checked after every step and once everything settled.
final class SimRun {
  let seed: UInt64
  var random: SimRandom
  /// Draws what the server does of its own accord, apart from `random`: a seed draws the
  /// same other steps with or without it (`serverReset` in `without` leaves it out).
  var server: SimRandom
  let world: SimWorld
  let clock = ManualClock()
  var daemon: Daemon!
  var config: Int
  var steps: [String] = []
  /// Events were lost: a resync is owed (the daemon's view may be stale until then).
  var owesResync = false
  /// The last lines the daemon logged, for a failure's report.
  var log: [String] = []
  var logger: Logger!

  /// Step kinds left out (`SimRandom.kinds`).
  let without: Set<String>
  /// Whether the log is kept for a replay (with the steps between its lines).
  let keepingLog: Bool
  /// `keepingLog`: the daemon's lines are kept for the failure's report (a replay shows
  /// them); else only errors are formatted, which the daemon counts (a sixth of the cost of
  /// a life went to lines nobody read). The daemon does the same whatever its log level.
  init(seed: UInt64, over backend: SimBackend = .randr, without: Set<String> = [], keepingLog: Bool = false) {
    self.seed = seed
    self.keepingLog = keepingLog
    world = SimWorld(backend, connectors: SimScenario.connectors, seed: seed)
    self.without = without
    random = SimRandom(seed: seed)
    server = SimRandom(seed: seed ^ 0x5345_5256)
    config = random.below(SimScenario.configs.count)
    guard keepingLog else {
      logger = Logger(level: .error) { _ in }
      return
    }
    logger = Logger(level: .debug) { [unowned self] line in
      log.append(line.hasSuffix("\n") ? String(line.dropLast()) : line)
      if log.count > 400 { log.removeFirst(log.count - 200) }
    }
  }

  /// Runs `count` steps; the failure, if an invariant broke.
  func run(steps count: Int) -> SimFailure? {
    do {
      let lid: LidState = random.chance(20) ? .closed : .open
      steps.append("start: config \(config) (\(SimScenario.configNames[config])), lid \(lid.rawValue)")
      daemon = try Daemon(
        server: world, surfaces: world, painter: CairoPicturePainter(), facilities: world.facilities,
        config: SimScenario.configs[config],
        log: logger, clock: clock)
      try daemon.setLid(lid, reconcile: false)
      try daemon.start()
      if let failure = check(afterStep: true) { return failure }
      for _ in 0..<count {
        let step = random.step(
          connected: world.connected, configs: SimScenario.configs.count,
          choices: choices(), without: without)
        // Lost events are followed by a resync before anything else happens. (Had the
        // daemon applied something meanwhile, its own snapshot would show the monitor whose
        // event was lost, and the resync then sees no change and arranges nothing: an open
        // finding, seed 1592590359 before this rule.)
        if owesResync {
          steps.append("resync")
          try resync()
        }
        steps.append(step.description)
        if keepingLog { log.append("-- step \(steps.count): \(step)") }
        try perform(step)
        try takeAnswers()
        if let failure = check(afterStep: true) { return failure }
        guard !without.contains("serverReset"), let reset = server.serverStep(connected: world.connected) else {
          continue
        }
        steps.append(reset.description)
        if keepingLog { log.append("-- step \(steps.count): \(reset)") }
        try perform(reset)
        try takeAnswers()
        if let failure = check(afterStep: true) { return failure }
      }
      try settle()
      return check(afterStep: false)
    } catch {
      return SimFailure(
        seed: seed, backend: world.backend, steps: steps, problems: ["the daemon threw: \(error)"], log: log)
    }
  }

  /// What a manual switch may pick: the config's profiles (matching or not) and the layouts.
  func choices() -> [LayoutChoice] {
    SimScenario.configs[config].profiles.map { .profile($0.name) } + BuiltinLayout.allCases.map { .layout($0) }
  }

  func perform(_ step: SimStep) throws {
    switch step {
    case .plug(let c, let m, let delivery):
      world.plug(c, monitor: m)
      try deliver(delivery)
    case .unplug(let c, let delivery):
      world.unplug(c)
      try deliver(delivery)
    case .flap(let c, let ms):
      guard let monitor = world.plugged[c] else { return }
      world.unplug(c)
      try daemon.handleServerEvents()
      try advance(ms * 1_000_000)
      world.plug(c, monitor: monitor)
      try daemon.handleServerEvents()
    case .lid(let state): try daemon.setLid(state)
    case .reload(let c):
      config = c
      try daemon.reload(SimScenario.configs[c])
    case .choose(let choice): _ = try daemon.switchTo(choice)
    case .resumeAutomatic: _ = try daemon.resumeAutomatic()
    case .failApply(let n): world.failApply(n)
    case .failOpen(let n): world.failOpen(n)
    case .closeSurface(let k):
      world.closeSurface(k)
      if random.chance(70) { try daemon.handleServerEvents() }
    case .draw:
      // Two draws, as many as the seeds drew for this step before: which surface, how soon its frame.
      world.draw(exposing: random.below(1900), frameAfter: UInt64(random.below(1000)) * 16_000)
      try daemon.handleServerEvents()
    case .wait(let ms): try advance(ms * 1_000_000)
    case .resync: try resync()
    case .blank(let on): world.blanked = on
    case .serverReplug(let c, let ms, let folded, let mode, let right):
      guard let monitor = world.plugged[c] else { return }
      world.serverUnplug(c)
      if !folded {
        try daemon.handleServerEvents()
        try advance(ms * 1_000_000)
      }
      world.serverPlug(c, monitor: monitor, mode: mode, right: right)
      try daemon.handleServerEvents()
    }
  }

  /// The RandR events of the change just made reach the daemon as `delivery` says.
  func deliver(_ delivery: SimDelivery) throws {
    switch delivery {
    case .now: try daemon.handleServerEvents()
    case .late: break
    case .twice:
      world.repeatEvent()
      try daemon.handleServerEvents()
    case .lost:
      world.loseEvents()
      owesResync = true
    }
  }

  /// The server's answers to the daemon's own configurations (a compositor's `done`; the
  /// RandR fake sends none) reach its event loop at once, as on a real connection. Taking
  /// them makes no apply of its own (the watch on applies would say), so a few rounds end it.
  func takeAnswers() throws {
    for _ in 0..<4 where world.answersWaiting { try daemon.handleServerEvents() }
  }

  func resync() throws {
    owesResync = false
    try daemon.resync(reason: "simulated resume")
  }

  /// Time passes by `nanoseconds` at once: the timers due by then fire, late.
  func advance(_ nanoseconds: UInt64) throws {
    clock.advance(nanoseconds)
    if daemon.frameTimerDescriptor != nil { daemon.frameTimerFired() }
    if daemon.graceTimerDescriptor != nil, graceDue { try daemon.graceTimerFired() }
  }

  /// Whether the grace timer would have fired by now: a deadline passed, or a blanked
  /// screen's look again is due (the simulation's waits are all at least that long apart
  /// when it matters).
  var graceDue: Bool {
    daemon.layout.grace.pending.values.contains { clock.nanoseconds >= $0.deadline || $0.heldByBlank }
  }

  /// Everything the world did reaches the daemon, faults stop, and time runs past every grace.
  func settle() throws {
    steps.append("settle")
    world.clearFaults()
    world.blanked = false
    if world.queuedEvents > 0 { try daemon.handleServerEvents() }
    if owesResync { try resync() }
    for _ in 0..<3 { try advance(61_000_000_000) }
    if world.queuedEvents > 0 { try daemon.handleServerEvents() }
    try takeAnswers()
  }

  /// The invariants: after a step (`afterStep`), those that hold at every moment, and the
  /// state ones when the daemon has seen everything; after settling, all of them and the
  /// comparison with a fresh daemon.
  func check(afterStep: Bool) -> SimFailure? {
    var problems = surfaceProblems() + applyProblems()
    if !owesResync && world.queuedEvents == 0 { problems += stateProblems() + headProblems() }
    if !afterStep && problems.isEmpty { problems += settledProblems() }
    guard !problems.isEmpty else { return nil }
    return SimFailure(seed: seed, backend: world.backend, steps: steps, problems: problems, log: log)
  }
}
