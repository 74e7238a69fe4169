// Beside the ports rather than in the model: it names an X window. The X backend reads it and
// the daemon, which only names it in its log and status, is handed it through `DesktopResources`.

/// The client that owns a screen's XSETTINGS selection (`_XSETTINGS_S0`: xfsettingsd,
/// gsd-xsettings, xsettingsd), as far as X tells.
public struct XSettingsOwner: Sendable, Equatable {
  /// The selection owner's window.
  public var window: UInt
  /// `WM_CLASS`'s class (else instance) of that window, when set.
  public var wmClass: String?
  /// `_NET_WM_PID` of that window, when set.
  public var pid: Int?
  /// The process's name (`/proc/PID/comm`), when the pid is known and readable.
  public var command: String?

  public init(window: UInt, wmClass: String?, pid: Int?, command: String? = nil) {
    self.window = window
    self.wmClass = wmClass
    self.pid = pid
    self.command = command
  }

  /// "xsettingsd (pid 4242)", "Xfsettingsd", "window 0x1a00001": the best name known.
  public var description: String {
    let window = "window 0x" + String(self.window, radix: 16)
    let pidText = pid.map { "pid \($0)" }
    guard let name = wmClass ?? command else { return pidText.map { "\($0), \(window)" } ?? window }
    return name + " (" + (pidText ?? window) + ")"
  }
}
