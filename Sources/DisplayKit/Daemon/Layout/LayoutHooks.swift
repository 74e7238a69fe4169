import DisplayModel

/// What the layout part asks of the rest of the daemon, at the moment it needs it: the
/// coordinator routes each to the part (or the service) it concerns. The layout reads no
/// other part's state; these are its only ways out.
struct LayoutHooks {
  /// Logs the desktop's state when it changed; returns the display manager when it has the
  /// layout (then the daemon changes nothing).
  var desktopManager: () -> DesktopManager? = { nil }
  /// After each round of an arrangement: the desk settings (properties, touch) follow it.
  var arranged: () -> Void = {}
  /// The profile now in force (nil: none) and the DPI its plan measured: `Xft.dpi` follows.
  var profileInForce: (_ profile: Profile?, _ plannedDPI: Double?) -> Void = { _, _ in }
  /// A profile was brought into force, before the windows follow.
  var profileApplied: (Profile) -> Void = { _ in }
  /// Another monitor came back on a head whose disconnect waited: its surface goes.
  var monitorSwapped: (String) -> Void = { _ in }
}
