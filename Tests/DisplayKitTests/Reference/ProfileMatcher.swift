import DisplayX11

@testable import DisplayModel

/// Which connected output each entry of a profile takes: `outputs[i]` for `profile.outputs[i]`
/// (`HeadProfileAssignment` over RandR's outputs).
struct ProfileAssignment: Hashable, Sendable {
  var outputs: [OutputID]
}

/// Matches profiles against RandR's connected outputs: the RandR-shaped reference
/// `HeadProfileMatcher` is pinned against in the differential tests, with the same rules and
/// the same assignment (`HeadProfileMatcher.assign`) over outputs instead of heads.
enum ProfileMatcher {
  /// The outputs a profile must account for, sorted by connector name.
  static func desk(_ topology: Topology) -> [Output] {
    topology.connectedOutputs.filter { !$0.nonDesktop }.sorted { $0.name < $1.name }
  }

  /// The assignment, or why the profile does not match.
  static func match(_ profile: Profile, topology: Topology, lid: LidState) -> Result<
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
    guard profile.outputs.count == outputs.count, let taken = HeadProfileMatcher.assign(order, candidates) else {
      return .failure(.noAssignment(entries: profile.outputs.count, outputs: outputs.map(\.name)))
    }
    return .success(ProfileAssignment(outputs: taken.map { outputs[$0].id }))
  }

  /// The first profile that matches, with its assignment.
  static func choose(_ profiles: [Profile], topology: Topology, lid: LidState) -> (
    profile: Profile, assignment: ProfileAssignment
  )? {
    for profile in profiles {
      if case .success(let a) = match(profile, topology: topology, lid: lid) { return (profile, a) }
    }
    return nil
  }
}
