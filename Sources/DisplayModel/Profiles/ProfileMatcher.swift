/// Which connected output each entry of a profile takes: `outputs[i]` for `profile.outputs[i]`.
public struct ProfileAssignment: Hashable, Sendable {
  public var outputs: [OutputID]
  public init(outputs: [OutputID]) { self.outputs = outputs }
}

/// Why a profile does not match the monitors present.
public enum ProfileMismatch: Error, Hashable, Sendable, CustomStringConvertible {
  /// The profile's `lid` condition does not hold.
  case lid(LidState)
  /// No connected output matches this entry (numbered from 1).
  case noOutput(entry: Int, match: String)
  /// Connected outputs no entry matches.
  case leftOver([String])
  /// Each entry matches something, but they cannot each have their own output.
  case noAssignment(entries: Int, outputs: [String])

  public var description: String {
    switch self {
    case .lid(let lid): return "lid is \(lid.rawValue)"
    case .noOutput(let entry, let match): return "no connected output matches entry \(entry) (\(match))"
    case .leftOver(let names): return names.joined(separator: ", ") + (names.count == 1 ? " is" : " are") + " left over"
    case .noAssignment(let entries, let outputs):
      return "the \(entries) entries cannot each take their own output of " + outputs.joined(separator: ", ")
    }
  }
}

/// Matches profiles against the connected monitors.
///
/// A profile matches when its `lid` condition holds, every entry takes a distinct connected
/// output, and no connected output is left over (outputs marked `non-desktop`, such as
/// head-mounted displays, are not part of a desk and are not counted).
///
/// The assignment is deterministic: entries without wildcards (no `*`, `?` or `[` in any
/// match field, and at least one field) are placed first, then entries with wildcards; within
/// each group, config order. Each entry in turn takes the first of its matching, unassigned
/// outputs in connector-name order that still leaves every later entry an output of its own
/// (the first answer a backtracking search would give, checked with a bipartite matching so
/// it takes polynomial time). So a valid assignment is found whenever one exists, and it is
/// always the same one. Two identical monitors (same EDID) are
/// told apart by connector: with `output` globs by the glob, else by name order.
public enum ProfileMatcher {
  /// The outputs a profile must account for, sorted by connector name.
  public static func desk(_ topology: Topology) -> [Output] {
    topology.connectedOutputs.filter { !$0.nonDesktop }.sorted { $0.name < $1.name }
  }

  /// The assignment, or why the profile does not match.
  public static func match(_ profile: Profile, topology: Topology, lid: LidState) -> Result<
    ProfileAssignment, ProfileMismatch
  > {
    guard profile.lid.holds(lid) else { return .failure(.lid(lid)) }
    let outputs = desk(topology)
    let candidates = profile.outputs.map { entry in
      outputs.indices.filter { entry.match.matches(outputs[$0], outputs[$0].identity) }
    }
    if let i = candidates.firstIndex(where: \.isEmpty) {
      return .failure(.noOutput(entry: i + 1, match: profile.outputs[i].match.summary))
    }
    let unmatched = outputs.indices.filter { o in !candidates.contains { $0.contains(o) } }
    if !unmatched.isEmpty { return .failure(.leftOver(unmatched.map { outputs[$0].name })) }
    let order = profile.outputs.indices.sorted { a, b in
      let (wa, wb) = (profile.outputs[a].match.hasWildcards, profile.outputs[b].match.hasWildcards)
      return wa != wb ? !wa : a < b
    }
    guard profile.outputs.count == outputs.count, let taken = assign(order, candidates) else {
      return .failure(.noAssignment(entries: profile.outputs.count, outputs: outputs.map(\.name)))
    }
    return .success(ProfileAssignment(outputs: taken.map { outputs[$0].id }))
  }

  /// Entry by entry in `order`, the first candidate that still lets the remaining entries
  /// each have their own output: what a backtracking search finds first, without its
  /// exponential worst case. `result[entry]` is an index into the outputs.
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

  /// Whether every entry can have its own output outside `excluding` (Kuhn's augmenting paths).
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

  /// The first profile that matches, with its assignment.
  public static func choose(_ profiles: [Profile], topology: Topology, lid: LidState) -> (
    profile: Profile, assignment: ProfileAssignment
  )? {
    for profile in profiles {
      if case .success(let a) = match(profile, topology: topology, lid: lid) { return (profile, a) }
    }
    return nil
  }
}
