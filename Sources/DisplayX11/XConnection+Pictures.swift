import CXrandr
import DisplayModel
import DisplayPorts

extension XConnection {
  /// Makes `picture` the background of `window` (of `size`), so the server repaints exposed
  /// areas itself: a new pixmap the server fills with the background colour, with only the
  /// picture's patches (its text) uploaded into it. A picture smaller than the window (one
  /// capped for a huge monitor) goes into a child window centred in it, over the window's
  /// own background colour. Throws, freeing what it made, when the server cannot (BadAlloc).
  public func showPicture(
    _ picture: PlaceholderPicture, in window: WindowID, size: (width: Int, height: Int)
  ) throws(DisplayError) -> ShownImage {
    let depth = XDefaultDepth(display, screenNumber)
    guard depth == 24 || depth == 32, let visual = XDefaultVisual(display, screenNumber) else {
      throw .request(unknownFailure("a 24-bit TrueColor visual for the placeholder"))
    }
    let first = nextRequest
    let parent = Window(window.rawValue)
    let background = UInt(picture.background.pixel)
    var target = parent
    var inner: WindowID?
    if picture.width < size.width || picture.height < size.height {
      // The bars around the picture: the background colour, not an earlier picture.
      XSetWindowBackground(display, parent, background)
      XClearWindow(display, parent)
      var attributes = XSetWindowAttributes()
      target = XCreateWindow(
        display, target, Int32(clamping: (size.width - picture.width) / 2),
        Int32(clamping: (size.height - picture.height) / 2), UInt32(clamping: picture.width),
        UInt32(clamping: picture.height), 0, Int32(CopyFromParent), UInt32(InputOutput), nil, 0, &attributes)
      inner = WindowID(rawValue: UInt(target))
    }
    let pixmap = XCreatePixmap(
      display, target, UInt32(clamping: picture.width), UInt32(clamping: picture.height), UInt32(depth))
    paint(picture, into: pixmap, visual: visual, depth: depth)
    XSetWindowBackgroundPixmap(display, target, pixmap)
    if inner != nil { XMapWindow(display, target) }
    XClearWindow(display, target)
    if let error = try syncErrors(since: first).first {
      XSetWindowBackground(display, parent, background)
      XClearWindow(display, parent)
      XFreePixmap(display, pixmap)
      if let inner { XDestroyWindow(display, Window(inner.rawValue)) }
      XFlush(display)
      throw .request(error.failure)
    }
    return ShownImage(pixmap: PixmapID(rawValue: UInt(pixmap)), inner: inner)
  }

  /// Fills `pixmap` with the picture's background on the server, then uploads its patches.
  private func paint(
    _ picture: PlaceholderPicture, into pixmap: Pixmap, visual: UnsafeMutablePointer<Visual>, depth: Int32
  ) {
    let gc = XCreateGC(display, pixmap, 0, nil)
    defer { XFreeGC(display, gc) }
    if !picture.patchesCoverAll {
      XSetForeground(display, gc, UInt(picture.background.pixel))
      XFillRectangle(
        display, pixmap, gc, 0, 0, UInt32(clamping: picture.width), UInt32(clamping: picture.height))
    }
    for patch in picture.patches {
      let image = patch.image
      image.withPixels { pixels, stride in
        guard
          let ximage = XCreateImage(
            display, visual, UInt32(depth), ZPixmap, 0,
            UnsafeMutablePointer(mutating: pixels.assumingMemoryBound(to: CChar.self)),
            UInt32(clamping: image.width), UInt32(clamping: image.height), 32, Int32(clamping: stride))
        else { return }
        XPutImage(
          display, pixmap, gc, ximage, 0, 0, Int32(clamping: patch.x), Int32(clamping: patch.y),
          UInt32(clamping: image.width), UInt32(clamping: image.height))
        // The pixels belong to the renderer: free only the XImage structure.
        ximage.pointee.data = nil
        XFree(ximage)
      }
    }
  }
}
