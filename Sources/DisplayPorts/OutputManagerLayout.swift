import DisplayModel

/// The daemon's layout over any output manager: heads read (`HeadSnapshot.bounded`),
/// configurations tested, then applied. What a display server says of its desk beyond the
/// heads (its screen's limits, whether it has a primary, how the log names it) is its
/// `Desk`. The backend's event loop stays with it: this adds no roundtrip of its own, one
/// `heads` a read and one `test` and one `apply` a configuration.
public final class OutputManagerLayout {
  /// What a backend states of its desk beyond the heads.
  public struct Desk: Sendable {
    /// How the log names the server: "the compositor" ("the compositor refused the
    /// configuration: …").
    public var server: String
    /// The largest screen the planner keeps within.
    public var maxWidth: Int
    public var maxHeight: Int
    /// Whether the server has a primary head (RandR's): without one, a plan that changes no
    /// head sends nothing (its primary and screen size have no meaning there).
    public var hasPrimary: Bool

    public init(server: String, maxWidth: Int, maxHeight: Int, hasPrimary: Bool = false) {
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

  public init(
    _ manager: any OutputManager, desk: Desk, vendors: @escaping (_ makes: [String]) -> PNPVendors = { _ in .none },
    warn: @escaping (String) -> Void = { _ in }
  ) {
    self.manager = manager
    self.desk = desk
    self.vendors = vendors
    self.warn = warn
  }

  /// The heads, bounded (what bounding leaves out said once), on a
  /// screen of the lit heads' bounding box within the limits the backend states; kept as
  /// the last read.
  public func read(_ options: ReadOptions) throws(DisplayError) -> HeadSnapshot {
    let (bounded, warnings) = try manager.heads(probe: options.probe).bounded()
    report(warnings)
    lastHeads = bounded
    var screen = bounded.litBounds
    (screen.maxWidth, screen.maxHeight) = (desk.maxWidth, desk.maxHeight)
    lastHeads.screen = screen
    return lastHeads
  }

  /// The last read with the held heads still connected: a compositor's head keeps what its
  /// monitor said (wlroots withdraws a head whose monitor went, which then stays gone).
  public func heads(holding held: HeldHeads) -> HeadSnapshot { lastHeads.holding(held) }

  /// Lit heads of the last read that are not connected (none on wlroots, which lists only
  /// attached heads).
  public var litButDisconnected: Set<String> {
    Set(lastHeads.heads.filter { !$0.connected && $0.rect != nil }.map(\.name))
  }

  /// Tests `configuration`, then applies it; an empty one sends nothing.
  public func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    guard !configuration.heads.isEmpty || (desk.hasPrimary && configuration.primary != nil) else {
      return (.applied, ApplyReport())
    }
    let tested = try manager.test(configuration)
    guard tested == .applied else { return (tested, ApplyReport()) }
    return try manager.applyReporting(configuration)
  }

  /// The server as the log names it when it refuses a configuration.
  public var refuser: String? { desk.server }

  /// The PNP ids the makes of `snapshot`'s heads stand for.
  public func vendors(of snapshot: HeadSnapshot) -> PNPVendors { vendors(snapshot.heads.map(\.make)) }

  /// What bounding left out of a snapshot, said when it changes (not at every snapshot).
  private func report(_ warnings: [String]) {
    guard warnings != lastWarnings else { return }
    lastWarnings = warnings
    for warning in warnings { warn(warning) }
  }

  /// The port lists no modes the daemon made and must remove (on wlroots a custom mode is
  /// part of the configuration that asks for it): answered as a server without them.
  public func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String]) { ([], []) }
}
