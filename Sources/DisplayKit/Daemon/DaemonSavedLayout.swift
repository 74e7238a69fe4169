import DisplayModel

/// The layout automatic choice had when the first manual choice was made, put back when
/// automatic choice resumes.
struct SavedLayout {
  /// The heads then: what the restore gives back (`HeadLayoutRestore`).
  var heads: HeadSnapshot
  /// The topology then, for the mode main had (`Daemon.automaticMainMode`), which the
  /// built-in layouts over a topology take.
  var topology: Topology
  /// The screen then: its physical size, which no head says, comes back with its size.
  var screen: ScreenSize { topology.screen }
}
