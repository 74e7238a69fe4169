import CXrandr

extension XConnection {
  /// Asks the server for every RandR change notification on the root window: screen
  /// changes, output, CRTC and output-property changes.
  public func selectRandREvents() throws(DisplayError) {
    let mask =
      RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask
      | RROutputPropertyNotifyMask
    XRRSelectInput(display, root, Int32(mask))
    try sync()
  }

  /// Events Xlib has already read and queued, without touching the socket.
  public var queuedEvents: Int { Int(XEventsQueued(display, QueuedAlready)) }

  /// Reads what the socket has without blocking and returns how many events are queued.
  public func readAvailable() throws(DisplayError) -> Int {
    let n = Int(XEventsQueued(display, QueuedAfterReading))
    try checkAlive()
    return n
  }

  /// Takes every queued event off the queue, keeping Xlib's idea of the screen size current;
  /// returns how many were RandR events. Never blocks.
  public func drainEvents() throws(DisplayError) -> Int {
    var randr = 0
    var event = XEvent()
    while XEventsQueued(display, QueuedAlready) > 0 {
      XNextEvent(display, &event)
      let type = event.type - randrEventBase
      if type == RRScreenChangeNotify || type == RRNotify {
        XRRUpdateConfiguration(&event)
        randr += 1
      }
    }
    try checkAlive()
    return randr
  }
}
