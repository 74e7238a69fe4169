import CXRes
import CXrandr
import Foundation

/// Reads what is on an X server, straight through Xlib (not through DisplayKit): windows and
/// their properties, pixels, and a client's server resources.
public final class XInspector {
  public let display: OpaquePointer
  public let root: Window

  public struct TopWindow: Equatable {
    public var id: UInt
    public var output: String?
    public var rect: Rect
    public var mapped: Bool
    public var overrideRedirect: Bool
  }

  public struct Rect: Equatable, CustomStringConvertible {
    public var x, y, width, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
      self.x = x
      self.y = y
      self.width = width
      self.height = height
    }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
  }

  public init(_ name: String) throws {
    guard let d = XOpenDisplay(name) else { throw RigError("cannot open \(name)") }
    // A test whose server went away must fail, not take the whole test process with it.
    XSetIOErrorHandler { _ in 0 }
    XSetIOErrorExitHandler(d, { _, _ in }, nil)
    XSetErrorHandler { _, _ in 0 }
    display = d
    root = XDefaultRootWindow(d)
  }

  deinit { XCloseDisplay(display) }

  /// Top-level windows carrying `_DISPLAYD_OUTPUT`.
  public func displaydWindows() -> [TopWindow] { topWindows(carrying: "_DISPLAYD_OUTPUT") }

  /// Top-level windows carrying the string property `name`, with its value in `output`.
  func topWindows(carrying name: String) -> [TopWindow] {
    var rootReturn: Window = 0
    var parent: Window = 0
    var children: UnsafeMutablePointer<Window>?
    var count: UInt32 = 0
    guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else { return [] }
    defer { XFree(children) }
    return (0..<Int(count)).compactMap { i in
      let w = children[i]
      guard let output = stringProperty(w, name) else { return nil }
      var a = XWindowAttributes()
      guard XGetWindowAttributes(display, w, &a) != 0 else { return nil }
      return TopWindow(
        id: UInt(w), output: output, rect: Rect(x: Int(a.x), y: Int(a.y), width: Int(a.width), height: Int(a.height)),
        mapped: a.map_state == IsViewable, overrideRedirect: a.override_redirect != 0)
    }
  }

  public func stringProperty(_ window: Window, _ name: String) -> String? {
    bytesProperty(window, name).map { String(decoding: $0, as: UTF8.self) }
  }

  public func bytesProperty(_ window: Window, _ name: String) -> [UInt8]? {
    let atom = XInternAtom(display, name, 1)
    guard atom != 0 else { return nil }
    var type: Atom = 0
    var format: Int32 = 0
    var n: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    guard
      XGetWindowProperty(display, window, atom, 0, 1024, 0, Atom(AnyPropertyType), &type, &format, &n, &after, &data)
        == Success,
      type != 0, let data
    else { return nil }
    defer { XFree(data) }
    let size = format == 32 ? MemoryLayout<CLong>.size : Int(format) / 8
    return Array(UnsafeBufferPointer(start: data, count: Int(n) * size))
  }

  /// `(res_name, res_class)` of WM_CLASS.
  public func wmClass(_ window: UInt) -> [String] {
    (bytesProperty(Window(window), "WM_CLASS") ?? []).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The `input` field of WM_HINTS, nil when the hint is absent.
  public func acceptsInput(_ window: UInt) -> Bool? {
    guard let hints = XGetWMHints(display, Window(window)) else { return nil }
    defer { XFree(hints) }
    return hints.pointee.flags & InputHint != 0 ? hints.pointee.input != 0 : nil
  }

  /// The colour on screen at a root-window point, `0xRRGGBB`.
  public func pixel(x: Int, y: Int) -> UInt32? {
    guard let image = XGetImage(display, root, Int32(x), Int32(y), 1, 1, UInt(bitPattern: -1), ZPixmap) else {
      return nil
    }
    defer { _ = image.pointee.f.destroy_image(image) }
    return UInt32(image.pointee.f.get_pixel(image, 0, 0) & 0xFFFFFF)
  }

  /// The colours along a horizontal line of the screen.
  public func row(y: Int, from x0: Int, to x1: Int) -> [UInt32] {
    guard let image = XGetImage(display, root, Int32(x0), Int32(y), UInt32(x1 - x0), 1, UInt(bitPattern: -1), ZPixmap)
    else { return [] }
    defer { _ = image.pointee.f.destroy_image(image) }
    return (0..<(x1 - x0)).map { UInt32(image.pointee.f.get_pixel(image, Int32($0), 0) & 0xFFFFFF) }
  }

  /// Server resources held by the client of process `pid`, by type name (WINDOW, PIXMAP, ...):
  /// every type the server counts. Throws when the server cannot tell, or no client of that
  /// process is connected, so that an empty answer never passes for "nothing held".
  public func resources(ofPid pid: pid_t) throws -> [String: Int] {
    var spec = XResClientIdSpec(client: 0, mask: UInt32(XRES_CLIENT_ID_PID_MASK.rawValue))
    var count: Int = 0
    var ids: UnsafeMutablePointer<XResClientIdValue>?
    guard XResQueryClientIds(display, 1, &spec, &count, &ids) == Success, let ids else {
      throw RigError("X-Resource: cannot list the clients")
    }
    defer { XResClientIdsDestroy(count, ids) }
    for i in 0..<count where XResGetClientPid(&ids[i]) == pid {
      var n: Int32 = 0
      var types: UnsafeMutablePointer<XResType>?
      guard XResQueryClientResources(display, ids[i].spec.client, &n, &types) != 0, let types else {
        throw RigError("X-Resource: cannot read the resources of pid \(pid)")
      }
      defer { XFree(types) }
      var result: [String: Int] = [:]
      for t in UnsafeBufferPointer(start: types, count: Int(n)) {
        guard let name = XGetAtomName(display, t.resource_type) else { continue }
        defer { XFree(name) }
        result[String(cString: name)] = Int(t.count)
      }
      return result
    }
    throw RigError("X-Resource: no client of pid \(pid)")
  }

  /// Server resources held by the client that made resource `xid` (any id it was given,
  /// even one since freed), by type name: for a connection inside the test's own process.
  public func resources(ofClientOwning xid: UInt) throws -> [String: Int] {
    var n: Int32 = 0
    var types: UnsafeMutablePointer<XResType>?
    guard XResQueryClientResources(display, XID(xid), &n, &types) != 0 else {
      throw RigError("X-Resource: cannot read the resources of the client of \(xid)")
    }
    defer { if let types { XFree(types) } }
    var result: [String: Int] = [:]
    for t in UnsafeBufferPointer(start: types, count: Int(max(0, n))) where t.count > 0 {
      guard let name = XGetAtomName(display, t.resource_type) else { continue }
      defer { XFree(name) }
      result[String(cString: name)] = Int(t.count)
    }
    return result
  }
}

