import CXrandr
import DisplayModel

extension XConnection {
  /// Whether RENDER, DAMAGE and XFixes 2 are there (and notes DAMAGE's event number).
  public var canMirror: Bool {
    var event: Int32 = 0
    var error: Int32 = 0
    guard XRenderQueryExtension(display, &event, &error) != 0, XFixesQueryExtension(display, &event, &error) != 0,
      XDamageQueryExtension(display, &event, &error) != 0
    else { return false }
    damageEventBase = Int(event)
    var major: Int32 = 2
    var minor: Int32 = 0
    XFixesQueryVersion(display, &major, &minor)
    var dmajor: Int32 = 1
    var dminor: Int32 = 1
    XDamageQueryVersion(display, &dmajor, &dminor)
    return major >= 2
  }

  /// Creates the pictures for a mirror window and sets the transform and filter.
  public func createMirror(_ window: WindowID, geometry: MirrorGeometry, filter: MirrorFilter) -> MirrorPictures? {
    guard let rootFormat = XRenderFindVisualFormat(display, XDefaultVisual(display, screenNumber)) else { return nil }
    var attributes = XRenderPictureAttributes()
    attributes.subwindow_mode = IncludeInferiors
    let source = XRenderCreatePicture(display, root, rootFormat, UInt(CPSubwindowMode), &attributes)
    var plain = XRenderPictureAttributes()
    let destination = XRenderCreatePicture(display, Window(window.rawValue), rootFormat, 0, &plain)
    let pictures = MirrorPictures(source: UInt(source), destination: UInt(destination))
    setMirror(pictures, geometry: geometry, filter: filter)
    return pictures
  }

  /// Sets the source picture's transform and filter for `geometry`, and the levels between
  /// it and the window when the filter halves first (freed with the mirror or when their
  /// sizes change).
  public func setMirror(_ p: MirrorPictures, geometry: MirrorGeometry, filter: MirrorFilter) {
    setPasses(p, geometry.passes(filter))
  }

  /// Composites the source into the window at these window rectangles.
  public func composite(_ p: MirrorPictures, _ rects: [Rect]) {
    for r in rects {
      let source = updateLevels(p, for: r)
      XRenderComposite(
        display, PictOpSrc, source, 0, Picture(p.destination), Int32(clamping: r.x), Int32(clamping: r.y),
        0, 0, Int32(clamping: r.x), Int32(clamping: r.y), UInt32(clamping: r.width), UInt32(clamping: r.height))
    }
  }

  /// Frees a mirror's pictures; the window's own picture only when `destination` (the
  /// server frees it with the window, so not after another client destroyed the window).
  public func freeMirror(_ p: MirrorPictures, destination: Bool = true) {
    freeLevels(p)
    XRenderFreePicture(display, Picture(p.source))
    if destination { XRenderFreePicture(display, Picture(p.destination)) }
  }

  /// Watches the root window for damage, reported once until subtracted (NonEmpty level),
  /// with the region the damage is taken into, which lives as long as it.
  public func createRootDamage() -> DamageID {
    if damageRegion == 0 { damageRegion = UInt(XFixesCreateRegion(display, nil, 0)) }
    return DamageID(rawValue: UInt(XDamageCreate(display, root, Int32(XDamageReportNonEmpty))))
  }

  /// Takes the damage accumulated so far, as root rectangles, and re-arms the report.
  public func takeDamage(_ damage: DamageID) -> [Rect] {
    // One region, kept while the damage lives: this runs once a frame.
    if damageRegion == 0 { damageRegion = UInt(XFixesCreateRegion(display, nil, 0)) }
    let region = XserverRegion(damageRegion)
    XDamageSubtract(display, Damage(damage.rawValue), 0, region)
    var count: Int32 = 0
    guard let rects = XFixesFetchRegion(display, region, &count) else { return [] }
    defer { XFree(rects) }
    return (0..<Int(count)).map {
      Rect(x: Int(rects[$0].x), y: Int(rects[$0].y), width: Int(rects[$0].width), height: Int(rects[$0].height))
    }
  }

  public func freeDamage(_ damage: DamageID) {
    XDamageDestroy(display, Damage(damage.rawValue))
    if damageRegion != 0 { XFixesDestroyRegion(display, XserverRegion(damageRegion)) }
    damageRegion = 0
  }

  /// Asks for Expose events on a window (mirror windows repaint exposed areas themselves).
  public func selectExposures(_ window: WindowID) {
    XSelectInput(display, Window(window.rawValue), StructureNotifyMask | ExposureMask)
  }
}

extension XConnection {
  /// Repaints a window with its background (the letterbox bars of a mirror).
  public func clearWindow(_ window: WindowID) { XClearWindow(display, Window(window.rawValue)) }

  /// Makes a window's background one colour again (a picture no longer shown).
  func setBackground(_ window: WindowID, _ color: RGBColor) {
    XSetWindowBackground(display, Window(window.rawValue), UInt(color.pixel))
  }
}
