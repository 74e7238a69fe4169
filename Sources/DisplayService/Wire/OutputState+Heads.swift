import DisplayModel
import DisplayPorts
import DisplaySupport

// The state records made from heads, byte for byte the records of the topology the heads
// report: the X topology's for heads the RandR backend read (they carry the server's ids,
// names, dot clocks and connection words), the wire ids' (`HeadWireIDs`) for heads
// without them (wlroots'). A snapshot is taken as given: the bridge reads it `bounded()`
// (one head a name, at most 1024 modes a head), and the records match the bridge's for a
// snapshot within those bounds.

extension ModeRecord {
  /// The record of a head's mode: the server's id, name, dot clock, refresh and flags where
  /// the backend states them, else those of the mode the bridge makes (`HeadMode.wireMode`), whose
  /// id is `bridgeID`. The refresh a server states is its timings' (xrandr's arithmetic),
  /// which the head keeps rounded to the mHz the record shows.
  public init(_ mode: HeadMode, bridgeID: ModeID, current: Bool) {
    self.init(mode.wireMode(id: bridgeID), current: current, preferred: mode.preferred)
    if let id = mode.serverID { self.id = Int(clamping: id) }
    if let name = mode.name { self.name = name }
    if let clock = mode.dotClockHz {
      (refreshHz, interlaced) = (Double(mode.refreshMilliHz) / 1000, mode.interlaced)
      dotClockHz = Int(clamping: clock)
    }
    doublescan = mode.doubleScan
  }
}

extension OutputState {
  /// The state of `head` in `snapshot`: what it shows now, primary and main as the snapshot
  /// says.
  public init(_ head: Head, in snapshot: HeadSnapshot) {
    self.init(head, rect: head.rect, mode: head.rect == nil ? nil : head.mode, in: snapshot)
  }

  /// The state of `head` showing `mode` over `rect` (both nil while it is dark, and for a
  /// head the snapshot no longer lists).
  init(_ head: Head, rect: Rect?, mode: HeadMode?, in snapshot: HeadSnapshot) {
    id = Int(clamping: head.serverID ?? UInt64(HeadWireIDs.outputID(head.name)))
    (connected, connection) = (head.connected, head.connection.rawValue)
    primary = snapshot.primary == head.name
    main = snapshot.mainHead?.name == head.name
    crtc = rect.map(RectRecord.init)
    rotation = rect.map { _ in head.transform.words(head.spelling).rotate.rawValue }
    currentMode = mode.map { ModeRecord($0, bridgeID: Self.bridgeID(of: $0, on: head), current: true) }
    mm = head.physicalSize.map { Millimetres(width: $0.width, height: $0.height) }
    nonDesktop = head.nonDesktop
    identity = head.edid.flatMap { try? EDID(bytes: $0) }.map(EDIDRecord.init)
  }

  /// The id the bridge gives `mode` of `head`: its current mode's, else the first listed
  /// one of its value's; the head's first slot for a mode it does not list.
  static func bridgeID(of mode: HeadMode, on head: Head) -> ModeID {
    let ids = HeadWireIDs.modeIDs(head).ids
    let current = head.currentMode.flatMap { head.modes.indices.contains($0) && head.modes[$0] == mode ? $0 : nil }
    if let index = current ?? head.modes.firstIndex(of: mode), let id = ids[index] { return id }
    return ModeID(rawValue: HeadWireIDs.outputID(head.name) << 12 | 1)
  }
}

extension OutputRecord {
  /// One head of `outputs --json`.
  public init(_ head: Head, in snapshot: HeadSnapshot) {
    self.init(name: head.name, state: OutputState(head, in: snapshot))
  }
}

extension EventRecord {
  /// The record of a head event: the head's state in `snapshot`, showing the area and mode
  /// the event says (none for a head the snapshot no longer lists).
  public init(_ event: HeadEvent, in snapshot: HeadSnapshot, time: String = timestampNow()) {
    let state = OutputState(event.head, rect: event.rect, mode: event.rect == nil ? nil : event.mode, in: snapshot)
    self.init(
      event: event.kind.rawValue, output: event.head.name, time: time, state: state, graceSeconds: event.graceSeconds)
  }
}
