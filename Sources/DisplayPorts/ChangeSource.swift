import DisplayModel
import DisplaySupport

/// Where a display server's events come from: the descriptor the service's `poll()` waits
/// on, the events read from it, and how many of them may have changed the layout. Every
/// backend has one (X: the connection's RandR, XInput and window events; Wayland: the
/// output manager's `done` on the socket shared with the surfaces); the daemon's loop and
/// `displayd watch` need nothing else of it. The layout itself is the `OutputManager`'s.
public protocol ChangeSource: AnyObject {
  /// A descriptor that becomes readable when events arrive, for `poll()`.
  var fileDescriptor: FileDescriptor { get }
  /// Events read and queued, not yet taken.
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
  /// Asks the server for the events that tell of a layout change (a server that sends them
  /// unasked does nothing).
  func selectChangeEvents() throws(DisplayError)
  /// Takes every queued event (those about surfaces go to the surface host sharing the
  /// connection); reports an input device added and returns how many may have changed the
  /// layout.
  func takeChanges(onInputDevice: () -> Void) throws(DisplayError) -> Int
}

extension ChangeSource {
  /// A server whose `flush` sends everything or blocks (Xlib's `XFlush` waits for room).
  public var hasUnsent: Bool { false }
}
