import DisplayModel

/// The layout automatic choice had when the first manual choice was made, put back when
/// automatic choice resumes.
struct SavedLayout {
  /// The heads then: what the restore gives back (`LayoutRestore`), and the mode main
  /// had (`DeskLayout.automaticMainMode`).
  var heads: HeadSnapshot
  /// The screen then: its physical size, which no head says, comes back with its size.
  var screen: ScreenSize

  init(heads: HeadSnapshot) {
    self.heads = heads
    screen = heads.screen ?? .none
  }
}

extension ScreenSize {
  /// No screen: what a snapshot that says none has (a bare output manager).
  static let none = ScreenSize(width: 0, height: 0, minWidth: 0, minHeight: 0, maxWidth: 0, maxHeight: 0)
}
