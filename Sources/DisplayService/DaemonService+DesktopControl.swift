import DisplayModel
import DisplaySupport

extension DaemonService {
  /// Follows the session bus's desktop programs from before the first reconcile, so it is
  /// made knowing who has the layout.
  func watchDesktop() throws(DisplayError) {
    desktopBus = DesktopWatcher.start(log: log)
    if let desktopBus { try daemon.setDesktopSignals(desktopBus.signals, reconcile: false) }
  }

  /// The answer to a command that changes the layout (`command` names it in the log) while a
  /// desktop's display manager has it under `desktop: "auto"`: an error naming the manager;
  /// nil when displayd owns the layout and the command may go on. Every such command asks this
  /// first.
  func layoutRefusal(_ command: String) -> JSON? {
    guard let why = daemon.desktop.layoutRefusal else { return nil }
    log.warning("\(command) refused: \(why)")
    return ControlProtocol.error(why)
  }
}
