/// A built-in layout as a profile over heads, with the heads its entries take: the head
/// profile planner and the backend's atomic apply do the rest.
public struct HeadBuiltinProfile: Hashable, Sendable {
  public var profile: Profile
  public var assignment: HeadProfileAssignment
  public init(profile: Profile, assignment: HeadProfileAssignment) {
    self.profile = profile
    self.assignment = assignment
  }
}
