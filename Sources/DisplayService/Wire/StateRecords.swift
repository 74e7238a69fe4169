import DisplayModel
import DisplaySupport

// The records of the display's state, as the control socket sends them (events for
// subscribers) and the CLI prints them (`outputs --json`, `edid --json`, `watch --json`).
// Written with `JSON(encoding:)` (keys in the order of each `CodingKeys`, nil as null), or by
// hand as the same value (RecordJSON.swift), read with Foundation's decoder.

/// `{"x", "y", "width", "height"}`.
public struct RectRecord: Codable, Equatable, Sendable {
  public var x, y, width, height: Int
  enum CodingKeys: String, CodingKey { case x, y, width, height }
  public init(_ r: Rect) { (x, y, width, height) = (r.x, r.y, r.width, r.height) }
  /// `1920x1080+0+0`, as `Rect` prints itself.
  public var text: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A mode of an output.
public struct ModeRecord: Codable, Equatable, Sendable {
  public var id: Int
  public var name: String
  public var width, height: Int
  /// Rounded to 3 decimals.
  public var refreshHz: Double
  public var current, preferred, interlaced, doublescan: Bool
  public var dotClockHz: Int

  enum CodingKeys: String, CodingKey {
    case id
    case name
    case width
    case height
    case refreshHz = "refresh_hz"
    case current
    case preferred
    case interlaced
    case doublescan
    case dotClockHz = "dot_clock_hz"
  }

  public init(_ mode: Mode, current: Bool, preferred: Bool) {
    (id, name, width, height) = (Int(mode.id.rawValue), mode.name, mode.width, mode.height)
    refreshHz = rounded(mode.refreshHz, places: 3)
    (self.current, self.preferred) = (current, preferred)
    (interlaced, doublescan, dotClockHz) = (mode.isInterlaced, mode.isDoubleScan, Int(clamping: mode.dotClock))
  }
}

/// The state of one output, without its name (which the records around it place).
public struct OutputState: Codable, Equatable, Sendable {
  public struct Millimetres: Codable, Equatable, Sendable {
    public var width, height: Int
    enum CodingKeys: String, CodingKey { case width, height }
  }
  public var id: Int
  public var connected: Bool
  public var connection: String
  public var primary, main: Bool
  /// The active CRTC's rectangle.
  public var crtc: RectRecord?
  public var rotation: String?
  public var currentMode: ModeRecord?
  /// The monitor's physical size; null when unknown (none reported, or one no monitor has).
  public var mm: Millimetres?
  public var nonDesktop: Bool
  public var identity: EDIDRecord?

  enum CodingKeys: String, CodingKey {
    case id
    case connected
    case connection
    case primary
    case main
    case crtc
    case rotation
    case currentMode = "current_mode"
    case mm
    case nonDesktop = "non_desktop"
    case identity
  }
}

/// One output of `outputs --json`: `{"name", ...its state}`.
public struct OutputRecord: Codable, Equatable, Sendable {
  public var name: String
  public var state: OutputState
  enum CodingKeys: String, CodingKey { case name }

  /// A record of these fields.
  public init(name: String, state: OutputState) { (self.name, self.state) = (name, state) }
  public init(from decoder: any Decoder) throws {
    name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
    state = try OutputState(from: decoder)
  }
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(name, forKey: .name)
    try state.encode(to: encoder)
  }
}

/// An event record: `{"event", "output", "time", ...the output's new state}`, one line of
/// `watch --json` and of the control socket's event stream.
public struct EventRecord: Codable, Equatable, Sendable {
  public var event: String
  public var output: String
  public var time: String
  public var state: OutputState
  /// `disconnect-pending` only (absent otherwise): the seconds the daemon waits for the
  /// monitor to come back before it handles the disconnect.
  public var graceSeconds: Double?
  enum CodingKeys: String, CodingKey {
    case event, output, time
    case graceSeconds = "grace_seconds"
  }

  /// A record of these fields (`grace_seconds` only for a pending disconnect).
  public init(event: String, output: String, time: String, state: OutputState, graceSeconds: Double? = nil) {
    (self.event, self.output, self.time, self.state, self.graceSeconds) = (event, output, time, state, graceSeconds)
  }
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    event = try c.decode(String.self, forKey: .event)
    output = try c.decode(String.self, forKey: .output)
    time = try c.decode(String.self, forKey: .time)
    state = try OutputState(from: decoder)
    graceSeconds = try c.decodeIfPresent(Double.self, forKey: .graceSeconds)
  }
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(event, forKey: .event)
    try c.encode(output, forKey: .output)
    try c.encode(time, forKey: .time)
    try state.encode(to: encoder)
    // Absent, not null, on other events: their lines stay as they were.
    if let graceSeconds { try c.encode(graceSeconds, forKey: .graceSeconds) }
  }
}
