/// Which connected head each entry of a profile takes: `heads[i]` (a head's name) for
/// `profile.outputs[i]`.
public struct ProfileAssignment: Hashable, Sendable {
  public var heads: [String]
  public init(heads: [String]) { self.heads = heads }
}

/// Matches profiles against the connected heads. Pure.
///
/// A profile matches when its `lid` condition holds, every entry takes a distinct connected
/// head, and no connected head is left over (heads marked `non-desktop`, such as head-mounted
/// displays, are not part of a desk and are not counted). An entry's identity keys match the
/// head's EDID, else the make, model and serial it says (`HeadIdentity`, `vendors` for the
/// PNP ids of a make), as the rules do.
///
/// The assignment is deterministic: entries without wildcards (no `*`, `?` or `[` in any
/// match field, and at least one field) are placed first, then entries with wildcards; within
/// each group, config order. Each entry in turn takes the first of its matching, unassigned
/// heads in connector-name order that still leaves every later entry a head of its own (the
/// first answer a backtracking search would give, checked with a bipartite matching so it
/// takes polynomial time). So a valid assignment is found whenever one exists, and it is
/// always the same one. Two identical monitors (same EDID) are told apart by connector: with
/// `output` globs by the glob, else by name order.
public enum ProfileMatcher {
  /// The heads a profile must account for, sorted by connector name.
  public static func desk(_ snapshot: HeadSnapshot) -> [Head] {
    snapshot.heads.filter { $0.connected && !$0.nonDesktop }.sorted { $0.name < $1.name }
  }

  /// The assignment, or why the profile does not match.
  public static func match(_ profile: Profile, snapshot: HeadSnapshot, lid: LidState, vendors: PNPVendors = .none)
    -> Result<ProfileAssignment, ProfileMismatch>
  {
    guard profile.lid.holds(lid) else { return .failure(.lid(lid)) }
    let heads = desk(snapshot.bounded().snapshot)
    let candidates = profile.outputs.map { entry in
      heads.indices.filter { matches(entry.match, heads[$0], vendors: vendors) }
    }
    if let i = candidates.firstIndex(where: \.isEmpty) {
      return .failure(.noOutput(entry: i + 1, match: profile.outputs[i].match.summary))
    }
    let unmatched = heads.indices.filter { h in !candidates.contains { $0.contains(h) } }
    if !unmatched.isEmpty { return .failure(.leftOver(unmatched.map { heads[$0].name })) }
    let order = profile.outputs.indices.sorted { a, b in
      let (wa, wb) = (profile.outputs[a].match.hasWildcards, profile.outputs[b].match.hasWildcards)
      return wa != wb ? !wa : a < b
    }
    guard profile.outputs.count == heads.count, let taken = assign(order, candidates) else {
      return .failure(.noAssignment(entries: profile.outputs.count, outputs: heads.map(\.name)))
    }
    return .success(ProfileAssignment(heads: taken.map { heads[$0].name }))
  }

  /// Whether an entry's match holds for the head: its connector name, and its EDID or else
  /// what the monitor says of itself.
  static func matches(_ match: MonitorMatch, _ head: Head, vendors: PNPVendors) -> Bool {
    let edid = head.edid.flatMap { try? EDID(bytes: $0) }
    let identity =
      edid == nil ? HeadIdentity(make: head.make, model: head.model, serial: head.serial, vendors: vendors) : nil
    return match.matches(name: head.name, edid, identity: identity)
  }

  /// The first profile that matches, with its assignment.
  public static func choose(_ profiles: [Profile], snapshot: HeadSnapshot, lid: LidState, vendors: PNPVendors = .none)
    -> (profile: Profile, assignment: ProfileAssignment)?
  {
    for profile in profiles {
      if case .success(let a) = match(profile, snapshot: snapshot, lid: lid, vendors: vendors) { return (profile, a) }
    }
    return nil
  }

  /// Entry by entry in `order`, the first candidate that still lets the remaining entries
  /// each have their own head: what a backtracking search finds first, without its
  /// exponential worst case. `result[entry]` is an index into the heads.
  static func assign(_ order: [Int], _ candidates: [[Int]]) -> [Int]? {
    var result = [Int](repeating: -1, count: candidates.count)
    var used = Set<Int>()
    for (k, entry) in order.enumerated() {
      let rest = order[(k + 1)...].map { candidates[$0] }
      guard
        let o = candidates[entry].first(where: { o in
          !used.contains(o) && perfectMatching(rest, excluding: used.union([o]))
        })
      else { return nil }
      result[entry] = o
      used.insert(o)
    }
    return result
  }

  /// Whether every entry can have its own head outside `excluding` (Kuhn's augmenting paths).
  static func perfectMatching(_ entries: [[Int]], excluding: Set<Int>) -> Bool {
    var owner: [Int: Int] = [:]
    func augment(_ e: Int, _ seen: inout Set<Int>) -> Bool {
      for o in entries[e] where !excluding.contains(o) && seen.insert(o).inserted {
        if let other = owner[o], !augment(other, &seen) { continue }
        owner[o] = e
        return true
      }
      return false
    }
    for e in entries.indices {
      var seen = Set<Int>()
      if !augment(e, &seen) { return false }
    }
    return true
  }
}
