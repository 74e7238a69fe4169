import DisplayModel

/// One profile as `profile list` shows it.
public struct ProfileListing: Sendable {
  public var name: String
  /// Why it does not match the monitors present; nil when it matches.
  public var mismatch: ProfileMismatch?
  public var active: Bool
}
