import DisplayModel
import DisplaySupport

// The records of the display's state, as the control socket sends them (events for
// subscribers) and the CLI prints them (`outputs --json`, `edid --json`, `watch --json`).
// Written with `JSON(encoding:)` (keys in the order of each `CodingKeys`, nil as null), or by
// hand as the same value (JSONRecord+Wire.swift), read with Foundation's decoder.

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
