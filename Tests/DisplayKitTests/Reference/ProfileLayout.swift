@testable import DisplayModel

// Sizes and places of the RandR-shaped reference `ProfilePlanner`.
extension ProfilePlanner {
  /// Each lit slot's transform and the size of the area it shows: its mode (sides swapped
  /// when turned a quarter) times its scale; a clone: its target's area.
  func sizeAll(_ slots: inout [Slot], _ profile: Profile, _ warnings: inout [PlanWarning]) {
    var done = Set<Int>()
    while let i = slots.indices.first(where: { i in
      !done.contains(i) && (cloneOf(i, slots, profile).map { done.contains($0) } ?? true)
    }) {
      done.insert(i)
      guard slots[i].lit, let mode = slots[i].mode, let crtc = slots[i].crtc,
        let size = mode.footprint(slots[i].rotation)
      else { continue }
      if let t = cloneOf(i, slots, profile) {
        sizeClone(&slots[i], mode, size, slots[t], transforms: !noTransform.contains(crtc.id), &warnings)
      } else {
        var f = FixedScale.fixed(slots[i].entry.scale)
        if f != FixedScale.one && noTransform.contains(crtc.id) {
          warnings.append(.noTransform(output: slots[i].output.name, scale: slots[i].entry.scale))
          f = FixedScale.one
        }
        slots[i].transform = FixedScale.transform(f, f, slots[i].entry.scaleFilter)
        slots[i].size = mode.footprint(slots[i].rotation, slots[i].transform) ?? size
      }
    }
  }

  /// An entry without a mode whose preferred mode, turned and scaled, needs more than the
  /// server's largest screen on its own takes the largest of its modes that fits, with a
  /// warning. When none fits, the choice stays and the screen check refuses the profile; a
  /// mode the entry names is never replaced.
  func fitMode(_ slot: inout Slot, _ warnings: inout [PlanWarning]) {
    guard slot.entry.mode == .preferred, let mode = slot.mode, let crtc = slot.crtc else { return }
    let f = noTransform.contains(crtc.id) ? FixedScale.one : FixedScale.fixed(slot.entry.scale)
    let (limit, rotation, transform) = (topology.screen.largest, slot.rotation, FixedScale.transform(f, f))
    let fits = { (m: Mode) -> Bool in
      m.footprint(rotation, transform).map { self.topology.screen.holds($0.width, $0.height) } ?? false
    }
    guard !fits(mode),
      let chosen = slot.modes.filter(fits).max(by: {
        ($0.width * $0.height, $0.refreshHz) < ($1.width * $1.height, $1.refreshHz)
      })
    else { return }
    warnings.append(
      .profileModeTooLarge(
        output: slot.output.name, mode: mode.name, turned: rotation.isQuarterTurn, maxWidth: limit.width,
        maxHeight: limit.height, instead: chosen.name))
    slot.modes = [chosen] + slot.modes.filter { $0.id != chosen.id }
  }

  /// A clone shows its target's area: on the target's CRTC, at its own mode where the sizes
  /// agree, else scaled to it by a transform (unscaled, with a warning, where the CRTC
  /// takes none).
  func sizeClone(
    _ slot: inout Slot, _ mode: Mode, _ own: (width: Int, height: Int), _ target: Slot, transforms: Bool,
    _ warnings: inout [PlanWarning]
  ) {
    if slot.sharesWith != nil {
      (slot.transform, slot.size) = (target.transform, target.size)
    } else if own == target.size {
      (slot.transform, slot.size) = (.identity, target.size)
    } else if !transforms {
      warnings.append(.cloneCannotScale(output: slot.output.name))
      slot.size = own
    } else if !ProfileOutput.scales.contains(Double(target.size.width) / Double(own.0))
      || !ProfileOutput.scales.contains(Double(target.size.height) / Double(own.1))
    {
      warnings.append(.cloneTooFar(output: slot.output.name))
      slot.size = own
    } else {
      let fx = FixedScale.fixed(Double(target.size.width) / Double(own.0))
      let fy = FixedScale.fixed(Double(target.size.height) / Double(own.1))
      slot.transform = FixedScale.transform(fx, fy, slot.entry.scaleFilter)
      slot.size = mode.footprint(slot.rotation, slot.transform) ?? own
    }
  }

  /// A `same-as` slot's target, when both are lit.
  func cloneOf(_ i: Int, _ slots: [Slot], _ profile: Profile) -> Int? {
    guard slots[i].lit, let t = cloneTarget(i, slots, profile), slots[t].lit else { return nil }
    return t
  }

  /// Places every lit slot: points first, then the entries without a position in a row or
  /// column after them, then those placed against another entry; then the whole layout is
  /// moved to start at 0,0.
  func layout(_ slots: inout [Slot], _ profile: Profile, _ warnings: inout [PlanWarning]) {
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
        !leadsBack(from: t, to: i, anchors)
      {
        anchors[i] = t
      } else {
        warnings.append(.anchorMissing(output: slots[i].output.name, position: "\(position)"))
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
  func leadsBack(from: Int, to: Int, _ anchors: [Int: Int]) -> Bool {
    var next: Int? = from
    var steps = 0
    while let j = next, steps <= anchors.count {
      if j == to { return true }
      next = anchors[j]
      steps += 1
    }
    return false
  }

  /// Lays out `indices` in config order without gaps or overlap, after the placed slots.
  func arrange(_ slots: inout [Slot], _ indices: [Int], _ profile: Profile) {
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

  /// Places a slot against its anchor (placed first), pushed along past any slot there.
  func place(_ slots: inout [Slot], _ i: Int, _ anchors: [Int: Int]) {
    guard slots[i].rect == nil, let t = anchors[i] else { return }
    place(&slots, t, anchors)
    guard let target = slots[t].rect else { return }
    let (w, h) = slots[i].size
    guard case .at(.relative(let relation, _)) = slots[i].entry.position else {
      slots[i].rect = Rect(x: target.x, y: target.y, width: w, height: h)  // same-as
      return
    }
    slots[i].rect = relation.place(width: w, height: h, beside: target, avoiding: slots.compactMap(\.rect))
  }
}
