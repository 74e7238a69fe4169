/// How much a snapshot reads.
public struct ReadOptions: Sendable {
  /// Ask the server to re-probe connectors (on X, the probing read). Slow on real hardware:
  /// only at start-up or on explicit request, never on an event path.
  public var probe: Bool
  /// Read the `EDID` and `non-desktop` properties of connected outputs.
  public var properties: Bool

  public init(probe: Bool = false, properties: Bool = true) {
    self.probe = probe
    self.properties = properties
  }
}
