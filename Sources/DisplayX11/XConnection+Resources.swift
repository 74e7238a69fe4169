import CXrandr
import DisplayModel
import DisplayPorts

#if canImport(Glibc)
  import Glibc
#endif

extension XConnection {
  /// Databases larger than this are left alone: no desktop writes one.
  static let maxResourceBytes = 16 << 20

  /// Edits the root window's `RESOURCE_MANAGER` with the server grabbed, so no other
  /// client's write (an `xrdb -merge`) falls between the read and the write. `edit` gets the
  /// database (empty when unset) and returns the new one (empty: the property is deleted), or
  /// nil to leave it as it is. False, and nothing written, when the property is not an
  /// 8-bit string of at most 16 MB; throws the first X error the write caused.
  @discardableResult
  public func editResources(_ edit: ([UInt8]) -> [UInt8]?) throws(DisplayError) -> Bool {
    try checkAlive()
    let serial = nextRequest
    XGrabServer(display)
    let current = readResources()
    let new = current.flatMap(edit)
    if let new, new != current {
      let property = Atom(XA_RESOURCE_MANAGER)
      if new.isEmpty {
        XDeleteProperty(display, root, property)
      } else {
        XChangeProperty(
          display, root, property, Atom(XA_STRING), 8, PropModeReplace, new, Int32(clamping: new.count))
      }
    }
    XUngrabServer(display)
    if let first = try syncErrors(since: serial).first { throw .request(first.failure) }
    return current != nil
  }

  /// The database as bytes (empty when unset); nil when it is not an 8-bit string or too big.
  private func readResources() -> [UInt8]? {
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let longs = Self.maxResourceBytes / 4
    let status = XGetWindowProperty(
      display, root, Atom(XA_RESOURCE_MANAGER), 0, longs, 0, Atom(AnyPropertyType), &type, &format, &count, &after,
      &data)
    defer { if let data { XFree(data) } }
    guard status == Success else { return nil }
    guard type != 0 else { return [] }
    guard format == 8, after == 0, let data, let n = Int(exactly: count) else { return nil }
    return Array(UnsafeBufferPointer(start: data, count: n))
  }

  /// The owner of `_XSETTINGS_S<screen>`, nil when no client owns it.
  public func xsettingsOwner() -> XSettingsOwner? {
    let selection = atom("_XSETTINGS_S\(screenNumber)")
    let owner = XGetSelectionOwner(display, selection)
    guard owner != 0 else { return nil }
    _ = takeErrors()
    var hint = XClassHint()
    var wmClass: String?
    if XGetClassHint(display, owner, &hint) != 0 {
      let text = { (p: UnsafeMutablePointer<CChar>?) in p.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
      }
      wmClass = text(hint.res_class) ?? text(hint.res_name)
      if let p = hint.res_name { XFree(p) }
      if let p = hint.res_class { XFree(p) }
    }
    let pid = windowProperty(owner, "_NET_WM_PID", type: Atom(XA_CARDINAL)).flatMap { Int(exactly: $0) }.flatMap {
      $0 > 0 ? $0 : nil
    }
    // The window may be gone already: its BadWindow is no one else's error.
    XSync(display, 0)
    _ = takeErrors()
    return XSettingsOwner(window: UInt(owner), wmClass: wmClass, pid: pid)
  }
}
