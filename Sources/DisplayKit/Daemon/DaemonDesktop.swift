import DisplayModel

/// What the daemon knows of the desktop's display manager.
struct DesktopRuntime {
  /// The session bus's names and the X server's extension; the output names come from the
  /// heads.
  var signals = DesktopSignals()
  /// The state last logged; nil before the first.
  var shown: DesktopState?
}

extension Daemon {
  /// The desktop's display manager seen now, and the policy in force.
  public var desktop: DesktopState {
    var signals = desktopRuntime.signals
    signals.outputNames = heads.heads.map(\.name)
    return DesktopState(signals, policy: config.desktop)
  }

  /// Takes what the session bus says of the desktop programs. When the manager that had the
  /// layout goes, displayd lays the monitors out again.
  public func setDesktopSignals(_ bus: DesktopSignals, reconcile: Bool = true) throws(DisplayError) {
    let before = desktop
    desktopRuntime.signals.busNames = bus.busNames
    desktopRuntime.signals.kdedModules = bus.kdedModules
    desktopRuntime.signals.mateXrandr = bus.mateXrandr
    guard reconcile, desktop != before else { return }
    let old = heads
    let reason = desktop.manager.map { "desktop manager \($0.rawValue)" } ?? "desktop manager gone"
    report(try self.reconcile(reason: reason), old)
  }

  /// Logs the desktop's state when it differs from the one logged last; returns the manager
  /// when it has the layout.
  func noteDesktop() -> DesktopManager? {
    let now = desktop
    if now != desktopRuntime.shown {
      if let gone = desktopRuntime.shown?.manager, now.manager == nil {
        log.info("desktop: \(gone.label) is gone: displayd lays the monitors out")
      } else if now.policy == .manage && now.manager != nil {
        log.warning(now.summary)
      } else {
        log.info(now.summary)
      }
      desktopRuntime.shown = now
    }
    return now.leavesLayout ? now.manager : nil
  }

  /// A reconcile while the desktop has the layout: no profile is in force and nothing is
  /// changed; the windows follow the desktop's layout.
  func leaveLayout(to manager: DesktopManager, _ n: Int, reason: String) -> [HeadEvent] {
    // DPI is the desktop's too: what displayd set in RESOURCE_MANAGER goes back.
    followXftDPI(nil)
    if profileRuntime.active.name != nil { log.info("profile: none in force while \(manager.rawValue) has the layout") }
    profileRuntime.active = ActiveProfile(name: nil, reason: .none)
    (profileRuntime.chosen, profileRuntime.applied, profileRuntime.manual) = (nil, nil, nil)
    profileRuntime.automaticLayout = nil
    (profileRuntime.lidDesk, settled, failures, litByDaemon) = (nil, [:], [:], [])
    log.debug("reconcile \(n) (\(reason)): the layout is \(manager.rawValue)'s; nothing to change")
    return []
  }
}
