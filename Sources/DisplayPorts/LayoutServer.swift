import DisplayModel

/// The layout a display server holds, in the daemon's terms, all of it heads: a read to plan
/// from, a configuration put in force all or nothing, and the modes displayd made released.
/// The backend keeps its last read, the shape of which is its own business (RandR's
/// topology on X: `TopologyLayoutServer`), and answers from it. On X the daemon's is
/// `RandRLayout`, through `RandROutputManager` (`XConnection` is one too); on Wayland
/// `OutputManagerLayout` does the same over any `OutputManager`. Its events are the
/// `ChangeSource`'s.
public protocol LayoutServer: AnyObject {
  /// The display's name, for logs and status.
  var name: String { get }
  /// One consistent read of the heads, as the server says them now (no disconnect held);
  /// the backend keeps it as its last read.
  func read(_ options: ReadOptions) throws(DisplayError) -> HeadSnapshot
  /// The last read's heads as the daemon treats them while the disconnects of `held` wait
  /// for their grace (`HeldHeads`): each still connected, its monitor (identity and modes)
  /// the one the backend last read on it, showing what the server shows there now.
  func heads(holding held: HeldHeads) -> HeadSnapshot
  /// Tests `configuration`, planned from the last read as `heads(holding:)` gives it, then
  /// puts it in force, all or nothing: the port's answer and its report. An empty
  /// configuration sends nothing.
  func apply(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  )
  /// The heads the last read shows lit while the server calls them disconnected: a monitor
  /// just unplugged (its CRTC still set), or one another client lit that the server has not
  /// probed yet (the dummy driver notices a connection only when asked to re-probe).
  var litButDisconnected: Set<String> { get }
  /// The heads the last read shows connected whose monitor the server's events said went and
  /// came back, as two changes, since the read before: as the server set it on its return.
  /// None where a monitor back is a new head anyway (wlroots).
  var reconnected: Set<String> { get }
  /// The PNP ids the makes of `snapshot`'s heads stand for (for rules matching a monitor
  /// without an EDID); none where every monitor has an EDID.
  func vendors(of snapshot: HeadSnapshot) -> PNPVendors
  /// Removes the modes displayd made that nothing the last read shows uses from the outputs
  /// listing them and destroys them: their names, and what the server refused. None where
  /// the server lists no modes a client makes (wlroots).
  func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String])
  /// How the log names the server when it refuses a configuration before anything is set
  /// ("the compositor refused the configuration: …"); nil where the backend checks a
  /// configuration itself and says why in its own words (RandR).
  var refuser: String? { get }
}

extension LayoutServer {
  public func vendors(of snapshot: HeadSnapshot) -> PNPVendors { .none }

  public var refuser: String? { nil }

  public var reconnected: Set<String> { [] }

  /// One consistent read, without probing connectors.
  public func read() throws(DisplayError) -> HeadSnapshot { try read(ReadOptions()) }
}
