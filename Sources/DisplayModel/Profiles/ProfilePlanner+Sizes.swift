// How the head profile planner turns, clones and scales its entries.
extension ProfilePlanner {
  /// Gives every lit slot the transform its head can show, and puts each `same-as` entry on
  /// its target (clones of clones after their targets) where heads tell that they can
  /// share: the clone lists the target's mode, its own has the target's size, and the
  /// target's head shows the clone's transform as the target's. Others are heads of their
  /// own, as is every clone in a ring of `same-as` (through `main`).
  func fit(_ slots: inout [ProfileSlot], _ profile: Profile, _ warnings: inout [PlanWarning]) {
    for i in slots.indices { slots[i].cloneOf = cloneTarget(i, slots, profile) }
    let clones = Set(slots.indices.filter { slots[$0].cloneOf != nil })
    let plain = slots.indices.filter { !clones.contains($0) && slots[$0].lit }
    for i in plain { turn(&slots[i], &warnings) }
    var done = Set(plain)
    while let i = clones.sorted().first(where: { c in
      !done.contains(c) && slots[c].cloneOf.map { done.contains($0) || !clones.contains($0) } == true
    }) {
      done.insert(i)
      if let t = slots[i].cloneOf, share(&slots, i, t) { continue }
      turn(&slots[i], &warnings)
    }
    for i in clones.sorted() where !done.contains(i) {
      slots[i].cloneOf = nil
      turn(&slots[i], &warnings)
    }
  }

  /// The transform the entry asks, else the nearest its head can show, with a warning.
  func turn(_ slot: inout ProfileSlot, _ warnings: inout [PlanWarning]) {
    let wanted = slot.entry.transform
    let can = slot.head.capabilities.transforms
    let shown = slot.head.capabilities.nearest(wanted)
    if !can.contains(wanted) {
      let offered = Transform.allCases.filter(can.contains)
      warnings.append(.headCannot(output: slot.head.name, transform: wanted, can: offered, instead: shown))
    }
    slot.transform = shown
    slot.spelling = Self.spelling(slot.head, slot.entry, shown)
  }

  /// The spelling of the transform a head gets: the entry's where it writes one
  /// (`reflect: "y"`, `"xy"`) and the head gets that transform; the head's own where it
  /// keeps the transform it shows; else the plainer. An entry's plain spelling is also
  /// what it has when it names no transform, so it never respells a head.
  static func spelling(_ head: Head, _ entry: ProfileOutput, _ shown: Transform) -> TransformSpelling {
    if shown == entry.transform && entry.transformSpelling != .turned { return entry.transformSpelling }
    return head.enabled && shown == head.transform ? head.spelling : .turned
  }

  /// Puts the clone `i` on what its target `t` shows, when heads tell it can: it then shows
  /// the mode, transform and scale of the head that shows it first.
  func share(_ slots: inout [ProfileSlot], _ i: Int, _ t: Int) -> Bool {
    let root = slots[t].sharesWith ?? t
    let target = slots[root]
    guard let mode = target.mode, let own = slots[i].mode, mode.listed != nil,
      (own.width, own.height) == (mode.width, mode.height), Self.lists(slots[i].head, mode),
      target.head.capabilities.nearest(slots[i].entry.transform) == target.transform
    else { return false }
    slots[i].sharesWith = root
    slots[i].modes = [mode]
    (slots[i].transform, slots[i].spelling) = (target.transform, target.spelling)
    return true
  }

  /// Whether the head lists a mode asked as `mode` is (by size and refresh).
  static func lists(_ head: Head, _ mode: PlannedMode) -> Bool {
    mode.listed != nil && head.modes.contains { PlannedMode($0).request == mode.request }
  }

  /// Each lit slot's scales and the size of the area it shows: its mode (sides swapped when
  /// turned a quarter) times its scale; a clone: its target's area.
  func sizeAll(_ slots: inout [ProfileSlot], _ profile: Profile, _ warnings: inout [PlanWarning]) {
    var done = Set<Int>()
    while let i = slots.indices.first(where: { i in
      !done.contains(i) && (slots[i].cloneOf.map { done.contains($0) } ?? true)
    }) {
      done.insert(i)
      guard slots[i].lit, let mode = slots[i].mode, let own = footprint(slots[i], mode, (1, 1)) else {
        continue
      }
      if let t = slots[i].cloneOf {
        sizeClone(&slots[i], own, slots[t], &warnings)
        continue
      }
      var scale = slots[i].entry.scale
      if !slots[i].head.scaledArea.sameScale(scale, 1) && !slots[i].head.capabilities.scaling {
        warnings.append(.cannotScale(output: slots[i].head.name, scale: scale))
        scale = 1
      }
      slots[i].scale = (scale, scale)
      slots[i].size = footprint(slots[i], mode, slots[i].scale) ?? own
    }
  }

  /// A clone shows its target's area: as the target where they share, at its own mode
  /// where the sizes agree, else scaled to it (unscaled, with a warning, where the head
  /// cannot scale or the scale would be beyond `ProfileOutput.scales`).
  func sizeClone(
    _ slot: inout ProfileSlot, _ own: (width: Int, height: Int), _ target: ProfileSlot, _ warnings: inout [PlanWarning]
  ) {
    let (fx, fy) = (Double(target.size.width) / Double(own.width), Double(target.size.height) / Double(own.height))
    if slot.sharesWith != nil {
      (slot.scale, slot.filter, slot.size) = (target.scale, target.filter, target.size)
    } else if own == target.size {
      (slot.scale, slot.size) = ((1, 1), target.size)
    } else if !slot.head.capabilities.scaling {
      warnings.append(.cloneCannotScale(output: slot.head.name))
      slot.size = own
    } else if !ProfileOutput.scales.contains(fx) || !ProfileOutput.scales.contains(fy) {
      warnings.append(.cloneTooFar(output: slot.head.name))
      slot.size = own
    } else if let mode = slot.mode {
      slot.scale = (fx, fy)
      slot.size = footprint(slot, mode, slot.scale) ?? own
    }
  }

  /// The area a mode covers on the slot's head turned, then scaled across and down, as its
  /// backend rounds it (`ScaledArea.footprint`); nil when it covers none.
  func footprint(_ slot: ProfileSlot, _ mode: PlannedMode, _ scale: (x: Double, y: Double)) -> (
    width: Int, height: Int
  )? {
    slot.head.scaledArea.footprint(width: mode.width, height: mode.height, transform: slot.transform, scale: scale)
  }
}
