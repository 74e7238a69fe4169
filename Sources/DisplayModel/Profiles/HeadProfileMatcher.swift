/// Which connected head each entry of a profile takes: `heads[i]` (a head's name) for
/// `profile.outputs[i]`.
public struct HeadProfileAssignment: Hashable, Sendable {
  public var heads: [String]
  public init(heads: [String]) { self.heads = heads }
}

/// `ProfileMatcher` over a snapshot of heads: the same rules (the `lid` condition, every
/// entry its own connected head, none left over, `non-desktop` heads not counted) and the
/// same deterministic assignment (entries without wildcards first, then config order; each
/// the first of its heads in connector-name order that leaves every later entry one of its
/// own). An entry's identity keys match the head's EDID, else the make, model and serial it
/// says (`HeadIdentity`, `vendors` for the PNP ids of a make), as the rules do. Pure.
public enum HeadProfileMatcher {
  /// The heads a profile must account for, sorted by connector name.
  public static func desk(_ snapshot: HeadSnapshot) -> [Head] {
    snapshot.heads.filter { $0.connected && !$0.nonDesktop }.sorted { $0.name < $1.name }
  }

  /// The assignment, or why the profile does not match.
  public static func match(_ profile: Profile, snapshot: HeadSnapshot, lid: LidState, vendors: PNPVendors = .none)
    -> Result<HeadProfileAssignment, ProfileMismatch>
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
    guard profile.outputs.count == heads.count, let taken = ProfileMatcher.assign(order, candidates) else {
      return .failure(.noAssignment(entries: profile.outputs.count, outputs: heads.map(\.name)))
    }
    return .success(HeadProfileAssignment(heads: taken.map { heads[$0].name }))
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
    -> (profile: Profile, assignment: HeadProfileAssignment)?
  {
    for profile in profiles {
      if case .success(let a) = match(profile, snapshot: snapshot, lid: lid, vendors: vendors) { return (profile, a) }
    }
    return nil
  }
}
