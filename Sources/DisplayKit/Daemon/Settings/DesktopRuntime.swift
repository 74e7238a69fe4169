import DisplayModel

/// What the daemon knows of the desktop's display manager.
struct DesktopRuntime {
  /// The session bus's names and the X server's extension; the output names come from the
  /// heads.
  var signals = DesktopSignals()
  /// The state last logged; nil before the first.
  var shown: DesktopState?
}
