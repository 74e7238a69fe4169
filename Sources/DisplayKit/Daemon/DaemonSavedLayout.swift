import DisplayModel

/// The layout automatic choice had when the first manual choice was made, put back when
/// automatic choice resumes.
struct SavedLayout {
  /// The heads then: what the restore gives back (`HeadLayoutRestore`), and the mode main
  /// had (`Daemon.automaticMainMode`).
  var heads: HeadSnapshot
  /// The screen then: its physical size, which no head says, comes back with its size.
  var screen: ScreenSize

  init(heads: HeadSnapshot, topology: Topology) {
    self.heads = heads
    screen = topology.screen
  }
}
