import CXrandr
import DisplayModel

extension XConnection {
  /// Asks for cursor-shape changes (XFixes) and pointer motion (XInput 2). False when
  /// unsupported.
  public func selectPointerTracking() -> Bool {
    guard xiReady() else { return false }
    var event: Int32 = 0
    var error: Int32 = 0
    // Raw motion comes from devices wherever the pointer is; motion on the root also sees
    // warps (which make no raw event). Both only say "look again".
    xiRawMotion = true
    selectPointerMasks(motion: true)
    XFixesQueryExtension(display, &event, &error)
    fixesEventBase = Int(event)
    XFixesSelectCursorInput(display, root, UInt(XFixesDisplayCursorNotifyMask))
    return true
  }

  /// Stops the events `selectPointerTracking` asked for: with no mirror drawing the pointer,
  /// a moving mouse must not wake the daemon.
  public func deselectPointerTracking() {
    xiRawMotion = false
    selectPointerMasks(motion: false)
    XFixesSelectCursorInput(display, root, 0)
  }

  /// The root's XI2 masks: every device's (raw motion and hierarchy, as wanted now) and the
  /// masters' (motion, or none).
  private func selectPointerMasks(motion: Bool) {
    var all = xiAllDevicesMask()
    var masters = [UInt8](repeating: 0, count: 4)
    if motion { masters[Int(XI_Motion) >> 3] |= UInt8(1 << (Int(XI_Motion) & 7)) }
    all.withUnsafeMutableBufferPointer { a in
      masters.withUnsafeMutableBufferPointer { m in
        var masks = [
          XIEventMask(deviceid: XIAllDevices, mask_len: Int32(a.count), mask: a.baseAddress),
          XIEventMask(deviceid: XIAllMasterDevices, mask_len: Int32(m.count), mask: m.baseAddress),
        ]
        _ = XISelectEvents(display, root, &masks, 2)
      }
    }
  }

  /// Where the pointer is on the root window.
  public func pointerPosition() -> (x: Int, y: Int)? {
    var rootReturn: Window = 0
    var child: Window = 0
    var rx: Int32 = 0
    var ry: Int32 = 0
    var wx: Int32 = 0
    var wy: Int32 = 0
    var mask: UInt32 = 0
    guard XQueryPointer(display, root, &rootReturn, &child, &rx, &ry, &wx, &wy, &mask) != 0 else { return nil }
    return (Int(rx), Int(ry))
  }

  /// The current cursor image.
  public func cursorImage() -> CursorImage? {
    guard let image = XFixesGetCursorImage(display) else { return nil }
    defer { XFree(image) }
    let c = image.pointee
    let count = Int(c.width) * Int(c.height)
    // XFixes hands ARGB pixels as C longs.
    let pixels = (0..<count).map { UInt32(truncatingIfNeeded: c.pixels[$0]) }
    return CursorImage(
      width: Int(c.width), height: Int(c.height), hotX: Int(c.xhot), hotY: Int(c.yhot), serial: UInt(c.cursor_serial),
      pixels: pixels)
  }

  /// Uploads a cursor image as an ARGB picture, scaled by `scale` when composited.
  public func createCursorPicture(_ image: CursorImage, scale: Double) -> CursorPicture? {
    guard image.width > 0, image.height > 0, let format = XRenderFindStandardFormat(display, Int32(PictStandardARGB32))
    else { return nil }
    let pixmap = XCreatePixmap(display, root, UInt32(image.width), UInt32(image.height), 32)
    let gc = XCreateGC(display, pixmap, 0, nil)
    defer { XFreeGC(display, gc) }
    var pixels = image.pixels
    pixels.withUnsafeMutableBytes { raw in
      guard
        let ximage = XCreateImage(
          display, nil, 32, ZPixmap, 0, raw.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(image.width),
          UInt32(image.height), 32, Int32(image.width * 4))
      else { return }
      XPutImage(display, pixmap, gc, ximage, 0, 0, 0, 0, UInt32(image.width), UInt32(image.height))
      ximage.pointee.data = nil
      XFree(ximage)
    }
    var attributes = XRenderPictureAttributes()
    let picture = XRenderCreatePicture(display, pixmap, format, 0, &attributes)
    let m = XFixed(MirrorGeometry.fixed(1 / max(0.01, scale)))
    var xform = XTransform(matrix: ((m, 0, 0), (0, m, 0), (0, 0, 65536)))
    XRenderSetPictureTransform(display, picture, &xform)
    XRenderSetPictureFilter(display, picture, "bilinear", nil, 0)
    return CursorPicture(picture: UInt(picture), pixmap: UInt(pixmap))
  }

  public func freeCursorPicture(_ c: CursorPicture) {
    XRenderFreePicture(display, Picture(c.picture))
    XFreePixmap(display, Pixmap(c.pixmap))
  }

  /// Draws the cursor over a mirror window at `rect` (window coordinates, already scaled).
  public func compositeCursor(_ c: CursorPicture, into p: MirrorPictures, at rect: Rect) {
    XRenderComposite(
      display, PictOpOver, Picture(c.picture), 0, Picture(p.destination), 0, 0, 0, 0, Int32(clamping: rect.x),
      Int32(clamping: rect.y), UInt32(clamping: rect.width), UInt32(clamping: rect.height))
  }
}
