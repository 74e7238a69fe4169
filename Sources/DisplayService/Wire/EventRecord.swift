import DisplayModel
import DisplaySupport

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
