import DisplayModel
import DisplaySupport
import DisplayWayland
import Foundation
import Testing
import XRig

#if canImport(Glibc)
  import Glibc
#endif

/// A compositor alive but hung (here sway stopped with SIGSTOP: its socket still accepts,
/// nothing answers) must fail the automatic backend check and a connect within the bound, not
/// block every command forever.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct WaylandHungCompositorTests {
  /// What a check run on its own thread found, signalled when it ends.
  final class Outcome: @unchecked Sendable {
    let condition = NSCondition()
    var available: Bool?
    var problem: String?
  }

  @Test func aStoppedCompositorFailsTheCheckAndTheConnectWithinTheBound() throws {
    let sway = try SwayCompositor()
    let socket = sway.runtime + "/" + sway.waylandDisplay
    #expect(WaylandOutputManager.isAvailable(socket: socket))
    let pids = sway.processes()
    pids.forEach { kill($0, SIGSTOP) }
    // A hang would keep the thread blocked: resumed, sway answers and it ends.
    defer { pids.forEach { kill($0, SIGCONT) } }
    let outcome = Outcome()
    let start = monotonicNanoseconds()
    Thread.detachNewThread {
      let available = WaylandOutputManager.isAvailable(socket: socket)
      var problem = "connected"
      do { _ = try WaylandOutputManager(socket: socket) } catch { problem = "\(error)" }
      outcome.condition.lock()
      (outcome.available, outcome.problem) = (available, problem)
      outcome.condition.signal()
      outcome.condition.unlock()
    }
    // Two bounded connects, with room to spare on a loaded machine.
    let deadline = Date().addingTimeInterval(4 * 3 + 10)
    outcome.condition.lock()
    while outcome.problem == nil && outcome.condition.wait(until: deadline) {}
    let (available, problem) = (outcome.available, outcome.problem)
    outcome.condition.unlock()
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    #expect(available == false, "the check hung or passed (\(seconds) s)")
    #expect(problem?.contains("did not answer") == true, "\(problem ?? "hung for \(seconds) s")")
    #expect(problem?.contains("sway") == true, "\(problem ?? "")")
    pids.forEach { kill($0, SIGCONT) }
    #expect(WaylandOutputManager.isAvailable(socket: socket), "sway answers again once resumed")
  }
}
