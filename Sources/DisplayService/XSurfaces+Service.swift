import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayX11

/// The X connection is where the daemon's events come from (the conformance lives here,
/// above both, so the daemon knows only the port and never X).
extension XConnection: ChangeSource {}

extension XSurfaces {
  /// The surfaces of the daemon on `connection` (the same connection is its display server:
  /// one descriptor, one drain), logging to `log` and pacing mirrors by the monotonic clock.
  public convenience init(_ connection: XConnection, log: Logger) {
    self.init(connection: connection, now: monotonicNanoseconds)
    note = { level, line in
      switch level {
      case .debug: log.debug(line)
      case .info: log.info(line)
      case .warning: log.warning(line)
      case .error: log.error(line)
      }
    }
  }
}
