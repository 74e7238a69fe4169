/// Who lays the monitors out when a desktop program that manages displays runs: `desktop` in
/// the config.
public enum DesktopPolicy: String, Hashable, Sendable, CaseIterable {
  /// The desktop's manager, when one runs; displayd otherwise.
  case auto
  /// displayd, whatever runs (the desktop may change it back).
  case manage
}

/// A desktop program that manages the displays' layout.
public enum DesktopManager: String, Hashable, Sendable, CaseIterable {
  case xfsettingsd
  case mutter
  case kscreen
  case csdXrandr = "csd-xrandr"
  case msdXrandr = "msd-xrandr"
  /// The Wayland compositor behind Xwayland: RandR there is read-only.
  case xwayland

  /// The desktop it belongs to.
  public var desktop: String {
    switch self {
    case .xfsettingsd: return "XFCE"
    case .mutter: return "GNOME"
    case .kscreen: return "KDE Plasma"
    case .csdXrandr: return "Cinnamon"
    case .msdXrandr: return "MATE"
    case .xwayland: return "a Wayland session"
    }
  }

  /// `xfsettingsd (XFCE)`.
  public var label: String { "\(rawValue) (\(desktop))" }

  /// How to make it leave the layout alone, for the log and the docs.
  public var handOver: String {
    switch self {
    case .xfsettingsd:
      return "turn xfsettingsd's display handling off: xfconf-query -c displays -p /Notify -s 0 and "
        + "xfconf-query -c displays -p /AutoEnableProfiles -s false"
    case .mutter: return "mutter has no switch to leave the layout alone: it may change it back"
    case .kscreen:
      return "disable the kded module kscreen: kwriteconfig5 --file kded5rc --group Module-kscreen --key autoload false"
    case .csdXrandr:
      return "disable csd-xrandr: turn off its autostart entry cinnamon-settings-daemon-xrandr in Startup Applications"
    case .msdXrandr:
      return "disable msd's xrandr plugin: gsettings set org.mate.SettingsDaemon.plugins.xrandr active false"
    case .xwayland: return "the compositor owns the layout and Xwayland refuses RandR changes: there is no switch"
    }
  }
}

/// What was seen of the desktop: the session bus's names and the X server's hints.
public struct DesktopSignals: Hashable, Sendable {
  /// Well-known names owned on the session bus, of those watched (`DesktopSignals.busNames`).
  public var busNames: Set<String> = []
  /// Modules kded says are loaded (`loadedModules`); nil when kded was not asked.
  public var kdedModules: [String]?
  /// Whether mate-settings-daemon has its xrandr plugin's object.
  public var mateXrandr = false
  /// Whether the X server has the `XWAYLAND` extension.
  public var xwaylandExtension = false
  /// The X server's output names.
  public var outputNames: [String] = []
  public init() {}

  static let xfce = "org.xfce.SettingsDaemon"
  static let mutter = "org.gnome.Mutter.DisplayConfig"
  static let kscreen = "org.kde.KScreen"
  /// kded's names, with the object and interface `loadedModules` is called on.
  public static let kded = [("org.kde.kded5", "/kded", "org.kde.kded5"), ("org.kde.kded6", "/kded", "org.kde.kded6")]
  static let cinnamon = "org.cinnamon.SettingsDaemon.XRANDR_2"
  /// mate-settings-daemon's name: its xrandr plugin is an object on it, not a name of its own.
  public static let mate = "org.mate.SettingsDaemon"
  public static let mateXrandrPath = "/org/mate/SettingsDaemon/XRANDR"
  public static let mateXrandrInterface = "org.mate.SettingsDaemon.XRANDR"

  /// Every name whose owner changes are watched.
  public static let busNames = [xfce, mutter, kscreen, cinnamon, mate] + kded.map(\.0)

  /// The manager in charge, if any: Xwayland first (nothing else can change its layout),
  /// then the first whose program is seen. `org.xfce.Xfconf` alone is not one: it is
  /// D-Bus activated by any xfconf client and changes no display.
  public var manager: DesktopManager? {
    if xwaylandExtension || outputNames.contains(where: { $0.hasPrefix("XWAYLAND") }) { return .xwayland }
    if busNames.contains(Self.xfce) { return .xfsettingsd }
    if busNames.contains(Self.mutter) { return .mutter }
    if busNames.contains(Self.kscreen) || kdedModules?.contains("kscreen") == true { return .kscreen }
    if busNames.contains(Self.cinnamon) { return .csdXrandr }
    if busNames.contains(Self.mate) && mateXrandr { return .msdXrandr }
    return nil
  }
}

/// The policy in force: who lays the monitors out, and why.
public struct DesktopState: Hashable, Sendable {
  public var manager: DesktopManager?
  public var policy: DesktopPolicy
  public init(manager: DesktopManager?, policy: DesktopPolicy) {
    self.manager = manager
    self.policy = policy
  }

  /// Whether displayd leaves modes, positions, rotation, primary and DPI alone.
  public var leavesLayout: Bool { policy == .auto && manager != nil }

  /// `desktop` or `displayd`: who lays the monitors out.
  public var layoutOwner: String { leavesLayout ? "desktop" : "displayd" }

  /// The log line (and `check-config`'s) saying who lays the monitors out and how to change it.
  public var summary: String {
    guard let manager else { return "desktop: no desktop display manager seen; displayd lays the monitors out" }
    if policy == .manage {
      return "desktop: \(manager.label) manages displays, but desktop: \"manage\" is set: displayd lays the "
        + "monitors out and the desktop may change it back (\(manager.handOver))"
    }
    return "desktop: \(manager.label) manages displays: displayd leaves modes, positions, rotation, primary "
      + "and DPI to it and only puts its windows on the monitors; " + advice(manager)
  }

  private func advice(_ manager: DesktopManager) -> String {
    let manage = "to have displayd lay them out, set desktop: \"manage\" in the config"
    switch manager {
    case .xwayland: return "the compositor owns the layout and Xwayland's RandR is read-only: nothing can hand it over"
    case .mutter: return manage + " (\(manager.handOver))"
    default: return manage + " and \(manager.handOver)"
    }
  }

  /// Why a command that changes the layout is refused; nil when displayd owns the layout.
  public var layoutRefusal: String? {
    guard leavesLayout, let manager else { return nil }
    return "\(manager.label) manages the layout (desktop: \"auto\"); set desktop: \"manage\" in the config "
      + "to have displayd change it"
  }
}
