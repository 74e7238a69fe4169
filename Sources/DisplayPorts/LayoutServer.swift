import DisplayModel

/// The layout a display server holds, in the daemon's terms: a snapshot to plan from, a plan
/// put in force all or nothing, and the modes displayd made released. On X the daemon's is
/// `RandRLayout`, through `RandROutputManager` (`XConnection` is one too, applying plans
/// directly); on Wayland `OutputManagerLayout` does the same over any `OutputManager`. Its
/// events are the `ChangeSource`'s.
public protocol LayoutServer: AnyObject {
  /// The display's name, for logs and status.
  var name: String { get }
  /// One consistent snapshot.
  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology
  /// The heads a snapshot of this server is, as the output-management port describes them
  /// (what the planners over heads take); `topology` is the last one `snapshot` read, or
  /// the daemon's view of it (a backend whose snapshots are heads gives the heads it read).
  func heads(of topology: Topology) -> HeadSnapshot
  /// Applies a plan made from `topology`, all or nothing.
  func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome
  /// Tests `configuration`, planned from the heads of `topology` (the last snapshot, or the
  /// daemon's view of it), then puts it in force, all or nothing: the port's answer and its
  /// report. An empty configuration sends nothing.
  func apply(_ configuration: OutputConfiguration, in topology: Topology) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  )
  /// The PNP ids the makes of `snapshot`'s heads stand for (for rules matching a monitor
  /// without an EDID); none where every monitor has an EDID.
  func vendors(of snapshot: HeadSnapshot) -> PNPVendors
  /// Removes modes displayd made from the outputs listing them and destroys them; what the
  /// server refused.
  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String]
  /// How the log names the server when it refuses a configuration before anything is set
  /// ("the compositor refused the configuration: …"); nil where the backend checks a
  /// configuration itself and says why in its own words (RandR).
  var refuser: String? { get }
}

extension LayoutServer {
  public func vendors(of snapshot: HeadSnapshot) -> PNPVendors { .none }

  public var refuser: String? { nil }

  /// One consistent snapshot, without probing connectors.
  public func snapshot() throws(DisplayError) -> Topology { try snapshot(ReadOptions()) }
}
