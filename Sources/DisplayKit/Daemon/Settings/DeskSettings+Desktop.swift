import DisplayModel

extension DeskSettings {
  /// The desktop's display manager seen now on a desk whose heads are `heads`, and the
  /// policy in force.
  func desktop(_ heads: HeadSnapshot) -> DesktopState {
    var signals = desktopRuntime.signals
    signals.outputNames = heads.heads.map(\.name)
    return DesktopState(signals, policy: config.desktop)
  }

  /// Takes what the session bus says of the desktop programs.
  func take(_ bus: DesktopSignals) {
    desktopRuntime.signals.busNames = bus.busNames
    desktopRuntime.signals.kdedModules = bus.kdedModules
    desktopRuntime.signals.mateXrandr = bus.mateXrandr
  }

  /// Logs the desktop's state when it differs from the one logged last; returns the manager
  /// when it has the layout.
  func noteDesktop(_ heads: HeadSnapshot) -> DesktopManager? {
    let now = desktop(heads)
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
}
