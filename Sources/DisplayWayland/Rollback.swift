import DisplayModel
import DisplayPorts

/// Where configurations go: the compositor, or a fake of one in the tests (for faults a
/// compositor will not produce on demand).
protocol ConfigurationChannel: AnyObject {
  /// The state now, everything sent before answered.
  func current() throws(DisplayError) -> HeadSnapshot
  /// The state as last heard, without asking: what a configuration just tested was made from.
  func known() throws(DisplayError) -> HeadSnapshot
  /// One configuration, tested or applied, answered.
  func send(_ configuration: OutputConfiguration, test: Bool) throws(DisplayError) -> ApplyResult
}

extension ConfigurationChannel {
  func known() throws(DisplayError) -> HeadSnapshot { try current() }
}

/// All or nothing over a protocol that does not promise it: wlroots before 0.17 (sway 1.9)
/// applies head by head and can answer `failed` with some heads changed.
enum Rollback {
  /// Applies; after `failed`, reads the state back and, when it differs from the snapshot
  /// before, applies that snapshot again (from the new serial) and says what it could not
  /// restore.
  static func apply(_ configuration: OutputConfiguration, on channel: ConfigurationChannel) throws(DisplayError)
    -> ApplyResult
  {
    // No roundtrip for it: a configuration made from an older state than this one is
    // cancelled (stale), never applied in part, so this is the state a failure departs from.
    let before = try channel.known()
    let result = try channel.send(configuration, test: false)
    if result == .applied { try KeptPlaces.restore(configuration, before: before, on: channel) }
    guard case .refused(var refusal) = result else { return result }
    let after = try channel.current()
    guard !differing(before, after).isEmpty else { return result }
    let restore = OutputConfiguration(
      generation: after.generation,
      heads: before.heads.filter { after.head(named: $0.name) != nil }.map(HeadConfiguration.init(current:)))
    _ = try channel.send(restore, test: false)
    refusal.notRestored = differing(before, try channel.current())
    return .refused(refusal)
  }

  /// The names of heads of `a` whose state differs in `b` (gone ones included).
  static func differing(_ a: HeadSnapshot, _ b: HeadSnapshot) -> [String] {
    a.heads.compactMap { head in
      guard let other = b.head(named: head.name) else { return head.name }
      return HeadConfiguration(current: head) == HeadConfiguration(current: other) ? nil : head.name
    }
  }
}
