import DisplayModel
import DisplayPorts

/// labwc leaves a head in wlroots' automatic layout while a configuration keeps its place
/// (it moves a head only when the place asked differs from the one it has, labwc#737), and
/// that layout puts such heads right of the heads placed by hand: a plan that moves one head
/// moves the others it kept. Read back after an applied configuration, a lit head found
/// elsewhere than the configuration (or, for a head it did not name, the state before) put
/// it gets the same places applied once more: its place then differs from the compositor's,
/// which pins it there. sway pins every head it is told about and needs no second apply.
enum KeptPlaces {
  /// Applies the places once more when the compositor moved heads after `configuration`.
  static func restore(
    _ configuration: OutputConfiguration, before: HeadSnapshot, on channel: ConfigurationChannel
  ) throws(DisplayError) {
    let after = try stateAfter(configuration, on: channel)
    let moved = self.moved(configuration, before: before, after: after)
    guard !moved.isEmpty else { return }
    var heads = configuration.heads
    for name in moved where !heads.contains(where: { $0.name == name }) {
      before.head(named: name).map { heads.append(HeadConfiguration(current: $0)) }
    }
    _ = try channel.send(
      OutputConfiguration(generation: after.generation, heads: heads, primary: configuration.primary), test: false)
  }

  /// The state after an applied `configuration`: the one last heard when it is newer than the
  /// configuration's (sway sends it before `succeeded`, and the apply waited for it otherwise),
  /// else read anew. No roundtrip for the first: on the plug path, with the compositor busy
  /// drawing the new head, one costs as much as the apply.
  static func stateAfter(_ configuration: OutputConfiguration, on channel: ConfigurationChannel) throws(DisplayError)
    -> HeadSnapshot
  {
    let known = try channel.known()
    return known.generation != configuration.generation ? known : try channel.current()
  }

  /// The lit heads of `after` not where `configuration` (or `before`, for the heads it did not
  /// name) placed them.
  static func moved(_ configuration: OutputConfiguration, before: HeadSnapshot, after: HeadSnapshot) -> [String] {
    after.heads.compactMap { head in
      guard head.enabled else { return nil }
      let wanted: (x: Int, y: Int)?
      if let asked = configuration.heads.first(where: { $0.name == head.name }) {
        wanted = asked.enabled ? (asked.x, asked.y) : nil
      } else {
        wanted = before.head(named: head.name).flatMap { $0.enabled ? ($0.x, $0.y) : nil }
      }
      guard let wanted, wanted != (head.x, head.y) else { return nil }
      return head.name
    }
  }
}
