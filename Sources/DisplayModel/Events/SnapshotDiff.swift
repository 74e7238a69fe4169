/// Derives hot-plug events from two head snapshots; pure, so it is tested without a server.
///
/// Heads are matched by name (a connector keeps its name; the first of two that share one
/// is taken). Events come in the order of the new snapshot's heads, disconnects of heads no
/// longer listed next, a change of the main head last. Beside what the X server's bits say, a
/// head says its identity without an EDID (a compositor's make, model and serial): a change of
/// it is an `edidChanged` too.
public enum SnapshotDiff {
  public static func events(from old: HeadSnapshot, to new: HeadSnapshot) -> [HeadEvent] {
    let before = byName(old)
    let after = byName(new)
    var events: [HeadEvent] = []
    for head in firsts(new) { events += changes(of: head, before: before(head.name)) }
    for gone in firsts(old) where gone.connected && after(gone.name) == nil {
      events.append(HeadEvent(kind: .disconnected, head: gone))
    }
    if let main = mainChange(old: old, new: new) { events.append(main) }
    return events
  }

  /// Each name's first head: looked for in order on a desk of a few heads, where a table
  /// of them costs more than the search.
  private static func byName(_ snapshot: HeadSnapshot) -> (String) -> Head? {
    guard snapshot.heads.count > 8 else { return { name in snapshot.heads.first { $0.name == name } } }
    let table = Dictionary(snapshot.heads.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    return { table[$0] }
  }

  /// The heads in order, each name's first only.
  private static func firsts(_ snapshot: HeadSnapshot) -> [Head] {
    if snapshot.namesAreUnique { return snapshot.heads }
    var seen: Set<String> = []
    return snapshot.heads.filter { seen.insert($0.name).inserted }
  }

  private static func changes(of head: Head, before: Head?) -> [HeadEvent] {
    switch (before?.connected ?? false, head.connected) {
    case (false, true): return [HeadEvent(.connected, showing: head)]
    case (true, false): return [HeadEvent(.disconnected, showing: head)]
    case (false, false): return []
    case (true, true): break
    }
    guard let before else { return [] }
    var result: [HeadEvent] = []
    if Scanout(before) != Scanout(head) { result.append(HeadEvent(.modeChanged, showing: head)) }
    if !sameMonitor(before, head) { result.append(HeadEvent(.edidChanged, showing: head)) }
    return result
  }

  /// The same EDID, and where there is none, the same make, model and serial.
  static func sameMonitor(_ a: Head, _ b: Head) -> Bool {
    guard a.edid == b.edid else { return false }
    return a.edid != nil || (a.make, a.model, a.serial) == (b.make, b.model, b.serial)
  }

  /// What a person sees of a head: its mode, area, transform and scale (nil while it is off).
  private struct Scanout: Equatable {
    var width, height, refreshMilliHz: Int
    var interlaced: Bool
    var rect: Rect?
    var transform: Transform
    /// X keeps the bits a transform is spelled with, and says when they change.
    var spelling: TransformSpelling
    var scale: Double
    var scaledArea: ScaledArea

    init?(_ head: Head) {
      guard head.enabled else { return nil }
      let mode = head.mode
      (width, height) = (mode?.width ?? 0, mode?.height ?? 0)
      (refreshMilliHz, interlaced) = (mode?.refreshMilliHz ?? 0, mode?.interlaced ?? false)
      (rect, transform, spelling) = (head.rect, head.transform, head.spelling)
      (scale, scaledArea) = (head.scale, head.scaledArea)
    }

    static func == (a: Scanout, b: Scanout) -> Bool {
      (a.width, a.height, a.refreshMilliHz, a.interlaced) == (b.width, b.height, b.refreshMilliHz, b.interlaced)
        && (a.rect, a.transform, a.spelling) == (b.rect, b.transform, b.spelling)
        && a.scaledArea == b.scaledArea && a.scaledArea.sameScale(a.scale, b.scale)
    }
  }

  private static func mainChange(old: HeadSnapshot, new: HeadSnapshot) -> HeadEvent? {
    guard old.primary != new.primary || old.mainHead?.name != new.mainHead?.name else { return nil }
    guard let main = new.mainHead ?? new.primary.flatMap(new.head(named:)) else { return nil }
    return HeadEvent(.primaryChanged, showing: main)
  }
}
