import CXrandr
import DisplayModel
import DisplayRender

/// A short-lived picture over everything: override-redirect (no window manager frames,
/// moves or focuses it), no input (an empty input shape, so clicks go through to what is
/// below), never taking focus. `displayd identify` shows one on every lit output.
public struct Overlay: Hashable, Sendable {
  public var window: WindowID
  public var shown: ShownImage
}

extension XConnection {
  /// Creates, fills and maps, raised, an overlay covering `rect` with `image`, named after
  /// `output` in `WM_NAME`, `_NET_WM_NAME` and `_DISPLAYD_IDENTIFY` (not `_DISPLAYD_OUTPUT`:
  /// it is not a monitor's window). Throws, having destroyed what it made, when the server
  /// refuses.
  public func createOverlay(output: String, rect: Rect, image: RenderedImage, background: RGBColor)
    throws(DisplayError) -> Overlay
  {
    let first = nextRequest
    var attributes = XSetWindowAttributes()
    attributes.background_pixel = UInt(background.pixel)
    attributes.override_redirect = 1
    let window = XCreateWindow(
      display, root, Int32(clamping: rect.x), Int32(clamping: rect.y), UInt32(clamping: max(1, rect.width)),
      UInt32(clamping: max(1, rect.height)), 0, Int32(CopyFromParent), UInt32(InputOutput), nil,
      UInt(CWBackPixel | CWOverrideRedirect), &attributes)
    let title = "displayd identify: \(output)"
    XStoreName(display, window, title)
    setUTF8(window, "_NET_WM_NAME", title)
    setUTF8(window, "_DISPLAYD_IDENTIFY", output)
    var hints = XWMHints()
    hints.flags = InputHint
    hints.input = 0
    XSetWMHints(display, window, &hints)
    clearInputShape(window)
    if let error = try syncErrors(since: first).first {
      XDestroyWindow(display, window)
      XFlush(display)
      throw .request(error.failure)
    }
    let id = WindowID(rawValue: UInt(window))
    do {
      let shown = try showImage(image, in: id, size: (rect.width, rect.height), background: background)
      XMapRaised(display, window)
      return Overlay(window: id, shown: shown)
    } catch {
      XDestroyWindow(display, window)
      XFlush(display)
      throw error
    }
  }

  /// Destroys an overlay's window and frees its picture.
  public func destroyOverlay(_ overlay: Overlay) {
    XDestroyWindow(display, Window(overlay.window.rawValue))
    XFreePixmap(display, Pixmap(overlay.shown.pixmap.rawValue))
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
}
