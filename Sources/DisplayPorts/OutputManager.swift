import DisplayModel

/// The output-management port: heads, their changes, and configurations that are tested,
/// then applied, all or nothing. RandR and wlr-output-management both implement it; what is
/// one server's business (CRTCs, screen size, 16.16 matrices, the server grab; serials and
/// head-by-head compositors) stays behind it.
public protocol OutputManager: AnyObject {
  /// The backend's name for logs and status (`x11`, `wayland`).
  var backendName: String { get }
  /// The display or compositor it talks to (`:0`, `wayland-1 (sway)`).
  var serverName: String { get }
  /// One consistent snapshot; `probe` asks the server to look at connectors again (slow).
  func heads(probe: Bool) throws(DisplayError) -> HeadSnapshot
  /// Whether the server would accept `configuration`, changing nothing.
  func test(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult
  /// Puts `configuration` in force, all or nothing.
  func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult
  /// As `apply`, with its report: each head's mode as the server took it (after fallbacks)
  /// and its place, the heads already as asked, and, when it failed part way and put
  /// everything back, the heads that failed and why and the other problems. The daemon's
  /// account of an apply is read from the two (`OutputManagerLayout.outcome`). A backend that
  /// puts in force exactly what it is asked, all at once, need not implement it.
  func applyReporting(_ configuration: OutputConfiguration) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  )
}

extension OutputManager {
  /// `apply`, reporting every head as the configuration asks it.
  public func applyReporting(_ configuration: OutputConfiguration) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    let result = try apply(configuration)
    return (result, result == .applied ? ApplyReport(asked: configuration) : ApplyReport())
  }
}
