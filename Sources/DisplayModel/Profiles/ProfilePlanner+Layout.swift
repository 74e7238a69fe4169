// Where the head profile planner puts its entries.
extension ProfilePlanner {
  /// Places every lit slot: points first, then the entries without a position in a row or
  /// column after them, then those placed against another entry; then the whole layout is
  /// moved to start at 0,0.
  func layout(_ slots: inout [ProfileSlot], _ profile: Profile, _ warnings: inout [PlanWarning]) {
    var anchors: [Int: Int] = [:]
    var arranged: [Int] = []
    for i in slots.indices where slots[i].lit {
      guard let position = slots[i].entry.position else {
        arranged.append(i)
        continue
      }
      if case .at(.absolute(let x, let y)) = position {
        slots[i].rect = Rect(x: x, y: y, width: slots[i].size.width, height: slots[i].size.height)
      } else if let name = position.target, let t = target(name, slots, profile), t != i, slots[t].lit,
        !Self.leadsBack(from: t, to: i, anchors)
      {
        anchors[i] = t
      } else {
        warnings.append(.anchorMissing(output: slots[i].head.name, position: "\(position)"))
        arranged.append(i)
      }
    }
    arrange(&slots, arranged, profile)
    for i in anchors.keys.sorted() { place(&slots, i, anchors) }
    let rects = slots.compactMap(\.rect)
    let (dx, dy) = (rects.map(\.x).min() ?? 0, rects.map(\.y).min() ?? 0)
    for i in slots.indices {
      slots[i].rect?.x -= dx
      slots[i].rect?.y -= dy
    }
  }

  /// Whether following anchors from `from` reaches `to` (a cycle through `main`).
  static func leadsBack(from: Int, to: Int, _ anchors: [Int: Int]) -> Bool {
    var next: Int? = from
    var steps = 0
    while let j = next, steps <= anchors.count {
      if j == to { return true }
      next = anchors[j]
      steps += 1
    }
    return false
  }

  /// Lays out `indices` in config order without gaps or overlap, after the placed slots,
  /// lined up by the profile's `align`.
  func arrange(_ slots: inout [ProfileSlot], _ indices: [Int], _ profile: Profile) {
    let placed = slots.compactMap(\.rect)
    let row = profile.arrange == .row
    var x = row ? placed.map { $0.x + $0.width }.max() ?? 0 : placed.map(\.x).min() ?? 0
    var y = row ? placed.map(\.y).min() ?? 0 : placed.map { $0.y + $0.height }.max() ?? 0
    let cross = indices.map { row ? slots[$0].size.height : slots[$0].size.width }.max() ?? 0
    for i in indices {
      let (w, h) = slots[i].size
      let gap = cross - (row ? h : w)
      let offset = profile.align == .start ? 0 : profile.align == .center ? gap / 2 : gap
      slots[i].rect = Rect(x: row ? x : x + offset, y: row ? y + offset : y, width: w, height: h)
      if row { x += w } else { y += h }
    }
  }

  /// Places a slot against its anchor (placed first), pushed along past any slot there
  /// (`PositionRequest.origin`); a `same-as` entry at its target's place.
  func place(_ slots: inout [ProfileSlot], _ i: Int, _ anchors: [Int: Int]) {
    guard slots[i].rect == nil, let t = anchors[i] else { return }
    place(&slots, t, anchors)
    guard let target = slots[t].rect else { return }
    let (w, h) = slots[i].size
    guard case .at(let request) = slots[i].entry.position else {
      slots[i].rect = Rect(x: target.x, y: target.y, width: w, height: h)
      return
    }
    let origin = request.origin((w, h), beside: target, avoiding: slots.compactMap(\.rect))
    slots[i].rect = Rect(x: origin.x, y: origin.y, width: w, height: h)
  }
}
