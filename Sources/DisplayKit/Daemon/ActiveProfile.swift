import DisplayModel

/// The profile in force, and why; `name` is nil when none is.
public struct ActiveProfile: Equatable, Sendable {
  public var name: String?
  public var reason: ProfileReason
}

/// Why the profile in force is in force.
public enum ProfileReason: String, Sendable {
  /// The first profile whose outputs match the monitors present.
  case matched
  /// Chosen by hand (`profile switch`); it stays until the monitors, the lid or the config change.
  case switched
  /// No profile matches: the per-monitor rules (and `defaults.lid_closed`) apply.
  case none
}
