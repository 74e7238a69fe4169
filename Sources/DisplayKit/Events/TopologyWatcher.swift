import DisplayModel
import DisplaySupport

/// Why a watch loop ended.
public enum WatchEnd: Equatable, Sendable {
  /// A signal from the stop set arrived (its number).
  case signal(Int32)
  /// The handler asked to stop.
  case requested
}

/// The one watch loop over a display server: selects RandR events, takes the queued events,
/// and on any that may have changed the topology takes one fresh snapshot and diffs it
/// against the last one. `displayd watch` runs it as it is (`run`); the daemon drives its
/// steps from the service's poll loop (`drain`, `snapshot`, `adopt`).
///
/// Sleeps in `poll()` on the server's descriptor and a signalfd with no timer, so an idle watcher
/// costs no wake-ups.
public final class TopologyWatcher {
  public let server: any DisplayServer
  /// The latest snapshot.
  public private(set) var topology: Topology
  /// Snapshots adopted since the first.
  public private(set) var snapshots = 0

  /// Selects RandR events, then reads the first snapshot (probing if asked) and drops the
  /// events queued so far, which the snapshot already shows.
  public init(server: any DisplayServer, probe: Bool = false) throws(DisplayError) {
    self.server = server
    try server.selectRandREvents()
    topology = try server.snapshot(ReadOptions(probe: probe))
    _ = try server.drainEvents {}
  }

  /// Takes every queued event; tells `onInputDevice` of an input device added and returns
  /// how many may have changed the topology.
  public func drain(_ onInputDevice: () -> Void = {}) throws(DisplayError) -> Int {
    try server.drainEvents(onInputDevice)
  }

  /// Makes `new` the latest snapshot; returns what changed since the last one.
  public func adopt(_ new: Topology) -> [TopologyEvent] {
    snapshots += 1
    defer { topology = new }
    return TopologyDiff.events(from: topology, to: new)
  }

  /// Takes a fresh snapshot and returns what changed since the last one.
  @discardableResult
  public func refresh() throws(DisplayError) -> [TopologyEvent] {
    adopt(try server.snapshot())
  }

  /// Calls `handle` with each non-empty batch of events and the snapshot they lead to, until
  /// a signal of `stop` arrives or `handle` returns false.
  public func run(stop: SignalWatch, handle: ([TopologyEvent], Topology) throws -> Bool) throws -> WatchEnd {
    let fds = [server.fileDescriptor, stop.fileDescriptor]
    while true {
      server.flush()
      if server.queuedEvents == 0 {
        let ready = try waitReadable(fds)
        if ready.contains(1), let signal = stop.next() { return .signal(signal) }
        if ready.contains(0) { _ = try server.readAvailable() }
      }
      guard try drain() > 0 else { continue }
      let events = try refresh()
      if !events.isEmpty, try !handle(events, topology) { return .requested }
    }
  }
}
