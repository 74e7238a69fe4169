/// Why a profile cannot be applied at all.
public enum ProfilePlanError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Every output would be off: never a dark desk.
  case dark(profile: String)
  /// The layout needs a larger screen than the server allows.
  case tooLarge(profile: String, width: Int, height: Int, maxWidth: Int, maxHeight: Int)
  /// The assignment is not one for this profile (a caller's mistake).
  case assignment(profile: String)

  public var description: String {
    switch self {
    case .dark(let p): return "profile '\(p)' would leave no output lit; refused (never a dark desk)"
    case .tooLarge(let p, let w, let h, let mw, let mh):
      return "profile '\(p)' needs a \(w)x\(h) screen, more than the server's maximum \(mw)x\(mh); refused"
    case .assignment(let p): return "the assignment does not fit profile '\(p)'"
    }
  }
}
