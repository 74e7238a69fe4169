import DisplayModel

/// The heads whose disconnect the daemon holds for its grace: the server calls them
/// disconnected, the daemon acts as if their monitors were still there (a monitor going to
/// sleep, a dock's hiccup). With them, the primary the daemon had: kept while it is one of
/// them (a server drops its primary with the output's monitor).
public struct HeldHeads: Hashable, Sendable {
  /// By head name.
  public var names: Set<String>
  /// The daemon's primary head before the read, kept while `names` holds it.
  public var primary: String?

  public init(_ names: Set<String> = [], primary: String? = nil) {
    self.names = names
    self.primary = primary
  }

  /// Nothing held: the server's heads as they are.
  public static let none = HeldHeads()

  /// The primary a view keeps when its read has none: the daemon's, while it is held.
  public var keptPrimary: String? { primary.flatMap { names.contains($0) ? $0 : nil } }
}

extension HeadSnapshot {
  /// These heads with every held one still connected (a head the snapshot no longer lists
  /// stays gone), and the primary kept while it is held and the snapshot has none: what a
  /// backend whose heads keep their monitor's identity when it goes (a compositor) holds.
  public func holding(_ held: HeldHeads) -> HeadSnapshot {
    guard !held.names.isEmpty else { return self }
    var view = self
    for i in view.heads.indices where held.names.contains(view.heads[i].name) { view.heads[i].connected = true }
    if view.primary == nil, let primary = held.keptPrimary { view.primary = primary }
    return view
  }
}
