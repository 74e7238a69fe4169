import DisplayModel

/// What the apply loop's caller says in its words: who is planned, and what a monitor
/// whose CRTC refused a transform gets instead.
struct ApplyWording {
  /// Named in the warning for refused rotations: "profile 'desk'" (the profile may change
  /// between rounds).
  var subject: () -> String
  /// Said after a refused transform: "scale 1 instead".
  var unscaled: String
}
