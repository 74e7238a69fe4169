import DisplayModel

extension Daemon {
  /// Starts drawing the pointer into a mirror: selects pointer tracking once, uploads the
  /// cursor at the mirror's scale, draws it.
  func startCursor(_ monitor: inout ManagedMonitor) {
    if mirrors.tracking == nil {
      mirrors.tracking = connection.selectPointerTracking()
      if mirrors.tracking == false { log.warning("no XInput 2: the pointer is not drawn into mirrors") }
    }
    guard mirrors.tracking == true, let geometry = monitor.geometry else { return }
    if mirrors.cursorImage == nil { mirrors.cursorImage = connection.cursorImage() }
    guard let image = mirrors.cursorImage else { return }
    log.debug(
      "cursor \(image.width)x\(image.height), hot spot \(image.hotX),\(image.hotY), \(image.pixels.filter { $0 >> 24 != 0 }.count) visible pixels"
    )
    monitor.cursorPicture = connection.createCursorPicture(image, scale: min(geometry.scaleX, geometry.scaleY))
    drawCursor(&monitor, at: connection.pointerPosition())
  }

  /// The cursor's shape changed: upload it again everywhere and redraw.
  func cursorShapeChanged() {
    mirrors.cursorImage = connection.cursorImage()
    guard let image = mirrors.cursorImage else { return }
    for (id, var monitor) in monitors where monitor.cursor {
      guard let geometry = monitor.geometry else { continue }
      if let old = monitor.cursorPicture { connection.freeCursorPicture(old) }
      monitor.cursorPicture = connection.createCursorPicture(image, scale: min(geometry.scaleX, geometry.scaleY))
      monitors[id] = monitor
    }
    moveCursors(forced: Set(monitors.keys))
    connection.flush()
  }

  /// Moves each mirror's cursor to where the pointer is now; `forced` ones are redrawn even
  /// if it did not move (the content under them was repainted).
  func moveCursors(forced: Set<OutputID>) {
    let position = connection.pointerPosition()
    for (id, var monitor) in monitors where monitor.cursorPicture != nil {
      drawCursor(&monitor, at: position, force: forced.contains(id))
      monitors[id] = monitor
    }
  }

  private func drawCursor(_ monitor: inout ManagedMonitor, at position: (x: Int, y: Int)?, force: Bool = false) {
    guard let pictures = monitor.mirror, let geometry = monitor.geometry, let cursor = monitor.cursorPicture,
      let image = mirrors.cursorImage
    else { return }
    let new = position.flatMap { cursorRect(image, at: $0, in: geometry) }
    guard force || new != monitor.cursorRect else { return }
    if let old = monitor.cursorRect, let erase = old.intersection(geometry.content) {
      connection.composite(pictures, [erase])
    }
    if let new { connection.compositeCursor(cursor, into: pictures, at: new) }
    monitor.cursorRect = new
    mirrors.lastComposite = clock.nanoseconds
  }

  /// Where the cursor shows in a mirror window, nil when the pointer is off the source.
  func cursorRect(_ image: CursorImage, at p: (x: Int, y: Int), in g: MirrorGeometry) -> Rect? {
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
