/// One change between two head snapshots (`HeadDiff`), with the head's new state.
public struct HeadEvent: Hashable, Sendable {
  public var kind: TopologyEventKind
  /// The head as it is now (as it was, for a disconnect of a head that is no longer listed).
  public var head: Head
  /// The area it covers now, nil when it is off (and for a head no longer listed).
  public var rect: Rect?
  /// The mode it shows now, nil when it is off (and for a head no longer listed).
  public var mode: HeadMode?
  /// The seconds a pending disconnect waits for the monitor (`disconnectPending` only).
  public var graceSeconds: Double?

  public init(
    kind: TopologyEventKind, head: Head, rect: Rect? = nil, mode: HeadMode? = nil, graceSeconds: Double? = nil
  ) {
    self.kind = kind
    self.head = head
    self.rect = rect
    self.mode = mode
    self.graceSeconds = graceSeconds
  }

  /// An event about `head` with what it shows now: its area and mode while it is lit.
  public init(_ kind: TopologyEventKind, showing head: Head) {
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
    HeadMain.ofSnapshot(self, heads.indices.filter { heads[$0].connected }).map { heads[$0] }
  }
}
