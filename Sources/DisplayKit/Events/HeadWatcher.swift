import DisplayModel
import DisplayPorts
import DisplaySupport

/// Why a watch loop ended.
public enum WatchEnd: Equatable, Sendable {
  /// A signal from the stop set arrived (its number).
  case signal(Int32)
  /// The handler asked to stop.
  case requested
}

/// The one watch loop over a display server: selects its change events, takes the queued
/// events, and on any that may have changed the layout reads the heads once and diffs them
/// against the last ones. `displayd watch` runs it as it is (`run`); the daemon drives its
/// steps from the service's poll loop (`drain`, `adopt`).
///
/// Sleeps in `poll()` on the source's descriptor and a signalfd with no timer, so an idle watcher
/// costs no wake-ups.
public final class HeadWatcher {
  /// Where the events come from.
  public let source: any ChangeSource
  /// Where the heads are read.
  public let layout: OutputManagerLayout
  /// The latest heads, as the output-management port describes them.
  public private(set) var heads: HeadSnapshot
  /// Reads adopted since the first.
  public private(set) var snapshots = 0

  /// Selects the change events, then reads the first heads (probing if asked) and drops
  /// the events queued so far, which the read already shows.
  public init(source: any ChangeSource, layout: OutputManagerLayout, probe: Bool = false) throws(DisplayError) {
    self.source = source
    self.layout = layout
    try source.selectChangeEvents()
    heads = try layout.read(ReadOptions(probe: probe))
    _ = try source.takeChanges {}
  }

  /// Takes every queued event; tells `onInputDevice` of an input device added and returns
  /// how many may have changed the heads.
  public func drain(_ onInputDevice: () -> Void = {}) throws(DisplayError) -> Int {
    try source.takeChanges(onInputDevice: onInputDevice)
  }

  /// Makes `new` the latest heads; returns what changed since the last ones.
  public func adopt(_ new: HeadSnapshot) -> [HeadEvent] {
    snapshots += 1
    defer { heads = new }
    return SnapshotDiff.events(from: heads, to: new)
  }

  /// Reads the heads afresh and returns what changed since the last ones.
  @discardableResult
  public func refresh() throws(DisplayError) -> [HeadEvent] {
    adopt(try layout.read())
  }

  /// Calls `handle` with each non-empty batch of events and the heads they lead to, until a
  /// signal of `stop` arrives or `handle` returns false.
  public func run(stop: SignalWatch, handle: ([HeadEvent], HeadSnapshot) throws -> Bool) throws -> WatchEnd {
    let fds = [source.fileDescriptor, stop.fileDescriptor]
    while true {
      source.flush()
      if source.queuedEvents == 0 {
        let ready = try waitReadable(fds)
        if ready.contains(1), let signal = stop.next() { return .signal(signal) }
        if ready.contains(0) { _ = try source.readAvailable() }
      }
      guard try drain() > 0 else { continue }
      let events = try refresh()
      if !events.isEmpty, try !handle(events, heads) { return .requested }
    }
  }
}
