/// Putting back the layout automatic choice had before a layout was chosen by hand, over the
/// output-management port's values. Keyed by head name. Pure.
public enum LayoutRestore {
  /// The configuration that gives every monitor still present (same connector, same EDID,
  /// make, model and serial) the mode, place, transform and scale it had in `saved`, turns
  /// off those that were off, and gives the primary back. Monitors that `saved` did not know
  /// keep what they have (automatic choice arranges them next), and so do known ones whose
  /// old mode they no longer list. Never a dark desk: nothing lit afterwards is an empty
  /// configuration. Heads in `keptOff` (a panel whose lid is closed) are not lit again: the
  /// lid policy would turn them off at once. The plan configures the heads it restores.
  ///
  /// The desk has a screen (X's, which the daemon reads beside the heads), whose size is
  /// the backend's: the physical size is the one `screen.saved` had when the screen that
  /// holds every head lit afterwards is the size it had then, else left as it is (X keeps
  /// the vertical DPI when the screen's size changes). Refused with a warning, nothing sent,
  /// when that screen would be larger than the server's largest.
  public static func plan(
    saved: HeadSnapshot, now: HeadSnapshot, keptOff: Set<String> = [], screen: (saved: ScreenSize, now: ScreenSize)
  ) -> RulePlan {
    var (plan, lit) = restore(saved: saved, now: now, keptOff: keptOff)
    guard !lit.isEmpty else { return plan }
    let (was, size) = screen
    let width = max(size.minWidth, lit.map { $0.x.addingReportingOverflow($0.width).partialValue }.max() ?? 0)
    let height = max(size.minHeight, lit.map { $0.y.addingReportingOverflow($0.height).partialValue }.max() ?? 0)
    guard size.holds(width, height) else {
      let empty = OutputConfiguration(generation: plan.configuration.generation, heads: [])
      return RulePlan(configuration: empty, warnings: [.restoreTooLarge(width: width, height: height)])
    }
    if (width, height) == (was.width, was.height), (was.mmWidth, was.mmHeight) != (size.mmWidth, size.mmHeight) {
      plan.configuration.physicalSize = PhysicalSize(width: was.mmWidth, height: was.mmHeight)
    }
    return plan
  }

  /// The restore, with the areas the heads lit afterwards cover (none when it would leave
  /// the desk dark, which it refuses).
  static func restore(saved: HeadSnapshot, now: HeadSnapshot, keptOff: Set<String>) -> (plan: RulePlan, lit: [Rect]) {
    let (saved, now) = (saved.bounded().snapshot, now.bounded().snapshot)
    var offs: [HeadConfiguration] = []
    var sets: [HeadConfiguration] = []
    var restored: Set<String> = []
    var litAfter = false
    var lit: [Rect] = []
    for head in now.heads {
      guard let before = known(head, saved, keptOff) else {
        litAfter = litAfter || head.enabled
        if let rect = head.rect { lit.append(rect) }
        continue
      }
      if let wanted = wanted(before, head) {
        restored.insert(head.name)
        litAfter = true
        if let rect = area(wanted, head) { lit.append(rect) }
        if !shows(head, wanted) { sets.append(wanted) }
      } else if before.enabled {
        // Lit before, its mode gone: it keeps what it has.
        litAfter = litAfter || head.enabled
        if let rect = head.rect { lit.append(rect) }
      } else if head.enabled {
        offs.append(.off(head.name))
      }
    }
    guard litAfter else {
      return (RulePlan(configuration: OutputConfiguration(generation: now.generation, heads: [])), [])
    }
    let primary = saved.primary.flatMap { restored.contains($0) && $0 != now.primary ? $0 : nil }
    // Heads going off first, as the profile planner orders them.
    let configuration = OutputConfiguration(generation: now.generation, heads: offs + sets, primary: primary)
    return (RulePlan(configuration: configuration, configures: restored), lit)
  }

  /// The area a head covers as `wanted` lights it: the mode asked, turned and scaled as the
  /// head's backend rounds it.
  static func area(_ wanted: HeadConfiguration, _ head: Head) -> Rect? {
    guard case .listed(let width, let height, _)? = wanted.mode,
      let size = head.scaledArea.size(width: width, height: height, transform: wanted.transform, scale: wanted.scale)
    else { return nil }
    return Rect(x: wanted.x, y: wanted.y, width: size.width, height: size.height)
  }

  /// The head as `saved` had it when it is the same monitor, connected then and now, and
  /// not kept off; nil for a monitor `saved` did not know.
  static func known(_ head: Head, _ saved: HeadSnapshot, _ keptOff: Set<String>) -> Head? {
    guard head.connected, !keptOff.contains(head.name), let before = saved.head(named: head.name), before.connected,
      before.edid == head.edid, (before.make, before.model, before.serial) == (head.make, head.model, head.serial)
    else { return nil }
    return before
  }

  /// What a head lit in `saved` gets back: the mode it showed (when it still lists it), its
  /// place, transform and scale (where it can scale); nil when it was off or lists that
  /// mode no more.
  static func wanted(_ before: Head, _ head: Head) -> HeadConfiguration? {
    guard before.enabled, let old = before.mode, let mode = head.modes.first(where: { same($0, old) }) else {
      return nil
    }
    return HeadConfiguration(
      name: head.name, enabled: true, mode: PlannedMode(mode).request, x: before.x, y: before.y,
      // A head that cannot scale now (it refused a scale transform) is put back unscaled:
      // asked its old scale, it would be refused again and again.
      transform: before.transform, spelling: before.spelling, scale: head.capabilities.scaling ? before.scale : 1)
  }

  /// Whether the head shows what `wanted` asks already: its mode, place, transform and scale.
  static func shows(_ head: Head, _ wanted: HeadConfiguration) -> Bool {
    guard head.enabled, let mode = head.mode else { return false }
    return wanted.mode == PlannedMode(mode).request && (head.x, head.y) == (wanted.x, wanted.y)
      && head.transform == wanted.transform && head.scaledArea.sameScale(head.scale, wanted.scale)
  }

  /// Whether two modes are one timing as heads tell it: size, refresh to the mHz, interlace.
  static func same(_ a: HeadMode, _ b: HeadMode) -> Bool {
    (a.width, a.height, a.refreshMilliHz, a.interlaced) == (b.width, b.height, b.refreshMilliHz, b.interlaced)
  }
}
