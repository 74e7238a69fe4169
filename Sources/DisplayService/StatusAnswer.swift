import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport

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
    /// Absent in the answer of a daemon that did not count them.
    public var probes: Int?
    enum CodingKeys: String, CodingKey {
      case reconciles
      case reconcilesChanged = "reconciles_changed"
      case windowsCreated = "windows_created"
      case windowsDestroyed = "windows_destroyed"
      case redraws
      case composites
      case probes
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
  /// Whether the layout is chosen automatically or by hand, and which (nil from a daemon
  /// that does not say).
  public var layout: LayoutRecord?
  public var monitors: [Monitor]
  public var counters: Counters
  /// `Xft.dpi` as displayd set it in RESOURCE_MANAGER, while a profile with `dpi` is in force.
  public var xftDPI: Int?
  /// The XSETTINGS manager (owner of `_XSETTINGS_S0`) seen when displayd last set `Xft.dpi`.
  public var xsettings: String?
  /// The desktop's display manager seen and who lays the monitors out; nil from a daemon
  /// that predates it.
  public var desktop: DesktopRecord?
  /// `x11` or `wayland`; nil from a daemon that predates it.
  public var backend: String? = nil
  /// The Wayland compositor's process name (`sway`); nil on X.
  public var compositor: String? = nil
  /// The Wayland objects the daemon holds (its proxies: outputs, heads, surfaces, buffers);
  /// nil on X.
  public var waylandObjects: Int? = nil

  /// `{"manager": "xfsettingsd" or null, "desktop": "XFCE" or null, "policy": "auto" |
  /// "manage", "layout": "desktop" | "displayd"}`; under Xwayland the desktop names the
  /// compositor the session bus shows (`GNOME's mutter on Wayland`).
  public struct DesktopRecord: Codable, Equatable, Sendable {
    public var manager: String?
    public var desktop: String?
    public var policy: String
    public var layout: String

    public init(_ state: DesktopState) {
      (manager, desktop) = (state.manager?.rawValue, state.desktop)
      (policy, layout) = (state.policy.rawValue, state.layoutOwner)
    }
  }

  /// The active profile's name (nil when none is) and `ProfileReason` (`matched`,
  /// `switched`, `none`).
  public struct ProfileRecord: Codable, Equatable, Sendable {
    public var name: String?
    public var reason: String
  }

  /// `{"by_hand": false, "profile": null, "builtin": null}` under automatic choice; by hand,
  /// the profile's or the built-in layout's name.
  public struct LayoutRecord: Codable, Equatable, Sendable {
    public var byHand: Bool
    public var profile: String?
    public var builtin: String?
    public init(_ choice: LayoutChoice?) {
      byHand = choice != nil
      if case .profile(let name)? = choice { profile = name }
      if case .layout(let layout)? = choice { builtin = layout.rawValue }
    }
    enum CodingKeys: String, CodingKey {
      case byHand = "by_hand"
      case profile
      case builtin
    }
  }

  enum CodingKeys: String, CodingKey {
    case display
    case since
    case config
    case configError = "config_error"
    case main
    case lid
    case profile
    case layout
    case monitors
    case counters
    case xftDPI = "xft_dpi"
    case xsettings
    case desktop
    case backend
    case compositor
    case waylandObjects = "wayland_objects"
  }
}

extension StatusAnswer.Monitor {
  /// A managed monitor's identity (from its EDID) and mode (as the wire names it) as its
  /// head in `snapshot` says them; nil for what the head lacks or a head the snapshot lacks.
  public static func shown(_ name: String, in snapshot: HeadSnapshot) -> (identity: Identity?, mode: String?) {
    guard let head = snapshot.heads.first(where: { $0.name == name }) else { return (nil, nil) }
    let identity = head.edid.flatMap { try? EDID(bytes: $0) }.map {
      Identity(
        manufacturer: $0.manufacturer, productName: $0.productName?.text, serial: $0.serial,
        displayID: DisplayID(edid: $0).rawValue)
    }
    return (identity, head.currentMode.map { WireMode(head, $0).label })
  }
}

extension Daemon {
  /// What the daemon manages now, as `status` answers it.
  public func statusAnswer(configPath: String?, configError: String?) -> StatusAnswer {
    let list = monitors.values.sorted { $0.name < $1.name }.map { m in
      let (identity, mode) = StatusAnswer.Monitor.shown(m.name, in: heads)
      return StatusAnswer.Monitor(
        output: m.name, identity: identity, mode: mode,
        geometry: RectRecord(m.rect), window: Int(clamping: m.surface.rawValue), content: m.content.rawValue,
        level: m.level.rawValue, since: m.since)
    }
    let c = counters
    return StatusAnswer(
      display: layoutServer.name, since: startedAt, config: configPath, configError: configError,
      main: mainOutput?.name, lid: lid.rawValue,
      profile: StatusAnswer.ProfileRecord(name: activeProfile.name, reason: activeProfile.reason.rawValue),
      layout: layoutRecord, monitors: list,
      counters: StatusAnswer.Counters(
        reconciles: c.reconciles, reconcilesChanged: c.reconcilesChanged, windowsCreated: c.windowsCreated,
        windowsDestroyed: c.windowsDestroyed, redraws: c.redraws, composites: c.composites, probes: c.probes),
      xftDPI: xftDPI, xsettings: xsettingsManager,
      desktop: StatusAnswer.DesktopRecord(desktop))
  }

  /// How the layout in force was chosen.
  public var layoutRecord: StatusAnswer.LayoutRecord { StatusAnswer.LayoutRecord(layoutChoice) }

  /// The status answer as the control socket writes it.
  public func statusJSON(configPath: String?, configError: String?) -> JSON {
    statusAnswer(configPath: configPath, configError: configError).json
  }
}

extension StatusAnswer {
  /// The answer as the control socket writes it; the backend's keys only where they are
  /// known (an X daemon's answer keeps its shape).
  public var json: JSON {
    guard case .object(let members) = JSON.record(self) else { return JSON.record(self) }
    let optional: Set<String> = ["backend", "compositor", "wayland_objects"]
    return .object(members.filter { !(optional.contains($0.0) && $0.1 == .null) })
  }
}
