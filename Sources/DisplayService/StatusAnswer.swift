import DisplayKit

/// The control socket's answer to `status` (after its `"ok": true`), and what
/// `displayd status --json` prints: the managed monitors and the counters.
public struct StatusAnswer: Codable, Equatable, Sendable {
  /// One managed monitor.
  public struct Monitor: Codable, Equatable, Sendable {
    /// Who the monitor is, from its EDID.
    public struct Identity: Codable, Equatable, Sendable {
      public var manufacturer: String
      public var productName: String?
      public var serial: String?
      public var displayID: String
      enum CodingKeys: String, CodingKey {
        case manufacturer
        case productName = "product_name"
        case serial
        case displayID = "display_id"
      }
    }
    public var output: String
    public var identity: Identity?
    /// `Mode.label` of its current mode.
    public var mode: String?
    public var geometry: RectRecord?
    public var window: Int
    public var content: String
    public var level: String
    public var since: String
  }

  /// The daemon's counters (`DaemonCounters`).
  public struct Counters: Codable, Equatable, Sendable {
    public var reconciles: Int
    public var reconcilesChanged: Int
    public var windowsCreated: Int
    public var windowsDestroyed: Int
    public var redraws: Int
    public var composites: Int
    enum CodingKeys: String, CodingKey {
      case reconciles
      case reconcilesChanged = "reconciles_changed"
      case windowsCreated = "windows_created"
      case windowsDestroyed = "windows_destroyed"
      case redraws
      case composites
    }
  }

  public var display: String
  /// Wall-clock time the daemon started.
  public var since: String
  public var config: String?
  /// Why the last reload failed, while the previous config stays in force.
  public var configError: String?
  public var main: String?
  /// `LidState` as logind last said (open without logind).
  public var lid: String
  /// The profile in force and why.
  public var profile: ProfileRecord
  public var monitors: [Monitor]
  public var counters: Counters
  /// The desktop's display manager seen and who lays the monitors out; nil from a daemon
  /// that predates it.
  public var desktop: DesktopRecord?

  /// `{"manager": "xfsettingsd" or null, "desktop": "XFCE" or null, "policy": "auto" |
  /// "manage", "layout": "desktop" | "displayd"}`.
  public struct DesktopRecord: Codable, Equatable, Sendable {
    public var manager: String?
    public var desktop: String?
    public var policy: String
    public var layout: String

    public init(_ state: DesktopState) {
      (manager, desktop) = (state.manager?.rawValue, state.manager?.desktop)
      (policy, layout) = (state.policy.rawValue, state.layoutOwner)
    }
  }

  /// The active profile's name (nil when none is) and `ProfileReason` (`matched`,
  /// `switched`, `none`).
  public struct ProfileRecord: Codable, Equatable, Sendable {
    public var name: String?
    public var reason: String
  }

  enum CodingKeys: String, CodingKey {
    case display
    case since
    case config
    case configError = "config_error"
    case main
    case lid
    case profile
    case monitors
    case counters
    case desktop
  }
}

extension Daemon {
  /// What the daemon manages now, as `status` answers it.
  public func statusAnswer(configPath: String?, configError: String?) -> StatusAnswer {
    let list = monitors.values.sorted { $0.name < $1.name }.map { m in
      let output = topology.output(m.output)
      let identity = output?.identity.map {
        StatusAnswer.Monitor.Identity(
          manufacturer: $0.manufacturer, productName: $0.productName?.text, serial: $0.serial,
          displayID: DisplayID(edid: $0).rawValue)
      }
      return StatusAnswer.Monitor(
        output: m.name, identity: identity, mode: output.flatMap { topology.currentMode(of: $0)?.label },
        geometry: RectRecord(m.rect), window: Int(clamping: m.window.rawValue), content: m.content.rawValue,
        level: m.level.rawValue, since: m.since)
    }
    let c = counters
    return StatusAnswer(
      display: connection.name, since: startedAt, config: configPath, configError: configError,
      main: mainOutput?.name, lid: lid.rawValue,
      profile: StatusAnswer.ProfileRecord(name: activeProfile.name, reason: activeProfile.reason.rawValue),
      monitors: list,
      counters: StatusAnswer.Counters(
        reconciles: c.reconciles, reconcilesChanged: c.reconcilesChanged, windowsCreated: c.windowsCreated,
        windowsDestroyed: c.windowsDestroyed, redraws: c.redraws, composites: c.composites),
      desktop: StatusAnswer.DesktopRecord(desktop))
  }

  /// The status answer as the control socket writes it.
  public func statusJSON(configPath: String?, configError: String?) -> JSON {
    JSON.record(statusAnswer(configPath: configPath, configError: configError))
  }
}
