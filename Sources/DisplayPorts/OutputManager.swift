import DisplayModel

/// The output-management port, the one layout seam every backend implements: heads read
/// in one consistent snapshot, and configurations that are tested, then applied, all or
/// nothing. RandR and wlr-output-management both implement it; what is one server's
/// business (CRTCs, screen size and its limits, 16.16 matrices, the server grab, timestamps,
/// rollback and its read-back, modes a client makes; serials and head-by-head compositors)
/// stays behind it. The daemon holds a disconnect for its grace (`HeldHeads`): a backend
/// whose heads keep their monitor when it goes (a compositor) needs nothing for that; one
/// whose heads forget it (RandR lists a disconnected output with no EDID and no modes)
/// keeps its last read and answers the held view from it. The defaults are a compositor's.
public protocol OutputManager: AnyObject {
  /// The backend's name for logs and status (`x11`, `wayland`).
  var backendName: String { get }
  /// The display or compositor it talks to (`:0`, `wayland-1 (sway)`).
  var serverName: String { get }
  /// One consistent snapshot; `probe` asks the server to look at connectors again (slow).
  /// A backend that answers held views keeps it as its last read.
  func heads(probe: Bool) throws(DisplayError) -> HeadSnapshot
  /// `heads(probe:)` with what else a read may leave out (RandR: the EDID properties, which
  /// a query of modes needs not).
  func heads(_ options: ReadOptions) throws(DisplayError) -> HeadSnapshot
  /// Whether the server would accept `configuration`, changing nothing.
  func test(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult
  /// Puts `configuration` in force, all or nothing.
  func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult
  /// As `apply`, with its report: each head's mode as the server took it (after fallbacks)
  /// and its place, the heads already as asked, and, when it failed part way and put
  /// everything back, the heads that failed and why and the other problems. A backend that
  /// puts in force exactly what it is asked, all at once, need not implement it.
  func applyReporting(_ configuration: OutputConfiguration) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  )

  /// `lastRead` (the last `heads(probe:)`) as the daemon treats it while `held`'s
  /// disconnects wait for their grace: each held head still connected, showing the monitor
  /// last read on it and what the server shows there now.
  func heads(holding held: HeldHeads, lastRead: HeadSnapshot) -> HeadSnapshot
  /// `test`, planned from the held view of the last read.
  func test(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> ApplyResult
  /// `applyReporting`, planned from the held view of the last read, with no read of its own.
  func applyReporting(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  )
  /// The heads `lastRead` shows lit while the server calls them disconnected: a monitor
  /// just unplugged (its CRTC still set), or one another client lit that the server has not
  /// probed yet (the dummy driver notices a connection only when asked to re-probe).
  func litButDisconnected(lastRead: HeadSnapshot) -> Set<String>
  /// The heads the last read shows connected whose monitor the server's events said went and
  /// came back, as two changes, since the read before: as the server set it on its return.
  /// None where a monitor back is a new head anyway (wlroots).
  var reconnected: Set<String> { get }
  /// Removes the modes displayd made that nothing the last read shows uses and destroys
  /// them: their names, and what the server refused. None where the server lists no modes a
  /// client makes (on wlroots a custom mode is part of the configuration that asks for it).
  func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String])
}

extension OutputManager {
  /// `apply`, reporting every head as the configuration asks it.
  public func applyReporting(_ configuration: OutputConfiguration) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    let result = try apply(configuration)
    return (result, result == .applied ? ApplyReport(asked: configuration) : ApplyReport())
  }

  /// A compositor reads every head's identity with its modes.
  public func heads(_ options: ReadOptions) throws(DisplayError) -> HeadSnapshot { try heads(probe: options.probe) }

  /// A compositor's heads keep their monitor: each held one only still connected.
  public func heads(holding held: HeldHeads, lastRead: HeadSnapshot) -> HeadSnapshot { lastRead.holding(held) }

  /// A configuration names heads, which a compositor keeps: nothing held changes it.
  public func test(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> ApplyResult {
    try test(configuration)
  }

  public func applyReporting(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    try applyReporting(configuration)
  }

  /// Lit heads that are not connected (none on wlroots, which lists only attached heads).
  public func litButDisconnected(lastRead: HeadSnapshot) -> Set<String> {
    Set(lastRead.heads.filter { !$0.connected && $0.rect != nil }.map(\.name))
  }

  public var reconnected: Set<String> { [] }

  public func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String]) { ([], []) }
}
