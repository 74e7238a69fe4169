/// What changed about one output between two snapshots.
public enum TopologyEventKind: String, Hashable, Sendable, CaseIterable {
  /// A monitor appeared on the output.
  case connected
  /// The monitor went away.
  case disconnected
  /// The output's mode, position, size or rotation changed (including being turned on or off).
  case modeChanged = "mode-changed"
  /// A different output is now the main (or the X server's primary) output.
  case primaryChanged = "primary-changed"
  /// The output's EDID property changed: another monitor, or one whose identity was set.
  case edidChanged = "edid-changed"
  /// The monitor went away, and the daemon waits for the grace (`disconnect_grace`) before it
  /// handles that: followed by `disconnected` if it does not come back, by nothing if it does.
  case disconnectPending = "disconnect-pending"
}
