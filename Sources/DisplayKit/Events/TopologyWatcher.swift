#if canImport(Glibc)
  import Glibc
#endif

/// Why a watch loop ended.
public enum WatchEnd: Equatable, Sendable {
  /// A signal from the stop set arrived (its number).
  case signal(Int32)
  /// The handler asked to stop.
  case requested
}

/// Turns RandR notifications into topology events: on any of them it drains the queue, takes
/// one fresh snapshot and diffs it against the last one.
///
/// Sleeps in `poll()` on the X connection and a signalfd with no timer, so an idle watcher
/// costs no wake-ups.
public final class TopologyWatcher {
  public let connection: XConnection
  /// The latest snapshot.
  public private(set) var topology: Topology
  /// Snapshots taken because of events (not counting the first).
  public private(set) var snapshots = 0

  /// Selects RandR events, then reads the first snapshot (probing if asked, before selecting
  /// so that the probe's own changes are already in it).
  public init(connection: XConnection, probe: Bool = false) throws(DisplayError) {
    self.connection = connection
    try connection.selectRandREvents()
    topology = try connection.readTopology(ReadOptions(probe: probe))
    _ = try connection.drainEvents()
  }

  /// Calls `handle` with each non-empty batch of events and the snapshot they lead to, until
  /// a signal of `stop` arrives or `handle` returns false.
  public func run(
    stop: SignalWatch,
    handle: ([TopologyEvent], Topology) throws -> Bool
  ) throws -> WatchEnd {
    let fds = [connection.fileDescriptor, stop.fileDescriptor]
    while true {
      connection.flush()
      if connection.queuedEvents == 0 {
        let ready = try waitReadable(fds)
        if ready.contains(1), let signal = stop.next() { return .signal(signal) }
        if ready.contains(0) { _ = try connection.readAvailable() }
      }
      guard try connection.drainEvents() > 0 else { continue }
      let events = try refresh()
      if !events.isEmpty, try !handle(events, topology) { return .requested }
    }
  }

  /// Takes a fresh snapshot and returns what changed since the last one.
  @discardableResult
  public func refresh() throws(DisplayError) -> [TopologyEvent] {
    let new = try connection.readTopology()
    snapshots += 1
    defer { topology = new }
    return TopologyDiff.events(from: topology, to: new)
  }
}
