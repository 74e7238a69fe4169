import DisplayModel

/// Why `profile switch` was refused.
public enum ProfileSwitchRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  case unknown(name: String, known: [String])
  case mismatch(name: String, ProfileMismatch)
  /// A built-in layout the monitors present do not allow.
  case layout(BuiltinLayout, LayoutRefusal)
  /// A built-in layout the planner refuses (it would not fit the screen, or leave it dark).
  case layoutPlan(BuiltinLayout, ProfilePlanError)
  /// `profile cycle` with no profile matching and no built-in layout possible.
  case nothingToCycle
  /// Planned, but the server refused it: rolled back, the choice before it stays.
  case notApplied(LayoutChoice)

  public var description: String {
    switch self {
    case .unknown(let name, let known):
      return "no profile named '\(name)'"
        + (known.isEmpty ? "; the config has none" : " (profiles: \(known.joined(separator: ", ")))")
    case .mismatch(let name, let why): return "profile '\(name)' does not match the monitors present: \(why)"
    case .layout(let layout, let why): return "layout '\(layout.rawValue)' is not possible: \(why)"
    case .layoutPlan(let layout, let why): return "layout '\(layout.rawValue)' is not possible: \(why)"
    case .nothingToCycle: return "no profile matches the monitors present and no built-in layout is possible"
    case .notApplied(let choice):
      return "\(choice) could not be applied (the server refused it; the log says why): the layout before it stays"
    }
  }
}
