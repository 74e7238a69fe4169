import CXrandr
import DisplayModel

extension XConnection {
  /// Asks the server for every RandR change notification on the root window: screen
  /// changes, output, CRTC and output-property changes.
  public func selectChangeEvents() throws(DisplayError) {
    let mask =
      RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask
      | RROutputPropertyNotifyMask
    XRRSelectInput(display, root, Int32(mask))
    // libXrandr set up its own converters with its first call, just made: this one wraps them.
    OutputChangeTimes.watch(display, event: randrEventBase + RRNotify)
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
  /// hands events about the surfaces' windows (and the root's damage, pointer and cursor)
  /// to the `XSurfaces` made on this connection, reports an added input device to
  /// `onInputDevice` and returns how many RandR events may have changed the topology. Never
  /// blocks.
  ///
  /// Every field of an event is hostile data (any client may `XSendEvent` to our windows):
  /// it is read with bit patterns, never with trapping conversions, and an event another
  /// client sent (`send_event`) is believed only where that is the protocol: ClientMessages.
  /// A faked DestroyNotify would make the daemon stack a new window on its live one; a faked
  /// screen change would feed Xlib a screen size.
  public func takeChanges(onInputDevice: () -> Void = {}) throws(DisplayError) -> Int {
    var randr = 0
    var event = XEvent()
    while XEventsQueued(display, QueuedAlready) > 0 {
      XNextEvent(display, &event)
      if event.xany.send_event != 0 && event.type != ClientMessage { continue }
      if event.type - randrEventBase == RRScreenChangeNotify {
        XRRUpdateConfiguration(&event)
        randr += 1
      } else if event.type - randrEventBase == RRNotify {
        randr += randrNotify(&event)
      } else if event.type == GenericEvent, Int(event.xcookie.extension) == xiOpcode,
        event.xcookie.evtype == XI_HierarchyChanged
      {
        if isDeviceAdded(&event) { onInputDevice() }
      } else if let windowEvent = windowEvent(event) {
        surfaceSink?.receive(windowEvent)
      }
    }
    try checkAlive()
    return randr
  }

  /// The outputs the server's events said went and came back since the last call.
  public func takeReconnectsSeen() -> Set<OutputID> {
    Set(OutputChangeTimes.takeReconnected(display).map { OutputID(rawValue: $0) })
  }

  /// 1 for a RandR notify event that can change the topology: output and CRTC changes, and
  /// changes of the properties a snapshot reads (`EDID`, `non-desktop`). A backlight slider
  /// changes a property many times a second; those cost nothing.
  private func randrNotify(_ event: inout XEvent) -> Int {
    if cx_rr_subtype(&event) == RRNotify_OutputProperty {
      let property = cx_rr_output_property_atom(&event)
      return property == atom("EDID") || property == atom("non-desktop") ? 1 : 0
    }
    XRRUpdateConfiguration(&event)
    return 1
  }

  private func windowEvent(_ event: XEvent) -> WindowEvent? {
    if event.type == DestroyNotify {
      return .destroyed(WindowID(rawValue: UInt(event.xdestroywindow.window)))
    } else if event.type == Expose {
      let e = event.xexpose
      return .exposed(
        WindowID(rawValue: UInt(e.window)),
        Rect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height)))
    } else if damageEventBase >= 0, Int(event.type) == damageEventBase + Int(XDamageNotify) {
      return .damaged
    } else if event.type == GenericEvent, Int(event.xcookie.extension) == xiOpcode {
      return .pointerMoved
    } else if fixesEventBase >= 0, Int(event.type) == fixesEventBase + Int(XFixesCursorNotify) {
      return .cursorChanged
    } else if event.type == ClientMessage, event.xclient.format == 32,
      event.xclient.message_type == atom("WM_PROTOCOLS"),
      UInt(bitPattern: event.xclient.data.l.0) == atom("WM_DELETE_WINDOW")
    {
      return .closeRequested(WindowID(rawValue: UInt(event.xclient.window)))
    }
    return nil
  }
}
