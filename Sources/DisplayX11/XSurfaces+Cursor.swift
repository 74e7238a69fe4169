import DisplayModel
import DisplayPorts

extension XSurfaces {
  /// Starts drawing the pointer into a mirror: selects pointer tracking once, uploads the
  /// cursor at the mirror's scale, draws it.
  func startCursor(_ id: SurfaceID) {
    if tracking == nil {
      tracking = connection.selectPointerTracking()
      if tracking == false { note(.warning, "no XInput 2: the pointer is not drawn into mirrors") }
    }
    guard tracking == true, var s = surfaces[id], let geometry = s.mirror?.geometry else { return }
    if cursorImage == nil { cursorImage = connection.cursorImage() }
    guard let image = cursorImage else { return }
    note(
      .debug,
      "cursor \(image.width)x\(image.height), hot spot \(image.hotX),\(image.hotY), \(image.pixels.filter { $0 >> 24 != 0 }.count) visible pixels"
    )
    s.cursorPicture = connection.createCursorPicture(image, scale: min(geometry.scaleX, geometry.scaleY))
    drawCursor(&s, at: connection.pointerPosition())
    surfaces[id] = s
  }

  /// The cursor's shape changed: upload it again everywhere and redraw.
  func cursorShapeChanged() {
    cursorImage = connection.cursorImage()
    guard let image = cursorImage else { return }
    for (id, var s) in surfaces where s.mirror?.cursor == true {
      guard let geometry = s.mirror?.geometry else { continue }
      if let old = s.cursorPicture { connection.freeCursorPicture(old) }
      s.cursorPicture = connection.createCursorPicture(image, scale: min(geometry.scaleX, geometry.scaleY))
      surfaces[id] = s
    }
    moveCursors(forced: Set(surfaces.keys))
    connection.flush()
  }

  /// Moves each mirror's cursor to where the pointer is now; `forced` ones are redrawn even
  /// if it did not move (the content under them was repainted).
  func moveCursors(forced: Set<SurfaceID>) {
    let position = connection.pointerPosition()
    for (id, var s) in surfaces where s.cursorPicture != nil {
      drawCursor(&s, at: position, force: forced.contains(id))
      surfaces[id] = s
    }
  }

  private func drawCursor(_ s: inout XSurface, at position: (x: Int, y: Int)?, force: Bool = false) {
    guard let pictures = s.pictures, let geometry = s.mirror?.geometry, let cursor = s.cursorPicture,
      let image = cursorImage
    else { return }
    let new = position.flatMap { Self.cursorRect(image, at: $0, in: geometry) }
    guard force || new != s.cursorRect else { return }
    if let old = s.cursorRect, let erase = old.intersection(geometry.content) {
      connection.composite(pictures, [erase])
    }
    if let new { connection.compositeCursor(cursor, into: pictures, at: new) }
    s.cursorRect = new
    pacer.lastFrame = now()
  }

  /// Where the cursor shows in a mirror window, nil when the pointer is off the source.
  static func cursorRect(_ image: CursorImage, at p: (x: Int, y: Int), in g: MirrorGeometry) -> Rect? {
    let s = g.source
    guard p.x >= s.x, p.y >= s.y, p.x < s.x + s.width, p.y < s.y + s.height else { return nil }
    let scale = min(g.scaleX, g.scaleY)
    let x = Int((g.originX + Double(p.x - image.hotX - s.x) * g.scaleX).rounded(.down))
    let y = Int((g.originY + Double(p.y - image.hotY - s.y) * g.scaleY).rounded(.down))
    return Rect(
      x: x, y: y, width: Int((Double(image.width) * scale).rounded(.up)),
      height: Int((Double(image.height) * scale).rounded(.up)))
  }
}
