import DisplayModel

/// What the RandR output manager asks of a server: a snapshot, a plan applied all or nothing
/// (with fallbacks, rollback and read-back), a CRTC's transform, the RandR version.
/// `XConnection` is the real one; a test double answers with values, so that the manager's
/// logic runs without a server.
protocol RandRServer: AnyObject {
  /// The display it talks to (`:0`).
  var name: String { get }
  var randrVersion: (major: Int, minor: Int) { get }
  func readTopology(_ options: ReadOptions) throws(DisplayError) -> Topology
  func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome
  /// A CRTC's current transform, nil when the server has none to tell.
  func crtcTransform(_ crtc: CrtcID) -> FixedTransform?
}

extension XConnection: RandRServer {
  func readTopology(_ options: ReadOptions) throws(DisplayError) -> Topology {
    try readTopology(options, attempts: 5)
  }
}
