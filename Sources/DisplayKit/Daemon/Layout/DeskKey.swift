import DisplayModel

/// What a profile's choice depends on: the connected monitors (connector and `MonitorKey`),
/// the lid and the config. While it stays the same, a profile once applied is not applied
/// again, so the daemon's own server events and a user's later `xrandr` change nothing.
struct DeskKey: Equatable {
  var monitors: [String: MonitorKey]
  var lid: LidState
  var config: Config

  init(_ snapshot: HeadSnapshot, lid: LidState, config: Config) {
    self.monitors = Self.monitors(of: snapshot)
    self.lid = lid
    self.config = config
  }

  /// The connected monitors of `snapshot`, by connector.
  static func monitors(of snapshot: HeadSnapshot) -> [String: MonitorKey] {
    var monitors: [String: MonitorKey] = [:]
    for head in snapshot.heads where head.connected { monitors[head.name] = MonitorKey(head) }
    return monitors
  }
}
