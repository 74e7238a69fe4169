import CXrandr
import DisplayModel
import DisplayPorts

extension XConnection {
  /// Creates and maps a window exactly covering `spec.rect`, never taking keyboard focus.
  /// An error from any request making it destroys the half-made window and is thrown; errors
  /// of earlier requests are not blamed on it.
  public func createWindow(_ spec: SurfaceSpec) throws(DisplayError) -> WindowID {
    internAtoms(Self.windowAtoms)
    let first = nextRequest
    var attributes = XSetWindowAttributes()
    attributes.background_pixel = UInt(spec.background.pixel)
    attributes.override_redirect = spec.level == .overlay ? 1 : 0
    attributes.event_mask = StructureNotifyMask
    let mask = UInt(CWBackPixel | CWOverrideRedirect | CWEventMask)
    let r = spec.rect
    let window = XCreateWindow(
      display, root, Int32(clamping: r.x), Int32(clamping: r.y), UInt32(clamping: max(1, r.width)),
      UInt32(clamping: max(1, r.height)), 0, Int32(CopyFromParent), UInt32(InputOutput), nil, mask, &attributes)
    if spec.coversHead {
      setIdentity(window, output: spec.head)
    } else {
      setCardIdentity(window, output: spec.head)
      clearInputShape(window)
    }
    setSizeHints(window, rect: r)
    // Set whether or not a window manager runs (no round trip to ask): without one it is an
    // inert property, and one started later reads it when it manages the window.
    if spec.level != .overlay {
      let state = spec.level == .above ? "_NET_WM_STATE_ABOVE" : "_NET_WM_STATE_FULLSCREEN"
      setAtoms(window, "_NET_WM_STATE", [atom(state)])
    }
    XMapWindow(display, window)
    if let error = try syncErrors(since: first).first {
      XDestroyWindow(display, window)
      XFlush(display)
      throw .request(error.failure)
    }
    return WindowID(rawValue: UInt(window))
  }

  /// Moves and resizes a window to cover `rect`.
  public func moveWindow(_ window: WindowID, to rect: Rect) {
    setSizeHints(Window(window.rawValue), rect: rect)
    XMoveResizeWindow(
      display, Window(window.rawValue), Int32(clamping: rect.x), Int32(clamping: rect.y),
      UInt32(clamping: max(1, rect.width)), UInt32(clamping: max(1, rect.height)))
  }

  /// Destroys a window (unmapping it); X errors for one already gone are recorded, not fatal.
  public func destroyWindow(_ window: WindowID) {
    XDestroyWindow(display, Window(window.rawValue))
  }

  /// Puts `image` into a new pixmap and makes it the background of `window` (of `size`), as
  /// `showPicture` does with a picture that is all one image.
  public func showImage(
    _ image: any PixelImage, in window: WindowID, size: (width: Int, height: Int), background: RGBColor
  ) throws(DisplayError) -> ShownImage {
    try showPicture(PlaceholderPicture(image: image, background: background), in: window, size: size)
  }

  public func freePixmap(_ pixmap: PixmapID) { XFreePixmap(display, Pixmap(pixmap.rawValue)) }

  private func setIdentity(_ window: Window, output: String) {
    let title = "displayd: \(output)"
    XStoreName(display, window, title)
    setUTF8(window, "_NET_WM_NAME", title)
    setUTF8(window, "_DISPLAYD_OUTPUT", output)
    "displayd".withCString { name in
      "Displayd".withCString { cls in
        var hint = XClassHint(
          res_name: UnsafeMutablePointer(mutating: name), res_class: UnsafeMutablePointer(mutating: cls))
        XSetClassHint(display, window, &hint)
      }
    }
    var hints = XWMHints()
    hints.flags = InputHint
    hints.input = 0
    XSetWMHints(display, window, &hints)
    var protocols = [atom("WM_DELETE_WINDOW")]
    XSetWMProtocols(display, window, &protocols, 1)
  }

  /// A card over a part of the head (`identify`'s): named after the output in `WM_NAME`,
  /// `_NET_WM_NAME` and `_DISPLAYD_IDENTIFY` (not `_DISPLAYD_OUTPUT`: it is not a monitor's
  /// window), never taking focus.
  private func setCardIdentity(_ window: Window, output: String) {
    let title = "displayd identify: \(output)"
    XStoreName(display, window, title)
    setUTF8(window, "_NET_WM_NAME", title)
    setUTF8(window, "_DISPLAYD_IDENTIFY", output)
    var hints = XWMHints()
    hints.flags = InputHint
    hints.input = 0
    XSetWMHints(display, window, &hints)
  }

  /// An empty input region (XFixes 2 with SHAPE 1.1): pointer events pass through the window
  /// to whatever is below. Without XFixes 2 the window still never takes focus.
  private func clearInputShape(_ window: Window) {
    var event: Int32 = 0
    var error: Int32 = 0
    guard XFixesQueryExtension(display, &event, &error) != 0 else { return }
    var major: Int32 = 2
    var minor: Int32 = 0
    guard XFixesQueryVersion(display, &major, &minor) != 0, major >= 2 else { return }
    let region = XFixesCreateRegion(display, nil, 0)
    // ShapeInput (X11/extensions/shapeconst.h), which the imported headers do not define.
    let shapeInput: Int32 = 2
    XFixesSetWindowShapeRegion(display, window, shapeInput, 0, 0, region)
    XFixesDestroyRegion(display, region)
  }

  private func setSizeHints(_ window: Window, rect: Rect) {
    var size = XSizeHints()
    size.flags = USPosition | USSize | PMinSize | PMaxSize
    size.x = Int32(clamping: rect.x)
    size.y = Int32(clamping: rect.y)
    size.width = Int32(clamping: rect.width)
    size.height = Int32(clamping: rect.height)
    size.min_width = size.width
    size.max_width = size.width
    size.min_height = size.height
    size.max_height = size.height
    XSetWMNormalHints(display, window, &size)
  }

  func setUTF8(_ window: Window, _ property: String, _ value: String) {
    let bytes = Array(value.utf8)
    XChangeProperty(display, window, atom(property), atom("UTF8_STRING"), 8, PropModeReplace, bytes, Int32(bytes.count))
  }

  func setAtoms(_ window: Window, _ property: String, _ atoms: [Atom]) {
    let longs = atoms.map { CLong(bitPattern: $0) }
    _ = longs.withUnsafeBytes { raw in
      XChangeProperty(
        display, window, atom(property), XA_ATOM, 32, PropModeReplace,
        raw.baseAddress?.assumingMemoryBound(to: UInt8.self),
        Int32(atoms.count))
    }
  }

  /// The first 32-bit item of a window's property of `type` (any type by default), nil when
  /// absent.
  func windowProperty(_ window: Window, _ name: String, type wanted: Atom = Atom(AnyPropertyType)) -> UInt? {
    let property = atom(name, create: false)
    guard property != 0 else { return nil }
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let status = XGetWindowProperty(
      display, window, property, 0, 1, 0, wanted, &type, &format, &count, &after, &data)
    defer { if let data { XFree(data) } }
    guard status == Success, type != 0, count > 0, format == 32, let data else { return nil }
    return data.withMemoryRebound(to: UInt.self, capacity: 1) { $0.pointee }
  }
}
