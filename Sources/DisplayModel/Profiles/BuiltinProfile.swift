/// A built-in layout as a profile over heads, with the heads its entries take: the head
/// profile planner and the backend's atomic apply do the rest.
public struct BuiltinProfile: Hashable, Sendable {
  public var profile: Profile
  public var assignment: ProfileAssignment
  public init(profile: Profile, assignment: ProfileAssignment) {
    self.profile = profile
    self.assignment = assignment
  }
}
