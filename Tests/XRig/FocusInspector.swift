import CXrandr

#if canImport(Glibc)
  import Glibc
#endif

extension XInspector {
  /// The window a window manager calls active (`_NET_ACTIVE_WINDOW` on the root); nil when
  /// none is set.
  public func activeWindow() -> UInt? {
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let atom = XInternAtom(display, "_NET_ACTIVE_WINDOW", 0)
    guard XGetWindowProperty(display, root, atom, 0, 1, 0, XA_WINDOW, &type, &format, &count, &after, &data) == Success,
      let data
    else { return nil }
    defer { XFree(data) }
    guard format == 32, count == 1 else { return nil }
    return data.withMemoryRebound(to: UInt.self, capacity: 1) { $0.pointee }
  }

  /// The window holding the keyboard focus (`XGetInputFocus`).
  public func inputFocus() -> UInt {
    var focus: Window = 0
    var revert: Int32 = 0
    XGetInputFocus(display, &focus, &revert)
    return UInt(focus)
  }
}
