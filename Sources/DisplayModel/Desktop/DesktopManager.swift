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
  /// The Wayland compositor behind Xwayland: its X server's layout is read-only.
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

/// The Wayland compositor behind Xwayland, as the session bus names its display service:
/// it owns the layout, and only its own settings change it.
public enum XwaylandCompositor: String, Hashable, Sendable {
  /// GNOME's mutter, which owns `org.gnome.Mutter.DisplayConfig`.
  case mutter
  /// KDE Plasma's KWin, which owns `org.kde.KWin` (kscreen's `org.kde.KScreen` beside it).
  case kwin

  /// `GNOME's mutter on Wayland`: the desktop a status names.
  public var desktop: String {
    switch self {
    case .mutter: return "GNOME's mutter on Wayland"
    case .kwin: return "KDE Plasma's KWin on Wayland"
    }
  }

  /// The name on the session bus it was told by.
  public var busName: String {
    switch self {
    case .mutter: return DesktopSignals.mutter
    case .kwin: return DesktopSignals.kwin
    }
  }

  /// Where its user changes the layout.
  public var settings: String {
    switch self {
    case .mutter: return "GNOME's Settings (Displays)"
    case .kwin: return "KDE's System Settings (Display Configuration) or kscreen-doctor"
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
  /// KWin's name: on X11 a window manager (kscreen has the layout there), on Wayland the
  /// compositor behind Xwayland.
  static let kwin = "org.kde.KWin"
  /// kded's names, with the object and interface `loadedModules` is called on.
  public static let kded = [("org.kde.kded5", "/kded", "org.kde.kded5"), ("org.kde.kded6", "/kded", "org.kde.kded6")]
  static let cinnamon = "org.cinnamon.SettingsDaemon.XRANDR_2"
  /// mate-settings-daemon's name: its xrandr plugin is an object on it, not a name of its own.
  public static let mate = "org.mate.SettingsDaemon"
  public static let mateXrandrPath = "/org/mate/SettingsDaemon/XRANDR"
  public static let mateXrandrInterface = "org.mate.SettingsDaemon.XRANDR"

  /// Every name whose owner changes are watched.
  public static let busNames = [xfce, mutter, kscreen, cinnamon, mate, kwin] + kded.map(\.0)

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

  /// The compositor whose Xwayland this is, as the bus names it; nil off Xwayland and
  /// when the bus names none of them.
  public var xwaylandCompositor: XwaylandCompositor? {
    guard manager == .xwayland else { return nil }
    if busNames.contains(Self.mutter) { return .mutter }
    let kscreen = busNames.contains(Self.kscreen) || kdedModules?.contains("kscreen") == true
    if busNames.contains(Self.kwin) || kscreen { return .kwin }
    return nil
  }
}

/// The policy in force: who lays the monitors out, and why.
public struct DesktopState: Hashable, Sendable {
  public var manager: DesktopManager?
  public var policy: DesktopPolicy
  /// Under Xwayland, the compositor the session bus names.
  public var compositor: XwaylandCompositor?
  public init(manager: DesktopManager?, policy: DesktopPolicy, compositor: XwaylandCompositor? = nil) {
    self.manager = manager
    self.policy = policy
    self.compositor = manager == .xwayland ? compositor : nil
  }

  /// The state `signals` tell under `policy`.
  public init(_ signals: DesktopSignals, policy: DesktopPolicy) {
    self.init(manager: signals.manager, policy: policy, compositor: signals.xwaylandCompositor)
  }

  /// The desktop the manager belongs to: under Xwayland the compositor's, when the bus
  /// names it.
  public var desktop: String? { compositor?.desktop ?? manager?.desktop }

  /// `xfsettingsd (XFCE)`, `xwayland (GNOME's mutter on Wayland)`.
  public var managerLabel: String? { manager.map { "\($0.rawValue) (\(desktop ?? $0.desktop))" } }

  /// Whether displayd leaves modes, positions, rotation, primary and DPI alone.
  public var leavesLayout: Bool { policy == .auto && manager != nil }

  /// `desktop` or `displayd`: who lays the monitors out.
  public var layoutOwner: String { leavesLayout ? "desktop" : "displayd" }

  /// The log line (and `check-config`'s) saying who lays the monitors out and how to change it.
  public var summary: String {
    guard let manager, let label = managerLabel else {
      return "desktop: no desktop display manager seen; displayd lays the monitors out"
    }
    if policy == .manage {
      if manager == .xwayland {
        return "desktop: \(label) manages displays, but desktop: \"manage\" is set: displayd asks Xwayland's "
          + "RandR, which refuses to change the compositor's layout; " + advice(manager)
      }
      return "desktop: \(label) manages displays, but desktop: \"manage\" is set: displayd lays the "
        + "monitors out and the desktop may change it back (\(manager.handOver))"
    }
    return "desktop: \(label) manages displays: displayd leaves modes, positions, rotation, primary "
      + "and DPI to it and only puts its windows on the monitors; " + advice(manager)
  }

  /// How to have the layout changed while `manager` has it: the same words in the log,
  /// `check-config` and every refusal.
  private func advice(_ manager: DesktopManager) -> String {
    let manage = "to have displayd lay them out, set desktop: \"manage\" in the config"
    switch manager {
    case .xwayland:
      guard let compositor else {
        return "the compositor owns the layout and Xwayland's RandR is read-only: nothing can hand it over; "
          + "change the layout with the compositor's own settings"
      }
      return "\(compositor.rawValue) owns the layout (\(compositor.busName)) and Xwayland's RandR is read-only: "
        + "nothing can hand it over; change the layout in \(compositor.settings)"
    case .mutter: return manage + " (\(manager.handOver))"
    default: return manage + " and \(manager.handOver)"
    }
  }

  /// Why a command that changes the layout is refused; nil when displayd owns the layout.
  public var layoutRefusal: String? {
    guard leavesLayout, let manager, let label = managerLabel else { return nil }
    return "\(label) manages the layout (desktop: \"auto\"): " + advice(manager)
  }
}
