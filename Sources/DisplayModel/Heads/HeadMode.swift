/// A mode a head can show: its size, its refresh in mHz, and how it came to be.
public struct HeadMode: Hashable, Sendable {
  public var width: Int
  public var height: Int
  /// Vertical refresh in millihertz (60 Hz is 60000); 0 when the backend does not say.
  public var refreshMilliHz: Int
  /// The monitor's preferred mode (the EDID's first detailed timing, or the compositor's).
  public var preferred: Bool
  public var interlaced: Bool
  /// Made by displayd (a CVT mode or a modeline), not listed by the monitor.
  public var custom: Bool
  // What the server says beyond what the daemon plans with, in one shared box: every read
  // makes a mode per listed mode, and the planners and diffs copy them over and over, so a
  // copy is a few words and one retain instead of two strings and a dozen optionals.
  private var server: ServerModeBox?

  public init(
    width: Int, height: Int, refreshMilliHz: Int, preferred: Bool = false, interlaced: Bool = false,
    custom: Bool = false
  ) {
    self.width = width
    self.height = height
    self.refreshMilliHz = refreshMilliHz
    self.preferred = preferred
    self.interlaced = interlaced
    self.custom = custom
  }

  /// A mode with what its server says of it, set at once.
  public init(
    width: Int, height: Int, refreshMilliHz: Int, preferred: Bool = false, interlaced: Bool = false,
    custom: Bool = false, server facts: ServerModeFacts
  ) {
    self.init(
      width: width, height: height, refreshMilliHz: refreshMilliHz, preferred: preferred, interlaced: interlaced,
      custom: custom)
    server = facts.isEmpty ? nil : ServerModeBox(facts)
  }

  /// What the server says of the mode: opaque to the daemon, shown on the wire only.
  public var serverFacts: ServerModeFacts {
    get { server?.facts ?? ServerModeFacts() }
    set { server = newValue.isEmpty ? nil : ServerModeBox(newValue) }
  }

  /// The server's handle for the mode (on X, its id).
  public var serverID: UInt64? {
    get { server?.facts.serverID }
    set { serverFacts.serverID = newValue }
  }
  /// The server's name for it (X: `1920x1080`, `displayd-1600x700_60.00`); nil: its size.
  public var name: String? {
    get { server?.facts.name }
    set { serverFacts.name = newValue }
  }
  /// The pixel clock in Hz the server drives it at; nil: its pixel rate (width × height ×
  /// refresh), as the bridge makes it.
  public var dotClockHz: UInt64? {
    get { server?.facts.dotClockHz }
    set { serverFacts.dotClockHz = newValue }
  }
  /// X's `DoubleScan`: every line scanned twice.
  public var doubleScan: Bool {
    get { server?.facts.doubleScan ?? false }
    set { serverFacts.doubleScan = newValue }
  }
  /// The refresh the server's timings give, unrounded (X: xrandr's arithmetic), which
  /// `label` names as the server's tools do; nil: `refreshMilliHz`.
  public var timedRefreshHz: Double? {
    get { server?.facts.timedRefreshHz }
    set { serverFacts.timedRefreshHz = newValue }
  }
  /// The server's timings (X: the mode's dot clock, syncs, totals and flags), which make
  /// the mode again; nil where the backend has none (wlroots).
  public var timings: ModeLine? {
    get { server?.facts.timings }
    set { serverFacts.timings = newValue }
  }
}

/// What a server says of a mode beyond what the daemon plans with: opaque to the daemon,
/// shown on the wire only. Nil where the backend has none (wlroots), and the wire shows what
/// the wire makes of the head (`HeadMode.wireMode`).
public struct ServerModeFacts: Hashable, Sendable {
  public var serverID: UInt64?
  public var name: String?
  public var dotClockHz: UInt64?
  public var doubleScan: Bool
  public var timedRefreshHz: Double?
  public var timings: ModeLine?

  public init(
    serverID: UInt64? = nil, name: String? = nil, dotClockHz: UInt64? = nil, doubleScan: Bool = false,
    timedRefreshHz: Double? = nil, timings: ModeLine? = nil
  ) {
    self.serverID = serverID
    self.name = name
    self.dotClockHz = dotClockHz
    self.doubleScan = doubleScan
    self.timedRefreshHz = timedRefreshHz
    self.timings = timings
  }

  /// Whether they say nothing: a mode with such facts has none, so that one never given any
  /// equals one whose facts were all set back to nil.
  public var isEmpty: Bool {
    serverID == nil && name == nil && dotClockHz == nil && !doubleScan && timedRefreshHz == nil && timings == nil
  }
}

/// `ServerModeFacts` shared between copies of a mode; equal by value, so that two modes
/// with the same facts are equal however they were made.
private final class ServerModeBox: Hashable, Sendable {
  let facts: ServerModeFacts

  init(_ facts: ServerModeFacts) { self.facts = facts }

  static func == (a: ServerModeBox, b: ServerModeBox) -> Bool { a === b || a.facts == b.facts }
  func hash(into hasher: inout Hasher) { hasher.combine(facts) }
}
