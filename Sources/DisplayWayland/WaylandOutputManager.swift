import CWayland
import DisplayModel
import DisplayPorts
import DisplaySupport

/// The output-management port on a wlroots compositor (sway, labwc, river, Hyprland, niri):
/// heads from `zwlr_output_manager_v1`, configurations created from the last `done`'s serial,
/// tested, then applied. Event-driven: poll `fileDescriptor`, then `dispatch()`; nothing runs
/// while the compositor says nothing.
public final class WaylandOutputManager: OutputManager {
  public let backendName = "wayland"
  let connection: WaylandConnection
  let outputHeads: OutputHeads
  /// How long a configuration's answer may take.
  var answerSeconds = 10.0

  /// Connects to `socket` (default `$WAYLAND_DISPLAY`) and reads every head; throws when
  /// the compositor lacks `zwlr_output_manager_v1`.
  public convenience init(socket: String? = nil) throws(DisplayError) {
    try self.init(connection: WaylandConnection(socket: socket))
  }

  /// The output manager on the connection `surfaces` already hold: one socket to poll and one
  /// dispatch for both (the daemon's case).
  public convenience init(sharing surfaces: WaylandSurfaces) throws(DisplayError) {
    try self.init(connection: surfaces.connection)
  }

  init(connection: WaylandConnection) throws(DisplayError) {
    guard let global = connection.global("zwlr_output_manager_v1"),
      let manager = connection.bind(global, cw_output_manager_interface())
    else {
      throw .compositor(display: connection.socketName, problem: connection.withoutOutputManager)
    }
    self.connection = connection
    outputHeads = OutputHeads(manager: manager, on: connection)
    let heads = outputHeads
    guard try connection.wait(seconds: answerSeconds, until: { heads.serial != nil }) else {
      throw .compositor(display: connection.socketName, problem: "no output-manager done within \(answerSeconds) s")
    }
  }

  /// Whether `socket` (default `$WAYLAND_DISPLAY`) is a compositor with wlr-output-management.
  public static func isAvailable(socket: String? = nil) -> Bool {
    guard let connection = try? WaylandConnection(socket: socket) else { return false }
    return connection.global("zwlr_output_manager_v1") != nil
  }

  /// Why `socket` (default `$WAYLAND_DISPLAY`) cannot be this backend: the compositor cannot
  /// be reached, or it offers no `zwlr_output_manager_v1`; nil when it can.
  public static func unusable(socket: String? = nil) -> String? {
    let connection: WaylandConnection
    do {
      connection = try WaylandConnection(socket: socket)
    } catch {
      guard case .compositor(_, let problem) = error else { return error.description }
      return problem
    }
    return connection.global("zwlr_output_manager_v1") == nil ? connection.withoutOutputManager : nil
  }

  /// `wayland-1 (sway)`.
  public var serverName: String {
    connection.compositor.isEmpty ? connection.socketName : "\(connection.socketName) (\(connection.compositor))"
  }

  /// The socket's name as connected (`wayland-1`, or the path given).
  public var socketName: String { connection.socketName }

  /// The compositor's process name (`sway`); empty when unknown.
  public var compositorName: String { connection.compositor }

  /// The version of `zwlr_output_manager_v1` bound (min of the compositor's and the XML's).
  public var protocolVersion: Int { Int(cw_proxy_get_version(UnsafeMutableRawPointer(outputHeads.manager))) }

  /// The socket to poll for input.
  public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: connection.fileDescriptor) }

  /// Called after every `done` the compositor sends (a head plugged, unplugged, changed).
  public var changed: (() -> Void)? {
    get { outputHeads.changed }
    set { outputHeads.changed = newValue }
  }

  /// Handles what the socket holds now, without blocking (call when poll says readable).
  public func dispatch() throws(DisplayError) {
    try connection.dispatchReady()
    if outputHeads.finished {
      throw .compositor(display: connection.socketName, problem: "the output manager finished")
    }
  }

  /// Sends what is queued, without waiting; a lost connection is an error.
  public func flush() throws(DisplayError) { try connection.flush() }

  /// Whether the last flush found the socket full (EAGAIN): poll `fileDescriptor` for
  /// POLLOUT, then `dispatch()` or `flush()` again.
  public var hasUnsent: Bool { connection.hasUnsent }

  /// Sends what is queued and waits until the compositor has handled it.
  public func roundtrip() throws(DisplayError) { try connection.roundtrip() }

  /// Live Wayland objects held for the heads (manager, heads, modes): for leak checks.
  public var objectCount: Int { outputHeads.objectCount }

  /// The current heads. `probe` has no meaning on Wayland (the compositor probes itself):
  /// it makes a roundtrip so that everything sent before is in.
  public func heads(probe: Bool) throws(DisplayError) -> HeadSnapshot {
    if probe { try connection.roundtrip() } else { try connection.dispatchReady() }
    return outputHeads.committed
  }

  public func test(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    try run(configuration, test: true)
  }

  /// Applies; after `failed` (a compositor older than sway 1.10 may have applied some heads),
  /// reads the state back and restores the snapshot when it differs.
  public func apply(_ configuration: OutputConfiguration) throws(DisplayError) -> ApplyResult {
    try Rollback.apply(configuration, on: self)
  }
}

extension WaylandOutputManager: ConfigurationChannel {
  func current() throws(DisplayError) -> HeadSnapshot {
    try connection.roundtrip()
    return outputHeads.committed
  }

  func known() throws(DisplayError) -> HeadSnapshot {
    try connection.dispatchReady()
    return outputHeads.committed
  }

  func send(_ configuration: OutputConfiguration, test: Bool) throws(DisplayError) -> ApplyResult {
    try run(configuration, test: test)
  }
}

extension HeadConfiguration {
  /// What keeps `head` as it is.
  init(current head: Head) {
    let mode = head.mode.map {
      HeadModeRequest.listed(width: $0.width, height: $0.height, refreshMilliHz: $0.refreshMilliHz)
    }
    self.init(
      name: head.name, enabled: head.enabled, mode: head.enabled ? mode : nil, x: head.enabled ? head.x : 0,
      y: head.enabled ? head.y : 0, transform: head.enabled ? head.transform : .normal,
      scale: head.enabled ? head.scale : 1)
  }
}
