import CXRes
import CXrandr

extension XInspector {
  /// Top-level windows carrying `_DISPLAYD_IDENTIFY` (identify's cards), with the output
  /// each names in `output`.
  public func identifyWindows() -> [TopWindow] { topWindows(carrying: "_DISPLAYD_IDENTIFY") }

  /// The rectangles of a window's input shape (SHAPE 1.1): none means pointer events pass
  /// through it; nil when the server cannot tell.
  public func inputShape(_ window: UInt) -> [Rect]? {
    var count: Int32 = 0
    var ordering: Int32 = 0
    guard let rects = XShapeGetRectangles(display, Window(window), ShapeInput, &count, &ordering) else {
      return count == 0 ? [] : nil
    }
    defer { XFree(rects) }
    return (0..<Int(count)).map {
      Rect(x: Int(rects[$0].x), y: Int(rects[$0].y), width: Int(rects[$0].width), height: Int(rects[$0].height))
    }
  }

  /// The window stacked topmost among the root's children.
  public func topmostWindow() -> UInt? {
    var rootReturn: Window = 0
    var parent: Window = 0
    var children: UnsafeMutablePointer<Window>?
    var count: UInt32 = 0
    guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children, count > 0 else {
      return nil
    }
    defer { XFree(children) }
    return UInt(children[Int(count) - 1])
  }
}
