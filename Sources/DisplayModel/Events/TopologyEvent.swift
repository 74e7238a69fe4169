/// What changed about one output between two snapshots.
public enum TopologyEventKind: String, Hashable, Sendable, CaseIterable {
  /// A monitor appeared on the output.
  case connected
  /// The monitor went away.
  case disconnected
  /// The output's mode, position, size or rotation changed (including being turned on or off).
  case modeChanged = "mode-changed"
  /// A different output is now the main (or RandR primary) output.
  case primaryChanged = "primary-changed"
  /// The output's EDID property changed: another monitor, or one whose identity was set.
  case edidChanged = "edid-changed"
  /// The monitor went away, and the daemon waits for the grace (`disconnect_grace`) before it
  /// handles that: followed by `disconnected` if it does not come back, by nothing if it does.
  case disconnectPending = "disconnect-pending"
}

/// One change, derived from a pair of snapshots, with the output's new state.
public struct TopologyEvent: Hashable, Sendable {
  public var kind: TopologyEventKind
  /// The output as it is now (as it was, for a disconnect from a vanished output).
  public var output: Output
  /// Its geometry now, nil when it has no active CRTC.
  public var geometry: Rect?
  /// Its mode now, nil when it has none.
  public var mode: Mode?
  /// The seconds a pending disconnect waits for the monitor (`disconnectPending` only).
  public var graceSeconds: Double?

  public init(
    kind: TopologyEventKind, output: Output, geometry: Rect? = nil, mode: Mode? = nil, graceSeconds: Double? = nil
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
  /// geometry and mode when it has them; the words of `HeadEvent.summary`, which the daemon
  /// logs and `watch` prints.
  public var summary: String {
    var words = [kind.rawValue, output.name]
    if let g = geometry { words.append(g.description) }
    if let m = mode { words.append(m.label) }
    if let s = graceSeconds { words.append("grace \(s) s") }
    return words.joined(separator: " ")
  }
}
