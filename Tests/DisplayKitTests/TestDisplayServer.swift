import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplayService
import DisplaySupport
import DisplayX11

/// A display server as the tests hold one: its events and its layout over the
/// output-management port, on one object (the fakes, a compositor, an X connection).
protocol TestDisplayServer: ChangeSource {
  var layout: OutputManagerLayout { get }
}

extension WaylandDisplayServer: TestDisplayServer {}

extension Daemon {
  /// The daemon on a test's server: its events and its layout.
  convenience init(
    server: any TestDisplayServer, surfaces: (any SurfaceHost)?, painter: (any PicturePainter)? = nil,
    facilities: DisplayFacilities = DisplayFacilities(), config: Config, log: Logger,
    clock: any MonotonicClock = SystemClock()
  ) throws(DisplayError) {
    try self.init(
      changeSource: server, layoutServer: server.layout, surfaces: surfaces, painter: painter, facilities: facilities,
      config: config, log: log, clock: clock)
  }
}

extension HeadWatcher {
  /// The watch loop over a test's server.
  convenience init(server: any TestDisplayServer, probe: Bool = false) throws(DisplayError) {
    try self.init(source: server, layout: server.layout, probe: probe)
  }

  /// The watch loop over an X connection, its layout through the RandR output manager.
  convenience init(server: XConnection, probe: Bool = false) throws(DisplayError) {
    try self.init(source: server, layout: OutputManagerLayout(server), probe: probe)
  }
}

/// An output manager that tells the test of each configuration the daemon's layout asks
/// about and of its answer, and passes everything to the one it wraps.
final class ObservedOutputManager: OutputManager {
  let inner: any OutputManager
  /// Called with each configuration the layout asks about, before its test.
  var asked: [(OutputConfiguration) -> Void] = []
  /// Called with each configuration's answer: the test's when it was not accepted, else the
  /// apply's.
  var answered: [(OutputConfiguration, ApplyResult) -> Void] = []

  init(_ inner: any OutputManager) { self.inner = inner }

  var backendName: String { inner.backendName }
  var serverName: String { inner.serverName }
  func heads(probe: Bool) throws(DisplayError) -> HeadSnapshot { try inner.heads(probe: probe) }
  func heads(_ options: ReadOptions) throws(DisplayError) -> HeadSnapshot { try inner.heads(options) }
  func test(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult { try inner.test(configuration) }
  func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    try inner.apply(configuration)
  }
  func applyReporting(_ configuration: OutputConfiguration) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    try inner.applyReporting(configuration)
  }
  func heads(holding held: HeldHeads, lastRead: HeadSnapshot) -> HeadSnapshot {
    inner.heads(holding: held, lastRead: lastRead)
  }
  func test(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> ApplyResult {
    for tell in asked { tell(configuration) }
    let result = try inner.test(configuration, holding: held)
    if result != .applied { for tell in answered { tell(configuration, result) } }
    return result
  }
  func applyReporting(_ configuration: OutputConfiguration, holding held: HeldHeads) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    let answer = try inner.applyReporting(configuration, holding: held)
    for tell in answered { tell(configuration, answer.result) }
    return answer
  }
  func litButDisconnected(lastRead: HeadSnapshot) -> Set<String> { inner.litButDisconnected(lastRead: lastRead) }
  var reconnected: Set<String> { inner.reconnected }
  func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String]) {
    try inner.releaseUnusedModes()
  }
}

extension OutputManagerLayout {
  /// The observer this layout's manager is, where it is one.
  var observed: ObservedOutputManager? { manager as? ObservedOutputManager }
}

extension TestDisplayServer {
  /// The layout's read, as the daemon makes it.
  func read(_ options: ReadOptions = ReadOptions()) throws(DisplayError) -> HeadSnapshot { try layout.read(options) }
  func heads(holding held: HeldHeads) -> HeadSnapshot { layout.heads(holding: held) }
  var litButDisconnected: Set<String> { layout.litButDisconnected }
  func releaseUnusedModes() throws(DisplayError) -> (released: [String], problems: [String]) {
    try layout.releaseUnusedModes()
  }
  func apply(_ configuration: OutputConfiguration, holding held: HeldHeads = .none) throws(DisplayError) -> (
    result: ApplyResult, report: ApplyReport
  ) {
    try layout.apply(configuration, holding: held)
  }
}
