// What the head profile planner sends: the heads that change, the primary, the dpi.
extension ProfilePlanner {
  /// The lit heads that differ from what they show now (entries first, then clones that
  /// show heads of their own, in the order X lights them), the clones sharing another head's
  /// picture (that head sent too, unless all of them already show it), then the heads
  /// turned off: the profile's that are not lit, and those whose monitor is gone.
  func changes(_ slots: [ProfileSlot]) -> [HeadConfiguration] {
    var plain: [HeadConfiguration] = []
    var ownClones: [HeadConfiguration] = []
    var sharing: [HeadConfiguration] = []
    for (i, slot) in slots.enumerated() where slot.lit && slot.sharesWith == nil {
      guard let configuration = configuration(i, slots) else { continue }
      // A snapshot does not say which heads share a scan-out: a clone showing its target's
      // mode, place, transform and area already shows its picture.
      let clones = slots.filter { $0.lit && $0.sharesWith == i }
      guard !clones.allSatisfy({ unchanged($0, at: slot.rect) }) || !unchanged(slot, at: slot.rect) else { continue }
      if slot.cloneOf == nil { plain.append(configuration) } else { ownClones.append(configuration) }
      for clone in clones {
        var shown = configuration
        (shown.name, shown.sameAs) = (clone.head.name, slot.head.name)
        sharing.append(shown)
      }
    }
    let dark = Set(slots.filter { !$0.lit }.map(\.head.name))
    let offs = snapshot.heads.filter { $0.enabled && (!$0.connected || dark.contains($0.name)) }
    return plain + ownClones + sharing + offs.map { .off($0.name) }
  }

  /// What the slot `i` asks of its head: its mode, the further modes of that size (that
  /// the clones sharing it list too), its place, transform and scales. The mode is the
  /// default choice when the entry asks none (`HeadConfiguration.modeIsDefault`).
  func configuration(_ i: Int, _ slots: [ProfileSlot]) -> HeadConfiguration? {
    let slot = slots[i]
    guard let mode = slot.mode, let rect = slot.rect else { return nil }
    let clones = slots.filter { $0.lit && $0.sharesWith == i }
    let fallbacks = slot.modes.dropFirst().filter { m in
      (m.width, m.height) == (mode.width, mode.height) && Self.lists(slot.head, m)
        && clones.allSatisfy { Self.lists($0.head, m) }
    }
    let (sx, sy) = slot.scale
    // A clone on a head of its own is scaled to its target's area: another mode would show
    // another area, so its mode is not the backend's to change.
    let isDefault = slot.entry.mode == .preferred && slot.entry.custom == nil && slot.cloneOf == nil
    return HeadConfiguration(
      name: slot.head.name, enabled: true, mode: mode.request, fallbackModes: fallbacks.map(\.request), x: rect.x,
      y: rect.y, transform: slot.transform, spelling: slot.spelling, scale: sx,
      scaleY: slot.head.scaledArea.sameScale(sy, sx) ? nil : sy,
      scaleFilter: slot.filter, modeIsDefault: isDefault)
  }

  /// Whether the head already shows this: lit at the mode, transform and place (`rect`: a
  /// clone's is its target's, where it is shown whatever the layout made of it), covering
  /// the slot's area (so at its scale).
  func unchanged(_ slot: ProfileSlot, at rect: Rect?) -> Bool {
    let head = slot.head
    guard head.enabled, let mode = slot.mode, let listed = mode.listed, let rect, let shown = head.rect
    else { return false }
    // A clone sharing its target's picture shows the target's mode, as its own list has it.
    let same = slot.sharesWith == nil ? head.mode == listed : head.mode.map(PlannedMode.init)?.request == mode.request
    return same && (head.x, head.y) == (rect.x, rect.y) && head.transform == slot.transform
      && (shown.width, shown.height) == slot.size
  }

  /// The head the profile makes primary, when it is not already. With no `primary` entry
  /// and the primary head turned off, main (`mainSlot`) takes its place.
  func primary(_ slots: [ProfileSlot], _ warnings: inout [PlanWarning]) -> String? {
    var wanted: ProfileSlot?
    if let p = slots.first(where: \.entry.primary) {
      if p.lit { wanted = p } else { warnings.append(.primaryOff(output: p.head.name)) }
    } else if let current = snapshot.primary, slots.contains(where: { $0.head.name == current && !$0.lit }) {
      wanted = mainSlot(slots).map { slots[$0] }
    }
    guard let name = wanted?.head.name, name != snapshot.primary else { return nil }
    return name
  }

  /// The profile's `dpi`, measured for `auto`: nil when it has none, or when `auto` finds no
  /// physical size (with a warning: left as is).
  func dpi(_ slots: [ProfileSlot], _ profile: Profile, _ warnings: inout [PlanWarning]) -> Double? {
    switch profile.dpi {
    case nil: return nil
    case .fixed(let value): return value
    case .auto:
      guard let measured = autoDPI(slots) else {
        warnings.append(.dpiWithoutSize(profile: profile.name))
        return nil
      }
      return measured
    }
  }

  /// The desk's physical size for `dpi`: its lit area at that resolution. Heads do not say
  /// the desk's size now, so it is sent even where it is already in force.
  func physicalSize(_ dpi: Double, _ slots: [ProfileSlot]) -> PhysicalSize? {
    let rects = slots.compactMap { $0.lit ? $0.rect : nil }
    guard dpi > 0, let right = rects.map({ $0.x + $0.width }).max(), let bottom = rects.map({ $0.y + $0.height }).max()
    else { return nil }
    let millimetres = { (pixels: Int) in max(1, Int(exactly: (Double(pixels) * 25.4 / dpi).rounded()) ?? Int.max) }
    return PhysicalSize(width: millimetres(right), height: millimetres(bottom))
  }

  /// Pixels per inch of the desktop on the primary (else first lit) monitor: the height of
  /// the area it shows over its physical height (the head's, else its EDID's). A size no
  /// monitor has counts as none (`PhysicalSize(reportedWidth:height:)`): backends and EDIDs
  /// may report anything.
  func autoDPI(_ slots: [ProfileSlot]) -> Double? {
    guard let slot = slots.first(where: { $0.lit && $0.entry.primary }) ?? slots.first(where: \.lit) else {
      return nil
    }
    let edid = { () -> PhysicalSize? in
      guard let cm = slot.head.edid.flatMap({ try? EDID(bytes: $0) })?.maxImageSizeCm else { return nil }
      return PhysicalSize(reportedWidth: cm.width * 10, height: cm.height * 10)
    }
    guard let mm = slot.head.physicalSize ?? edid(), slot.size.height > 0 else { return nil }
    let physical = slot.transform.swapsAxes ? mm.width : mm.height
    return Double(slot.size.height) * 25.4 / Double(physical)
  }
}
