import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import DisplayWayland
import DisplayX11

#if canImport(Glibc)
  import Glibc
#endif

/// `--backend x11|wayland`: which display server a query command reads.
let backendOption = "--backend"

/// The display server a command talks to.
typealias Backend = DisplayBackend.Kind

extension Arguments {
  /// `--backend`, else automatic: a `$WAYLAND_DISPLAY` compositor with
  /// `zwlr_output_manager_v1` (so under Xwayland, with `$DISPLAY` set too, Wayland wins),
  /// else X. `--display` alone means X. Nothing of Wayland is loaded without `$WAYLAND_DISPLAY`.
  func backend(_ spec: CommandSpec) throws(UsageError) -> Backend {
    if let named = self[backendOption] {
      guard let backend = Backend(rawValue: named) else {
        throw UsageError("--backend must be x11 or wayland, not '\(named)'", usage: spec.usage)
      }
      return backend
    }
    guard display == nil, let socket = getenv("WAYLAND_DISPLAY"), socket.pointee != 0 else { return .x11 }
    return WaylandOutputManager.isAvailable() ? .wayland : .x11
  }

  /// Why the automatic choice did not take the `$WAYLAND_DISPLAY` compositor
  /// (`WAYLAND_DISPLAY=wayland-0: the compositor 'mutter' offers no zwlr_output_manager_v1
  /// (GNOME's mutter?)`); nil when it was not the choice's to make (`--backend`, `--display`,
  /// no `$WAYLAND_DISPLAY`) or the compositor serves now. Asked again: only on the way to an
  /// error.
  func waylandPassedOver() -> String? {
    guard self[backendOption] == nil, display == nil, let socket = getenv("WAYLAND_DISPLAY"), socket.pointee != 0,
      let why = WaylandOutputManager.unusable()
    else { return nil }
    return "WAYLAND_DISPLAY=\(String(cString: socket)): \(why)"
  }
}

/// The compositor's output manager: `--display` names its socket, else `$WAYLAND_DISPLAY`.
func connectWayland(_ args: Arguments) throws -> WaylandOutputManager {
  try WaylandOutputManager(socket: args.display)
}

/// The backend `--backend` (or the automatic choice) names, opened on `--display`: when
/// no X display can be opened and a `$WAYLAND_DISPLAY` compositor was passed over, the error
/// says both.
func openBackend(_ args: Arguments, _ spec: CommandSpec, log: Logger) throws -> DisplayBackend {
  let kind = try args.backend(spec)
  do {
    return try DisplayBackend.open(kind, display: args.display, log: log)
  } catch {
    guard case .cannotOpen(let display) = error, let wayland = args.waylandPassedOver() else { throw error }
    throw DisplayError.noDisplayServer(
      tried: [wayland, display.isEmpty ? "DISPLAY is not set" : "cannot open X display '\(display)'"])
  }
}

/// Who lays out `desk`'s monitors, as the daemon would tell: the session bus's desktop
/// programs, and Xwayland from the server's extension or its outputs' names.
func deskDesktop(_ desk: DisplayBackend, _ heads: HeadSnapshot, policy: DesktopPolicy) -> DesktopState {
  var signals = currentDesktopSignals()
  signals.xwaylandExtension = desk.facilities.xwayland
  signals.outputNames = heads.heads.map(\.name)
  return DesktopState(signals, policy: policy)
}

/// The heads of one read of the desk, as the daemon reads them (probing connectors when
/// asked), on either backend.
func deskHeads(_ layout: OutputManagerLayout, probe: Bool) throws -> HeadSnapshot {
  try layout.read(ReadOptions(probe: probe))
}

/// The query commands' help line for `--backend`.
let backendHelp = "  --backend B  x11 or wayland (default: Wayland when $WAYLAND_DISPLAY is a wlroots compositor)"
