import DisplayModel

/// What the RandR output manager asks of a server: a snapshot (with the CRTCs' transforms), a
/// plan applied all or nothing (with fallbacks, rollback and read-back), the RandR version,
/// the outputs its events said went and came back, and made modes released. `XConnection` is
/// the real one; a test double answers with values, so that the manager's logic runs without
/// a server.
protocol RandRServer: AnyObject {
  /// The display it talks to (`:0`).
  var name: String { get }
  var randrVersion: (major: Int, minor: Int) { get }
  func readTopology(_ options: ReadOptions) throws(DisplayError) -> Topology
  func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome
  /// The outputs the server's events said went and came back since this was last asked
  /// (none where the server's events are not the connection's).
  func takeReconnectsSeen() -> Set<OutputID>
  /// Removes the modes from the outputs listing them and destroys them; what the server
  /// refused.
  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String]
}

extension XConnection: RandRServer {
  func readTopology(_ options: ReadOptions) throws(DisplayError) -> Topology {
    try readTopology(options, attempts: 5)
  }
}
