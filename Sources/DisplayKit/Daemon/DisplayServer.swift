import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport

/// Everything the daemon asks of a display server but its surfaces (the `SurfaceHost` port
/// has those), and nothing more: the X connection implements it (`XConnection`), and so does
/// the tests' `FakeDisplayServer`, which has no I/O and lets the daemon's logic (settling,
/// retries, resync, mirror source loss) be tested in milliseconds, beside the tests against
/// real servers.
public protocol DisplayServer: AnyObject {
  /// The display's name, for logs and status.
  var name: String { get }

  /// Whether the server has the extension `name` (`XWAYLAND` tells of a compositor).
  func hasExtension(_ name: String) -> Bool

  // The event loop.
  /// A descriptor that becomes readable when events arrive, for `poll()`.
  var fileDescriptor: FileDescriptor { get }
  /// Events read and queued, not yet drained.
  var queuedEvents: Int { get }
  /// Reads what has arrived without blocking; returns how many events are queued.
  func readAvailable() throws(DisplayError) -> Int
  /// Sends what is buffered.
  func flush()
  /// Whether the last flush found the socket full and left requests unsent: the loop then
  /// polls `fileDescriptor` for POLLOUT too, and flushes again when it is writable.
  var hasUnsent: Bool { get }
  /// Waits until the server has handled everything sent.
  func sync() throws(DisplayError)
  /// Asks for the topology's change events.
  func selectRandREvents() throws(DisplayError)
  /// Takes every queued event (those about surfaces go to the surface host sharing the
  /// connection); reports an input device added and returns how many may have changed the
  /// topology.
  func drainEvents(_ onInputDevice: () -> Void) throws(DisplayError) -> Int

  /// Whether DPMS has blanked the screen (standby, suspend or off); false on a server
  /// without the DPMS extension, or with DPMS disabled.
  func screenBlanked() -> Bool

  // Topology.
  /// One consistent snapshot.
  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology
  /// Applies a plan made from `topology`, all or nothing.
  func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome
  /// Removes modes displayd made from the outputs listing them and destroys them; what the
  /// server refused.
  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String]

  // Resources.
  /// Edits the root window's `RESOURCE_MANAGER` atomically (the server grabbed): `edit` gets
  /// the database (empty when unset) and returns the new one (empty: deleted), or nil to
  /// leave it. False, and nothing written, when the property is not a readable string.
  @discardableResult
  func editResources(_ edit: ([UInt8]) -> [UInt8]?) throws(DisplayError) -> Bool
  /// The client owning the screen's XSETTINGS selection, nil when none does.
  func xsettingsOwner() -> XSettingsOwner?

  // Output properties and touch devices (defaults in DaemonExtras.swift: a server without).
  /// The output's properties named in `names` (nil: all), as the server describes them.
  func outputProperties(_ output: OutputID, names: Set<String>?) -> [String: OutputProperty]
  func setOutputProperty(_ output: OutputID, _ write: PropertyWrite) throws(DisplayError)
  /// Asks for (or stops) XInput hierarchy events; false without XInput 2.
  func selectInputHierarchy(_ on: Bool) -> Bool
  /// Pointer devices that have a `Coordinate Transformation Matrix`.
  func inputDevices() -> [InputDevice]
  func setTransformMatrix(device: Int, _ matrix: [Double]) throws(DisplayError)
}

extension DisplayServer {
  /// A server whose `flush` sends everything or blocks (Xlib's `XFlush` waits for room).
  public var hasUnsent: Bool { false }

  /// A server without extensions, for stand-ins.
  public func hasExtension(_ name: String) -> Bool { false }

  /// One consistent snapshot, without probing connectors.
  public func snapshot() throws(DisplayError) -> Topology { try snapshot(ReadOptions()) }
}
