import DisplayModel

/// The daemon's layout over any output manager, the same on every backend: heads read
/// (`HeadSnapshot.bounded`) and kept as the last read, the held view during a grace,
/// configurations tested, then applied, the modes displayd made released. What a display
/// server says of its desk beyond the heads (its screen's limits where the snapshot gives
/// none, whether it has a primary, how the log names it) is its `Desk`. The backend's event
/// loop stays with it (`ChangeSource`): this adds no roundtrip of its own, one `heads` a read
/// and one `test` and one `apply` a configuration.
public final class OutputManagerLayout {
  /// What a backend states of its desk beyond the heads.
  public struct Desk: Sendable {
    /// How the log names the server when it refuses a configuration before anything is set
    /// ("the compositor refused the configuration: …"); nil where the backend checks a
    /// configuration itself and says why in its own words (RandR).
    public var server: String?
    /// The largest screen the planner keeps within, where the snapshot has no screen.
    public var maxWidth: Int
    public var maxHeight: Int
    /// Whether the server has a primary head and a physical size (RandR's): without them, a
    /// configuration that changes no head sends nothing.
    public var hasPrimary: Bool

    public init(server: String?, maxWidth: Int, maxHeight: Int, hasPrimary: Bool = false) {
      self.server = server
      self.maxWidth = maxWidth
      self.maxHeight = maxHeight
      self.hasPrimary = hasPrimary
    }
  }

  public let manager: any OutputManager
  public let desk: Desk
  /// The PNP ids the makes of a snapshot's heads stand for (a table read as makes appear).
  public let vendors: (_ makes: [String]) -> PNPVendors
  /// Where what bounding left out of a snapshot is said (once while it stays the same).
  let warn: (String) -> Void
  private var lastWarnings: [String] = []
  /// The heads the last read was made of, bounded as it was.
  private var lastHeads = HeadSnapshot(heads: [])

  /// The display's name, for logs, status and the control socket: the X display, the
  /// compositor's socket.
  public let name: String

  /// `name` defaults to the manager's server name.
  public init(
    _ manager: any OutputManager, desk: Desk, name: String? = nil,
    vendors: @escaping (_ makes: [String]) -> PNPVendors = { _ in .none }, warn: @escaping (String) -> Void = { _ in }
  ) {
    self.manager = manager
    self.name = name ?? manager.serverName
    self.desk = desk
    self.vendors = vendors
    self.warn = warn
  }

  /// One consistent read of the heads, bounded (what bounding leaves out said once), on the
  /// snapshot's screen or, where it has none, a screen of the lit heads' bounding box within
  /// the limits the backend states; kept as the last read.
  public func read(_ options: ReadOptions = ReadOptions()) throws(DisplayError) -> HeadSnapshot {
    let (bounded, warnings) = try manager.heads(options).bounded()
    report(warnings)
    lastHeads = bounded
    if lastHeads.screen == nil {
      var screen = bounded.litBounds
      (screen.maxWidth, screen.maxHeight) = (desk.maxWidth, desk.maxHeight)
      lastHeads.screen = screen
    }
    return lastHeads
  }

  /// The last read's heads as the daemon treats them while the disconnects of `held` wait
  /// for their grace: each still connected, its monitor the one the backend last read on
  /// it, showing what the server shows there now.
  public func heads(holding held: HeldHeads) -> HeadSnapshot {
    guard !held.names.isEmpty else { return lastHeads }
    var view = manager.heads(holding: held, lastRead: lastHeads).bounded().snapshot
    if view.screen == nil { view.screen = lastHeads.screen }
    return view
  }

  /// The heads the last read shows lit while the server calls them disconnected.
  public var litButDisconnected: Set<String> { manager.litButDisconnected(lastRead: lastHeads) }

  /// The heads the last read shows connected whose monitor went and came back since the
  /// read before (`OutputManager.reconnected`).
  public var reconnected: Set<String> { manager.reconnected }

  /// Tests `configuration`, planned from the last read as `heads(holding:)` gives it, then
  /// puts it in force, all or nothing: the port's answer and its report. A configuration that
  /// changes nothing the server has sends nothing.
  public func apply(_ configuration: OutputConfiguration, holding held: HeldHeads = .none) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    guard !configuration.heads.isEmpty || desk.hasPrimary else { return (.applied, ApplyReport()) }
    let tested = try manager.test(configuration, holding: held)
    guard tested == .applied else { return (tested, ApplyReport()) }
    return try manager.applyReporting(configuration, holding: held)
  }

  /// The server as the log names it when it refuses a configuration.
  public var refuser: String? { desk.server }

  /// The PNP ids the makes of `snapshot`'s heads stand for.
  public func vendors(of snapshot: HeadSnapshot) -> PNPVendors { vendors(snapshot.heads.map(\.make)) }

  /// Removes the modes displayd made that nothing the last read shows uses.
  public func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String]) {
    try manager.releaseUnusedModes()
  }

  /// What bounding left out of a snapshot, said when it changes (not at every snapshot).
  private func report(_ warnings: [String]) {
    guard warnings != lastWarnings else { return }
    lastWarnings = warnings
    for warning in warnings { warn(warning) }
  }
}
