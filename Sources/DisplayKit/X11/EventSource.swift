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
  /// reports events about our windows to `onWindow` and returns how many were RandR events.
  /// Never blocks.
  public func drainEvents(_ onWindow: (WindowEvent) -> Void = { _ in }) throws(DisplayError) -> Int {
    var randr = 0
    var event = XEvent()
    while XEventsQueued(display, QueuedAlready) > 0 {
      XNextEvent(display, &event)
      let type = event.type - randrEventBase
      if type == RRScreenChangeNotify || type == RRNotify {
        XRRUpdateConfiguration(&event)
        randr += 1
      } else if event.type == DestroyNotify {
        onWindow(.destroyed(WindowID(rawValue: UInt(event.xdestroywindow.window))))
      } else if event.type == Expose {
        let e = event.xexpose
        onWindow(
          .exposed(
            WindowID(rawValue: UInt(e.window)),
            Rect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height))))
      } else if damageEventBase >= 0, Int(event.type) == damageEventBase + Int(XDamageNotify) {
        onWindow(.damaged)
      } else if event.type == GenericEvent, Int(event.xcookie.extension) == xiOpcode {
        onWindow(.pointerMoved)
      } else if fixesEventBase >= 0, Int(event.type) == fixesEventBase + Int(XFixesCursorNotify) {
        onWindow(.cursorChanged)
      } else if event.type == ClientMessage, UInt(event.xclient.data.l.0) == atom("WM_DELETE_WINDOW") {
        onWindow(.closeRequested(WindowID(rawValue: UInt(event.xclient.window))))
      }
    }
    try checkAlive()
    return randr
  }
}
