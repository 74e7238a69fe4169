extension HeadSnapshot {
  /// Heads a snapshot keeps: far more than any desk, few enough that planning stays quick.
  public static let maxHeads = 64
  /// Modes a head keeps: more than any monitor lists, and within the 12 bits of a mode slot
  /// the wire packs into a mode id (`HeadWireIDs.modeIDs`), so two modes never share an id.
  public static let maxModes = 1024

  /// Within bounds, and why not where it was not: a head whose name an earlier head has
  /// (the bridge's ids come from names) and the heads past `maxHeads` are left out, and a
  /// head's modes past `maxModes`, keeping its current and preferred modes. Pure.
  public func bounded() -> (snapshot: HeadSnapshot, warnings: [String]) {
    // Every desk is within bounds: the daemon asks several times per event.
    if isWithinBounds { return (self, []) }
    var warnings: [String] = []
    var seen: Set<String> = []
    var kept: [Head] = []
    for head in heads {
      guard seen.insert(head.name).inserted else {
        warnings.append("a second head named '\(head.name)' is left out")
        continue
      }
      kept.append(head)
    }
    if kept.count > Self.maxHeads {
      warnings.append("\(kept.count) heads listed: only the first \(Self.maxHeads) are used")
      kept = Array(kept.prefix(Self.maxHeads))
    }
    for i in kept.indices where kept[i].modes.count > Self.maxModes {
      warnings.append(
        "\(kept[i].name) lists \(kept[i].modes.count) modes: only \(Self.maxModes) are used")
      kept[i] = Self.trimmed(kept[i])
    }
    var result = self
    result.heads = kept
    return (result, warnings)
  }

  /// Whether `bounded()` would leave every head as it is: no name twice, at most `maxHeads`
  /// heads, none with more than `maxModes` modes.
  var isWithinBounds: Bool {
    heads.count <= Self.maxHeads && heads.allSatisfy { $0.modes.count <= Self.maxModes } && namesAreUnique
  }

  /// Whether no two heads share a name. Pairwise up to `maxHeads` heads: a desk has few,
  /// and a set of names costs more than comparing them.
  var namesAreUnique: Bool {
    guard heads.count <= Self.maxHeads else {
      var seen: Set<String> = []
      return heads.allSatisfy { seen.insert($0.name).inserted }
    }
    for (i, head) in heads.enumerated() {
      for other in heads[..<i] where other.name == head.name { return false }
    }
    return true
  }

  /// The head with `maxModes` modes in their order: the current one, the preferred ones,
  /// then the first of the rest.
  static func trimmed(_ head: Head) -> Head {
    let current = head.currentMode.flatMap { head.modes.indices.contains($0) ? $0 : nil }
    let preferred = head.modes.indices.filter { head.modes[$0].preferred && $0 != current }
    let others = head.modes.indices.filter { !head.modes[$0].preferred && $0 != current }
    let chosen = Set(((current.map { [$0] } ?? []) + preferred + others).prefix(Self.maxModes))
    let order = head.modes.indices.filter { chosen.contains($0) }
    var result = head
    result.modes = order.map { head.modes[$0] }
    result.currentMode = current.flatMap { order.firstIndex(of: $0) }
    return result
  }
}
