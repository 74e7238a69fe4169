import CXrandr

/// The screen resources (for their config timestamp) during one apply: read once, read again
/// only when the server says the timestamp is stale; freed on deinit.
final class ScreenResources {
  private let connection: XConnection
  private(set) var pointer: UnsafeMutablePointer<XRRScreenResources>?

  init(_ connection: XConnection) {
    self.connection = connection
    pointer = XRRGetScreenResourcesCurrent(connection.display, connection.root)
  }

  func refresh() {
    if let pointer { XRRFreeScreenResources(pointer) }
    pointer = XRRGetScreenResourcesCurrent(connection.display, connection.root)
  }

  deinit { if let pointer { XRRFreeScreenResources(pointer) } }
}
