import DisplayModel
import DisplayService
import DisplaySupport
import DisplayX11

/// One change between two RandR snapshots (`TopologyDiff`), with the output's new state: the
/// RandR-shaped reference `HeadEvent` is pinned against.
struct TopologyEvent: Hashable, Sendable {
  var kind: HeadEvent.Kind
  /// The output as it is now (as it was, for a disconnect from a vanished output).
  var output: Output
  /// Its geometry now, nil when it has no active CRTC.
  var geometry: Rect?
  /// Its mode now, nil when it has none.
  var mode: Mode?
  /// The seconds a pending disconnect waits for the monitor (`disconnectPending` only).
  var graceSeconds: Double?

  init(
    kind: HeadEvent.Kind, output: Output, geometry: Rect? = nil, mode: Mode? = nil, graceSeconds: Double? = nil
  ) {
    self.kind = kind
    self.output = output
    self.geometry = geometry
    self.mode = mode
    self.graceSeconds = graceSeconds
  }
}

extension TopologyEvent {
  /// `connected VNC-1 1280x1024+1920+0 1280x1024@60.00`: the event, the output, and its
  /// geometry and mode when it has them; the words of `HeadEvent.summary`.
  var summary: String {
    var words = [kind.rawValue, output.name]
    if let g = geometry { words.append(g.description) }
    if let m = mode { words.append(m.label) }
    if let s = graceSeconds { words.append("grace \(s) s") }
    return words.joined(separator: " ")
  }
}

extension EventRecord {
  /// The record of a topology event, its output's state looked up in `topology`: what the
  /// head events' records (HeadRecords.swift) are compared with.
  init(_ event: TopologyEvent, in topology: Topology, time: String = timestampNow()) {
    self.init(
      event: event.kind.rawValue, output: event.output.name, time: time, state: OutputState(event.output, in: topology),
      graceSeconds: event.graceSeconds)
  }
}
