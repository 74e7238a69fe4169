/// `LayoutRestore` over the output-management port's values: putting back the layout
/// automatic choice had before a layout was chosen by hand. Keyed by head name. Pure.
public enum HeadLayoutRestore {
  /// The configuration that gives every monitor still present (same connector, same EDID,
  /// make, model and serial) the mode, place, transform and scale it had in `saved`, turns
  /// off those that were off, and gives the primary back. Monitors that `saved` did not know
  /// keep what they have (automatic choice arranges them next), and so do known ones whose
  /// old mode they no longer list. Never a dark desk: nothing lit afterwards is an empty
  /// configuration. Heads in `keptOff` (a panel whose lid is closed) are not lit again: the
  /// lid policy would turn them off at once. The plan configures the heads it restores. The
  /// desk's physical size is no head's to say: it is left as it is (RandR keeps the
  /// vertical DPI when the screen's size changes); so is the screen, the backend's.
  public static func plan(saved: HeadSnapshot, now: HeadSnapshot, keptOff: Set<String> = []) -> HeadPlan {
    let (saved, now) = (saved.bounded().snapshot, now.bounded().snapshot)
    var offs: [HeadConfiguration] = []
    var sets: [HeadConfiguration] = []
    var restored: Set<String> = []
    var litAfter = false
    for head in now.heads {
      guard let before = known(head, saved, keptOff) else {
        litAfter = litAfter || head.enabled
        continue
      }
      if let wanted = wanted(before, head) {
        restored.insert(head.name)
        litAfter = true
        if !shows(head, wanted) { sets.append(wanted) }
      } else if before.enabled {
        // Lit before, its mode gone: it keeps what it has.
        litAfter = litAfter || head.enabled
      } else if head.enabled {
        offs.append(.off(head.name))
      }
    }
    guard litAfter else { return HeadPlan(configuration: OutputConfiguration(generation: now.generation, heads: [])) }
    let primary = saved.primary.flatMap { restored.contains($0) && $0 != now.primary ? $0 : nil }
    // Heads going off first, as the profile planner orders them.
    let configuration = OutputConfiguration(generation: now.generation, heads: offs + sets, primary: primary)
    return HeadPlan(configuration: configuration, configures: restored)
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
  /// place, transform and scale; nil when it was off or lists that mode no more.
  static func wanted(_ before: Head, _ head: Head) -> HeadConfiguration? {
    guard before.enabled, let old = before.mode, let mode = head.modes.first(where: { same($0, old) }) else {
      return nil
    }
    return HeadConfiguration(
      name: head.name, enabled: true, mode: PlannedMode(mode).request, x: before.x, y: before.y,
      transform: before.transform, spelling: before.spelling, scale: before.scale)
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
