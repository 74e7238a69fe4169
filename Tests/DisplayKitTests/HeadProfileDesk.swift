import DisplayModel
import Testing

/// A profile (given as JSON5) planned by the product's profile planner on a desk of heads,
/// and the desk once a server has applied the plan.
enum HeadProfileDesk {
  /// The plan; throws when the profile does not match or the planner refuses it.
  static func plan(
    _ text: String, on snapshot: HeadSnapshot, config: String = "", lid: LidState = .open
  ) throws -> ProfilePlan {
    let c = try Config.parse(Array("{\(config) profiles: [\(text)]}".utf8), file: "test.json5")
    let profile = try #require(c.profiles.first)
    let assignment = try ProfileMatcher.match(profile, snapshot: snapshot, lid: lid).get()
    return try ProfilePlanner(snapshot: snapshot, config: c, lid: lid).plan(profile, assignment: assignment)
  }

  /// The desk after the plan, as the fake output manager applies it.
  static func applying(_ plan: ProfilePlan, on snapshot: HeadSnapshot) throws -> HeadSnapshot {
    try applying(plan.configuration, on: snapshot)
  }

  /// The desk after a configuration, as the fake output manager applies it.
  static func applying(_ configuration: OutputConfiguration, on snapshot: HeadSnapshot) throws -> HeadSnapshot {
    let heads = try FakeOutputManager.configure(snapshot.heads, configuration, generation: snapshot.generation).get()
    return HeadSnapshot(
      heads: heads, primary: configuration.primary ?? snapshot.primary, generation: snapshot.generation)
  }

  /// The lit heads' bounding box as `WxH`: the screen the X backend sizes for them.
  static func screen(_ snapshot: HeadSnapshot) -> String {
    "\(snapshot.litBounds.width)x\(snapshot.litBounds.height)"
  }

  /// Each connected head's area, or `off`.
  static func rects(_ snapshot: HeadSnapshot) -> [String: String] {
    Dictionary(
      uniqueKeysWithValues: snapshot.heads.filter(\.connected).map { ($0.name, $0.rect?.description ?? "off") })
  }

  /// The plan sends nothing: no head, primary or physical size.
  static func changesNothing(_ plan: ProfilePlan) -> Bool {
    plan.configuration.heads.isEmpty && plan.configuration.primary == nil && plan.configuration.physicalSize == nil
  }
}
