import DisplayModel
import DisplayPorts
import DisplayRender
import DisplaySupport

/// Everything the daemon asks of a display server but its surfaces (the `SurfaceHost` port
/// has those) and its desk facilities (`DisplayFacilities`: resources, output properties,
/// pointer devices, power, which a server may lack), and nothing more: the event loop and the
/// topology. The X connection implements it (`XConnection`), so does the Wayland backend
/// (`WaylandDisplayServer`), and so does the tests' `FakeDisplayServer`, which has no I/O and
/// lets the daemon's logic (settling, retries, resync, mirror source loss) be tested in
/// milliseconds, beside the tests against real servers.
public protocol DisplayServer: AnyObject {
  /// The display's name, for logs and status.
  var name: String { get }

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

  // Topology.
  /// One consistent snapshot.
  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology
  /// Applies a plan made from `topology`, all or nothing.
  func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome
  /// Removes modes displayd made from the outputs listing them and destroys them; what the
  /// server refused.
  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String]
}

extension DisplayServer {
  /// A server whose `flush` sends everything or blocks (Xlib's `XFlush` waits for room).
  public var hasUnsent: Bool { false }

  /// One consistent snapshot, without probing connectors.
  public func snapshot() throws(DisplayError) -> Topology { try snapshot(ReadOptions()) }
}
