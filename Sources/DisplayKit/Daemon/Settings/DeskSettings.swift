import DisplayModel
import DisplayPorts
import DisplaySupport

/// The daemon's desk-settings part: what the desk needs beside the layout and the surfaces:
/// `Xft.dpi` in the resource database, the outputs' properties and the touch devices mapped
/// onto them, and what is known of the desktop's display manager.
///
/// It is given the heads, the profile in force and the monitors' vendors as values at each
/// call; it reads no other part's state.
final class DeskSettings {
  /// The server's desk facilities (resources, output properties, pointer devices): a nil one
  /// is a feature the server has not, which the daemon then leaves out.
  let facilities: DisplayFacilities
  let log: Logger
  /// What the properties, the touch devices and the desktop's policy follow.
  var config: Config {
    didSet { if extras.config != nil { forgetExtras() } }
  }
  /// What displayd did to `Xft.dpi` (DeskSettings+XftDPI.swift).
  var xft = XftRuntime()
  /// Properties and touch devices (DeskSettings+Extras.swift).
  var extras = ExtrasRuntime()
  /// What is known of the desktop's display manager (DeskSettings+Desktop.swift).
  var desktopRuntime = DesktopRuntime()

  /// The settings of a desk on a server with `facilities`, for `config`.
  init(facilities: DisplayFacilities, config: Config, log: Logger) {
    self.facilities = facilities
    self.config = config
    self.log = log
    desktopRuntime.signals.xwaylandExtension = facilities.xwayland
  }

  /// Logs `message` once for the config in force.
  func warnOnce(_ message: String) {
    if extras.warned.insert(message).inserted { log.warning(message) }
  }
}
