import DisplayKit
import DisplayModel

/// How the RandR events of a change reach the daemon.
enum SimDelivery: String {
  /// Drained by the daemon in the same step.
  case now
  /// Left queued: drained with a later step's.
  case late
  /// Queued twice over (a server repeating itself), then drained.
  case twice
  /// Never delivered: a resync (a resume, `SIGUSR1`) follows within a few steps.
  case lost
}

/// One thing that happens to the daemon's world, as drawn by the simulation.
enum SimStep: CustomStringConvertible {
  /// A monitor plugged into a connector (on a connected one: another monitor, a new EDID).
  case plug(connector: Int, monitor: Int, SimDelivery)
  case unplug(connector: Int, SimDelivery)
  /// Unplugged and plugged back within `afterMs` (the daemon sees both).
  case flap(connector: Int, afterMs: UInt64)
  case lid(LidState)
  case reload(config: Int)
  /// `profile switch` (or a built-in layout), by hand.
  case choose(LayoutChoice)
  case resumeAutomatic
  /// The `n`th apply from now fails half way (rolled back).
  case failApply(n: Int)
  /// The `n`th surface open from now fails.
  case failOpen(n: Int)
  /// Another client closes one of the daemon's surfaces.
  case closeSurface(k: Int)
  /// Something draws over the desk: a surface exposed, damage for the mirrors.
  case draw
  /// The clock jumps; the timers due by then fire (late, all at once).
  case wait(ms: UInt64)
  /// The connectors probed again, as on a resume or `SIGUSR1`.
  case resync
  /// DPMS blanks the screen or wakes it.
  case blank(Bool)
  /// The server's own doing: the monitor unplugged and its output turned off by the server,
  /// back after `afterMs` (or folded into one read with its going), lit by the server in the
  /// `mode`th of its modes (the first, its preferred, when folded), right of what is lit or at
  /// the origin (as Xvnc and a dock's driver do on a replug, and a compositor with a new output).
  case serverReplug(connector: Int, afterMs: UInt64, folded: Bool, mode: Int, right: Bool)

  var description: String {
    switch self {
    case .plug(let c, let m, let d): return "plug \(SimScenario.connectors[c]) \(SimScenario.monitorNames[m]) (\(d))"
    case .unplug(let c, let d): return "unplug \(SimScenario.connectors[c]) (\(d))"
    case .flap(let c, let ms): return "flap \(SimScenario.connectors[c]) back after \(ms) ms"
    case .lid(let state): return "lid \(state.rawValue)"
    case .reload(let c): return "reload config \(c) (\(SimScenario.configNames[c]))"
    case .choose(let choice): return "switch to \(choice)"
    case .resumeAutomatic: return "resume automatic choice"
    case .failApply(let n): return "apply \(n) from now fails"
    case .failOpen(let n): return "surface open \(n) from now fails"
    case .closeSurface(let k): return "surface \(k) closed by another client"
    case .draw: return "the desk is drawn on (a surface exposed, mirrors damaged)"
    case .wait(let ms): return "clock +\(ms) ms"
    case .resync: return "resync"
    case .blank(let on): return on ? "screen blanked" : "screen on"
    case .serverReplug(let c, let ms, let folded, let mode, let right):
      let when = folded ? "in the same read" : "after \(ms) ms"
      return "\(SimScenario.connectors[c]) replugged by the server \(when), lit in its mode \(mode) "
        + (right ? "right of the others" : "at the origin")
    }
  }
}

extension SimRandom {
  /// The next step, drawn with the world as it is (which connectors hold a monitor).
  /// Each kind's weight, in the order of `step`'s cases. The kinds' names are those of
  /// `DISPLAYD_SIM_WITHOUT` (`failWindow`: a surface open fails; `destroy`: a surface closed
  /// from outside), kept with the weights so that a seed draws the same sequence as before.
  static let weights = [24, 14, 8, 5, 5, 6, 2, 4, 4, 3, 3, 10, 2, 2]
  static let kinds = [
    "plug", "unplug", "flap", "lid", "reload", "switch", "resume", "failApply", "failWindow", "destroy", "draw",
    "wait", "resync", "blank",
  ]

  mutating func step(connected: [Bool], configs: Int, choices: [LayoutChoice], without: Set<String> = [])
    -> SimStep
  {
    let external = Array(1..<connected.count)
    let plugged = external.filter { connected[$0] }
    let delivery = delivery()
    let weights = zip(Self.weights, Self.kinds).map { without.contains($1) ? 0 : $0 }
    switch weighted(weights) {
    case 0: return .plug(connector: pick(external), monitor: below(SimScenario.monitorNames.count), delivery)
    case 1: return plugged.isEmpty ? .wait(ms: 100) : .unplug(connector: pick(plugged), delivery)
    case 2: return plugged.isEmpty ? .draw : .flap(connector: pick(plugged), afterMs: UInt64(100 + below(1300)))
    case 3: return .lid(chance(50) ? .closed : .open)
    case 4: return .reload(config: below(configs))
    case 5: return choices.isEmpty ? .resumeAutomatic : .choose(pick(choices))
    case 6: return .resumeAutomatic
    case 7: return .failApply(n: 1 + below(3))
    case 8: return .failOpen(n: 1 + below(3))
    case 9: return .closeSurface(k: below(4))
    case 10: return .draw
    case 11: return .wait(ms: pick([10, 200, 1000, 1600, 4000, 70_000]))
    case 12: return .resync
    default: return .blank(chance(50))
    }
  }

  /// The server's own step, drawn from its own generator (so a seed's other steps are drawn
  /// as before): one time in `oneIn`, a replug of a plugged external monitor.
  mutating func serverStep(connected: [Bool], oneIn: Int = 8) -> SimStep? {
    let plugged = Array(1..<connected.count).filter { connected[$0] }
    guard !plugged.isEmpty, below(oneIn) == 0 else { return nil }
    let (connector, afterMs, folded, mode) = (pick(plugged), UInt64(below(2500)), chance(40), below(3))
    // Folded into one read, the daemon tells the server's reset by the preferred mode the
    // server gives a monitor back (a user's `xrandr` on Xvnc looks the same otherwise).
    return .serverReplug(
      connector: connector, afterMs: afterMs, folded: folded, mode: folded ? 0 : mode, right: chance(70))
  }

  mutating func delivery() -> SimDelivery {
    switch weighted([70, 12, 10, 8]) {
    case 0: return .now
    case 1: return .late
    case 2: return .twice
    default: return .lost
    }
  }
}
