import DisplayKit
import DisplayModel

/// The control socket's answer to `profile-list` (after its `"ok": true`), and what
/// `displayd profile list --json` prints, from the daemon or, without one, worked out by the
/// command from the config and a fresh snapshot.
public struct ProfileListAnswer: Codable, Equatable, Sendable {
  /// One profile of the config, in config order.
  public struct Entry: Codable, Equatable, Sendable {
    public var name: String
    /// Whether it matches the monitors present (and the lid).
    public var matches: Bool
    /// Why it does not match; nil when it does.
    public var reason: String?
    /// Whether it is the profile in force.
    public var active: Bool
  }

  public var profiles: [Entry]
  /// The profile in force and why (`name` null and `reason` `none` without a daemon).
  public var active: StatusAnswer.ProfileRecord

  /// Every profile of `config` against the heads of `snapshot` and `lid` (with `vendors`, the
  /// PNP ids of the makes of heads without an EDID), with none in force: what `profile list`
  /// shows when no daemon runs. The daemon matches the same way.
  public static func withoutDaemon(
    config: Config, snapshot: HeadSnapshot, lid: LidState, vendors: PNPVendors = .none
  ) -> ProfileListAnswer {
    ProfileListAnswer(config: config, active: nil) { profile in
      guard case .failure(let why) = ProfileMatcher.match(profile, snapshot: snapshot, lid: lid, vendors: vendors)
      else { return nil }
      return why
    }
  }

  /// Every profile of `config`, with why it does not match (`mismatch`) and `active` in force.
  init(config: Config, active: ActiveProfile?, mismatch: (Profile) -> ProfileMismatch?) {
    profiles = config.profiles.map { profile in
      let mismatch = mismatch(profile)
      return Entry(
        name: profile.name, matches: mismatch == nil, reason: mismatch.map { "\($0)" },
        active: active != nil && profile.name == active?.name)
    }
    self.active = StatusAnswer.ProfileRecord(name: active?.name, reason: (active?.reason ?? .none).rawValue)
  }
}

extension Daemon {
  /// What `profile-list` answers.
  public var profileListAnswer: ProfileListAnswer {
    ProfileListAnswer(config: config, active: activeProfile) { mismatch($0) }
  }
}
