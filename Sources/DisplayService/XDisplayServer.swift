import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayX11

/// The X connection is the display server the daemon runs against. The conformance lives
/// here, above both, so the daemon (DisplayKit) knows only the protocol and never X.
extension XConnection: DisplayServer, TopologyLayoutServer {
  public func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology { try readTopology(options) }
  public func heads(of topology: Topology) -> HeadSnapshot { RandROutputManager(self).snapshot(topology) }
  public func apply(_ configuration: OutputConfiguration, in topology: Topology) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    try RandROutputManager(self).applyReporting(configuration, from: topology)
  }
}

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
