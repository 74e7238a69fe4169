/// One change between two head snapshots (`SnapshotDiff`), with the head's new state.
public struct HeadEvent: Hashable, Sendable {
  /// What changed about one head between two snapshots.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// A monitor appeared on the head.
    case connected
    /// The monitor went away.
    case disconnected
    /// The head's mode, position, size or rotation changed (including being turned on or off).
    case modeChanged = "mode-changed"
    /// A different head is now the main (the primary) head.
    case primaryChanged = "primary-changed"
    /// The head's identity (EDID) changed: another monitor, or one whose identity was set.
    case edidChanged = "edid-changed"
    /// The monitor went away, and the daemon waits for the grace (`disconnect_grace`) before it
    /// handles that: followed by `disconnected` if it does not come back, by nothing if it does.
    case disconnectPending = "disconnect-pending"
  }

  public var kind: Kind
  /// The head as it is now (as it was, for a disconnect of a head that is no longer listed).
  public var head: Head
  /// The area it covers now, nil when it is off (and for a head no longer listed).
  public var rect: Rect?
  /// The mode it shows now, nil when it is off (and for a head no longer listed).
  public var mode: HeadMode?
  /// The seconds a pending disconnect waits for the monitor (`disconnectPending` only).
  public var graceSeconds: Double?

  public init(
    kind: Kind, head: Head, rect: Rect? = nil, mode: HeadMode? = nil, graceSeconds: Double? = nil
  ) {
    self.kind = kind
    self.head = head
    self.rect = rect
    self.mode = mode
    self.graceSeconds = graceSeconds
  }

  /// An event about `head` with what it shows now: its area and mode while it is lit.
  public init(_ kind: Kind, showing head: Head) {
    self.init(kind: kind, head: head, rect: head.rect, mode: head.shownMode)
  }
}

extension HeadEvent {
  /// `connected VNC-1 1280x1024+1920+0 1280x1024@60.00`: the event, the head, and its area
  /// and mode when it has them; how the daemon logs an event and `watch` prints one.
  public var summary: String {
    var words = [kind.rawValue, head.name]
    if let r = rect { words.append(r.description) }
    if let m = mode { words.append(m.label) }
    if let s = graceSeconds { words.append("grace \(s) s") }
    return words.joined(separator: " ")
  }
}

extension Head {
  /// The mode it shows: its current mode while it is lit, else nil.
  public var shownMode: HeadMode? { enabled ? mode : nil }
}

extension HeadSnapshot {
  /// The main head: the primary when connected, else the first connected built-in panel,
  /// else the first connected head.
  public var mainHead: Head? {
    MainHead.ofSnapshot(self, heads.indices.filter { heads[$0].connected }).map { heads[$0] }
  }
}
