import DisplayModel

/// What `displayd apply` did.
public enum ApplyOnceResult: Equatable, Sendable {
  /// The layout was changed; `what` names the profile or says the rules applied.
  case applied(what: String)
  /// The layout was what it would have become: nothing changed.
  case inForce(what: String)
  /// Nothing was put in force; the reason says why (the layout before was restored).
  case refused(reason: String)

  /// The answer's word on the control socket: `applied`, `in-force` or `refused`.
  public var word: String {
    switch self {
    case .applied: return "applied"
    case .inForce: return "in-force"
    case .refused: return "refused"
    }
  }
}
