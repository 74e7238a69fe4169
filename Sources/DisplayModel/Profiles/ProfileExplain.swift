/// `check-config`'s account of profiles: which one would be chosen now and why the others
/// are not, and what each output would get. Pure.
public enum ProfileExplain {
  /// The lid, and whether each profile matches: the first that does is chosen, with its
  /// assignment.
  static func matching<Assignment>(
    _ profiles: [Profile], lid: LidState, _ match: (Profile) -> Result<Assignment, ProfileMismatch>
  ) -> ([String], (Profile, Assignment)?) {
    var lines = ["lid: \(lid.rawValue)"]
    var chosen: (Profile, Assignment)?
    for profile in profiles {
      switch match(profile) {
      case .failure(let why): lines.append("profile '\(profile.name)': does not match: \(why)")
      case .success(let a) where chosen == nil:
        chosen = (profile, a)
        lines.append("profile '\(profile.name)': would be chosen")
      case .success: lines.append("profile '\(profile.name)': matches, but '\(chosen?.0.name ?? "")' comes first")
      }
    }
    return (lines, chosen)
  }

  /// What `monitors` and `defaults` give one connected monitor (`nil`: a rule ignores it).
  static func ruleLine(_ name: String, _ s: MonitorSettings?) -> String {
    guard let s else { return "  \(name): ignored" }
    return "  \(name): mode \(s.mode), position \(s.position), content \(s.content.rawValue)"
  }

  /// What `lid_closed: "disable"` does to the panel.
  static func lidLine(_ panel: String) -> String {
    "  lid_closed disable: \(panel) goes off while the lid is closed and another output is lit"
  }
}
