import DisplayModel
import DisplayService
import DisplaySupport

/// The text forms of `displayd profile list` and `profile switch`.
public enum ProfileReport {
  /// One line per profile, then the one in force. `fromDaemon` false: worked out without a
  /// daemon, so none is in force and the line says which would be chosen.
  public static func listText(_ answer: ProfileListAnswer, fromDaemon: Bool) -> String {
    guard !answer.profiles.isEmpty else { return "no profiles in the config\n" }
    let width = answer.profiles.map(\.name.count).max() ?? 0
    var lines = answer.profiles.map { p in
      let mark = p.active ? "*" : " "
      let name = p.name + String(repeating: " ", count: width - p.name.count)
      return "\(mark) \(name)  " + (p.matches ? "matches" : "does not match: \(p.reason ?? "?")")
    }
    if fromDaemon {
      lines.append("active: " + (answer.active.name.map { "\($0) (\(answer.active.reason))" } ?? "none"))
    } else {
      let first = answer.profiles.first(where: \.matches)?.name
      lines.append("no daemon runs: " + (first.map { "'\($0)' would be chosen" } ?? "no profile would be chosen"))
    }
    return printableLines(lines)
  }

  /// The refusal's reason from a `profile-switch` answer, nil when it was switched.
  public static func refusal(_ answer: [String: JSON]) -> String? {
    guard case .bool(false)? = answer["ok"] else { return nil }
    if case .string(let error)? = answer["error"] { return error }
    return "the daemon refused"
  }

  /// What a successful switch, `--auto` or cycle did: `switched to layout 'mirror'`,
  /// `layout 'mirror' already in force`, `automatic choice resumed (profile desk)`.
  public static func switchText(_ answer: [String: JSON]) -> String {
    let changed = answer["changed"] == .bool(true)
    guard case .object(let members)? = answer["layout"] else { return "done" }
    let layout = Dictionary(members, uniquingKeysWith: { a, _ in a })
    let chosen: String?
    if case .string(let name)? = layout["builtin"] {
      chosen = "layout '\(name)'"
    } else if case .string(let name)? = layout["profile"] {
      chosen = "profile '\(name)'"
    } else {
      chosen = nil
    }
    guard let chosen else {
      var profile = "no profile matches"
      if case .object(let p)? = answer["profile"], case .string(let name)? = p.first(where: { $0.0 == "name" })?.1 {
        profile = "profile '\(name)'"
      }
      return (changed ? "automatic choice resumed" : "the layout is chosen automatically already") + " (\(profile))"
    }
    return changed ? "switched to \(chosen)" : "\(chosen) already in force"
  }
}
