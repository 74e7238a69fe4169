extension Planner {
  /// Where a monitor of `size` goes: beside its target, then pushed along the same direction
  /// past any monitor already there, so monitors placed alike end up in a row, not stacked.
  func place(
    _ size: (Int, Int), _ request: PositionRequest, main: Output?, rects: [OutputID: Rect]
  ) -> (x: Int, y: Int) {
    let targetOutput = request.anchor.flatMap { $0 == "main" ? main : topology.output(named: $0) }
    let target = targetOutput.flatMap { rects[$0.id] } ?? main.flatMap { rects[$0.id] }
    return request.origin(size, beside: target, avoiding: Array(rects.values))
  }

  /// RandR's screen starts at 0,0: monitors placed left of or above it shift everything.
  func normalize(_ rects: inout [OutputID: Rect]) { Rect.shiftToOrigin(&rects) }

  /// CRTC changes for the outputs being configured and for active ones that had to move.
  /// A scaled monitor is unchanged only at the size its transform gives: a CRTC's size is
  /// its transformed size (RandR's snapshot carries no transform).
  func changes(rects: [OutputID: Rect], targets: [OutputID: Target]) -> [CrtcChange] {
    var result: [CrtcChange] = []
    for output in topology.outputs {
      guard let rect = rects[output.id] else { continue }
      if let t = targets[output.id] {
        let same =
          t.crtc.mode == t.modes[0].id && t.crtc.x == rect.x && t.crtc.y == rect.y && t.crtc.outputs == [output.id]
          && t.crtc.rotation == t.rotation && (!t.scaled || (t.crtc.width, t.crtc.height) == (rect.width, rect.height))
        if !same {
          var change = CrtcChange(
            crtc: t.crtc.id, mode: t.modes[0].id, x: rect.x, y: rect.y, rotation: t.rotation,
            outputs: [output.id], fallbacks: t.modes.dropFirst().map(\.id), outputName: output.name)
          change.transform = t.transform
          result.append(change)
        }
      } else if let crtc = topology.activeCrtc(of: output), crtc.x != rect.x || crtc.y != rect.y {
        // Moved as it is: its rotation and its transform (a scale) stay.
        result.append(
          CrtcChange(
            crtc: crtc.id, mode: crtc.mode, x: rect.x, y: rect.y, rotation: crtc.rotation,
            outputs: crtc.outputs, fallbacks: [], outputName: output.name, transform: crtc.transform))
      }
    }
    return result
  }

  /// Active CRTCs that drive only disconnected outputs: turned off.
  func releases() -> [CrtcChange] {
    topology.crtcs.filter { crtc in
      crtc.isActive && !crtc.outputs.isEmpty
        && crtc.outputs.allSatisfy { topology.output($0)?.isConnected != true }
    }.map { crtc in
      CrtcChange(
        crtc: crtc.id, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], fallbacks: [],
        outputName: crtc.outputs.compactMap { topology.output($0)?.name }.joined(separator: ","))
    }
  }

  /// The bounding box of every monitor, within the server's limits; nil when unchanged.
  func screenSize(rects: [OutputID: Rect], changed: Bool, warnings: inout [PlanWarning]) -> (width: Int, height: Int)? {
    guard changed else { return nil }
    let s = topology.screen
    let w = max(s.minWidth, rects.values.map { $0.x + $0.width }.max() ?? 0)
    let h = max(s.minHeight, rects.values.map { $0.y + $0.height }.max() ?? 0)
    if w > s.maxWidth || h > s.maxHeight {
      warnings.append(.screenTooLarge(width: w, height: h, maxWidth: s.maxWidth, maxHeight: s.maxHeight))
    }
    let size = (min(w, s.maxWidth), min(h, s.maxHeight))
    return size == (s.width, s.height) ? nil : size
  }
}

extension PositionRequest {
  /// The output a relative request places beside (an output's name, or `main`); nil for an
  /// absolute one.
  public var anchor: String? {
    if case .relative(_, let target) = self { return target }
    return nil
  }

  /// Where a monitor of `size` goes by this request: its absolute place, or beside `target`
  /// (the origin's empty rectangle when none) pushed past `occupied` (`Relation.place`). Both
  /// rule planners (over RandR's outputs and over heads) place with this.
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
  /// RandR's screen starts at 0,0, and a desk keeps its shape.
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
