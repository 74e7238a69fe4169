/// The checks a profile needs beyond each key's own type and range: aliases unique, every
/// relative position's target known, no cycle among positions, at most one primary. Each
/// failure is a config error naming the profile and the key.
struct ProfileValidation {
  var profile: Profile
  var path: [CodingKey]

  func check() throws {
    try checkAliases()
    try checkPrimary()
    let edges = try targets()
    try checkCycles(edges)
  }

  func fail(_ keys: [CodingKey], _ message: String) -> DecodingError {
    .dataCorrupted(.init(codingPath: path + keys, debugDescription: "profile '\(profile.name)': \(message)"))
  }

  func entryPath(_ i: Int, _ key: String) -> [CodingKey] { [AnyKey("outputs"), IndexKey(i), AnyKey(key)] }

  func checkAliases() throws {
    var seen: [String: Int] = [:]
    for (i, entry) in profile.outputs.enumerated() {
      guard let alias = entry.alias else { continue }
      if alias == "main" || alias.isEmpty || alias.contains(" ") {
        throw fail(entryPath(i, "alias"), "'\(alias)' cannot be an alias (it must be a word other than main)")
      }
      if let first = seen[alias] {
        throw fail(entryPath(i, "alias"), "alias '\(alias)' is also the alias of outputs[\(first)]")
      }
      seen[alias] = i
    }
  }

  func checkPrimary() throws {
    let primaries = profile.outputs.indices.filter { profile.outputs[$0].primary }
    if primaries.count > 1 {
      throw fail(
        entryPath(primaries[1], "primary"), "outputs[\(primaries[0])] and outputs[\(primaries[1])] both say primary")
    }
  }

  /// For each entry, the entry its position depends on (nil for none or `main`); throws for
  /// a target that is no alias or output name of this profile.
  func targets() throws -> [Int?] {
    // `Profile.entry(named:)` as one lookup table: a scan per entry is quadratic.
    var named: [String: Int] = [:]
    for (i, entry) in profile.outputs.enumerated().reversed() {
      if let output = entry.match.output, !entry.match.hasWildcards { named[output] = i }
    }
    for (i, entry) in profile.outputs.enumerated().reversed() {
      if let alias = entry.alias { named[alias] = i }
    }
    return try profile.outputs.enumerated().map { i, entry in
      guard let target = entry.position?.target, target != "main" else { return nil }
      guard let j = named[target] else {
        throw fail(
          entryPath(i, "position"),
          "'\(entry.position?.description ?? "")' names '\(target)', which is no alias or output of this profile")
      }
      return j
    }
  }

  /// Follows each entry's target; coming back to an entry on the way is a cycle. An entry
  /// whose chain was followed to its end once is not followed again, so a long chain costs
  /// its length, not its cube.
  func checkCycles(_ edges: [Int?]) throws {
    var done = [Bool](repeating: false, count: edges.count)
    for start in edges.indices where !done[start] {
      var chain: [Int] = []
      var onChain: [Int: Int] = [:]
      var next: Int? = start
      while let j = next, !done[j] {
        if let k = onChain[j] {
          let names = (chain[k...] + [j]).map { profile.outputs[$0].label }
          throw fail([AnyKey("outputs")], "positions form a cycle: " + names.joined(separator: " → "))
        }
        onChain[j] = chain.count
        chain.append(j)
        next = edges[j]
      }
      for j in chain { done[j] = true }
    }
  }
}

extension Profile {
  /// The entry an alias names, else the entry whose `match.output` is exactly this name.
  public func entry(named name: String) -> Int? {
    if let i = outputs.firstIndex(where: { $0.alias == name }) { return i }
    return outputs.firstIndex { $0.match.output == name && !$0.match.hasWildcards }
  }
}