extension XInspector {
  /// An override-redirect window covering `rect`, filled in four coloured quadrants; what a
  /// client drawing on the main monitor looks like. Returns the window.
  @discardableResult
  public func quadrants(_ rect: Rect, _ colours: [UInt32]) -> UInt {
    var attributes = XSetWindowAttributes()
    attributes.override_redirect = 1
    attributes.background_pixel = 0
    let w = XCreateWindow(
      display, root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), 0, Int32(CopyFromParent),
      UInt32(InputOutput), nil, UInt(CWOverrideRedirect | CWBackPixel), &attributes)
    XMapWindow(display, w)
    // Drawing before the map has happened would be lost: wait for the server to do it.
    XSync(display, 0)
    let hw = rect.width / 2
    let hh = rect.height / 2
    for (i, colour) in colours.prefix(4).enumerated() {
      fill(UInt(w), Rect(x: (i % 2) * hw, y: (i / 2) * hh, width: hw, height: hh), colour)
    }
    XSync(display, 0)
    return UInt(w)
  }

  /// Fills a rectangle of a window with a colour and waits until the server did it.
  public func fill(_ window: UInt, _ rect: Rect, _ colour: UInt32) {
    let gc = XCreateGC(display, Window(window), 0, nil)
    XSetForeground(display, gc, UInt(colour))
    XFillRectangle(display, Window(window), gc, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height))
    XFreeGC(display, gc)
    XSync(display, 0)
  }
}

extension XInspector {
  /// Moves the pointer to a root-window point as a mouse would: through XTest (xdotool), so
  /// the server sees device motion (a warp would not produce XInput raw motion).
  public func movePointer(x: Int, y: Int, display name: String) throws {
    let r = try runCommand(
      ["xdotool", "mousemove", String(x), String(y)], environment: ["DISPLAY": name, "PATH": "/usr/bin:/bin"])
    guard r.status == 0 else { throw RigError("xdotool failed: \(r.err)") }
  }

  /// The colours in a square of the screen around a point.
  public func square(x: Int, y: Int, radius: Int) -> [UInt32] {
    (-radius...radius).flatMap { dy in row(y: y + dy, from: x - radius, to: x + radius + 1) }
  }
}

extension XInspector {
  /// Sets `_NET_SUPPORTING_WM_CHECK` on the root, as an EWMH window manager does.
  public func pretendWindowManager() {
    let atom = XInternAtom(display, "_NET_SUPPORTING_WM_CHECK", 0)
    var value = CLong(root)
    withUnsafeBytes(of: &value) { raw in
      _ = XChangeProperty(
        display, root, atom, XA_WINDOW, 32, PropModeReplace, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
    }
    XSync(display, 0)
  }

  /// The names of the atoms in a window's ATOM-list property.
  public func atomNames(_ window: UInt, _ property: String) -> [String] {
    guard let bytes = bytesProperty(Window(window), property) else { return [] }
    let atoms = bytes.withUnsafeBytes { Array($0.bindMemory(to: CLong.self)) }
    return atoms.compactMap { atom in
      guard let name = XGetAtomName(display, Atom(atom)) else { return nil }
      defer { XFree(name) }
      return String(cString: name)
    }
  }
}

extension XInspector {
  /// Gives a window a cursor from the cursor font (e.g. 34, XC_crosshair).
  public func defineCursor(_ window: UInt, fontShape: UInt32) {
    let cursor = XCreateFontCursor(display, fontShape)
    XDefineCursor(display, Window(window), cursor)
    XSync(display, 0)
  }
}
