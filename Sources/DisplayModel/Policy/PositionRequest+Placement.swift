extension PositionRequest {
  /// The output a relative request places beside (an output's name, or `main`); nil for an
  /// absolute one.
  public var anchor: String? {
    if case .relative(_, let target) = self { return target }
    return nil
  }

  /// Where a monitor of `size` goes by this request: its absolute place, or beside `target`
  /// (the origin's empty rectangle when none) pushed past `occupied` (`Relation.place`). Both
  /// rule planners (over the X backend's outputs and over heads) place with this.
  public func origin(_ size: (Int, Int), beside target: Rect?, avoiding occupied: [Rect]) -> (x: Int, y: Int) {
    switch self {
    case .absolute(let x, let y): return (x, y)
    case .relative(let relation, _):
      let beside = target ?? Rect(x: 0, y: 0, width: 0, height: 0)
      let r = relation.place(width: size.0, height: size.1, beside: beside, avoiding: occupied)
      return (r.x, r.y)
    }
  }
}

extension Rect {
  /// Shifts every rectangle so that none is left of or above the origin, when one is:
  /// the X screen starts at 0,0, and a desk keeps its shape.
  public static func shiftToOrigin<Key: Hashable>(_ rects: inout [Key: Rect]) {
    let dx = min(0, rects.values.map(\.x).min() ?? 0)
    let dy = min(0, rects.values.map(\.y).min() ?? 0)
    guard dx < 0 || dy < 0 else { return }
    for (key, r) in rects { rects[key] = Rect(x: r.x - dx, y: r.y - dy, width: r.width, height: r.height) }
  }

  /// Whether the two rectangles share any pixel.
  public func intersects(_ o: Rect) -> Bool {
    x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
  }

  /// The pixels both rectangles cover, nil when none.
  public func intersection(_ o: Rect) -> Rect? {
    let x0 = max(x, o.x)
    let y0 = max(y, o.y)
    let x1 = min(x + width, o.x + o.width)
    let y1 = min(y + height, o.y + o.height)
    return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
  }
}

extension PositionRequest.Relation {
  /// A `width` x `height` rectangle beside `target` on this side, then pushed along the same
  /// direction past any of `occupied` it would overlap, so monitors placed alike end up in a
  /// row, not stacked. Both planners (monitor rules and profiles) place with this.
  public func place(width w: Int, height h: Int, beside target: Rect, avoiding occupied: [Rect]) -> Rect {
    var r: Rect
    switch self {
    case .rightOf: r = Rect(x: target.x + target.width, y: target.y, width: w, height: h)
    case .leftOf: r = Rect(x: target.x - w, y: target.y, width: w, height: h)
    case .above: r = Rect(x: target.x, y: target.y - h, width: w, height: h)
    case .below: r = Rect(x: target.x, y: target.y + target.height, width: w, height: h)
    }
    while let hit = occupied.first(where: { $0.intersects(r) }) {
      switch self {
      case .rightOf: r.x = hit.x + hit.width
      case .leftOf: r.x = hit.x - w
      case .above: r.y = hit.y - h
      case .below: r.y = hit.y + hit.height
      }
    }
    return r
  }
}
