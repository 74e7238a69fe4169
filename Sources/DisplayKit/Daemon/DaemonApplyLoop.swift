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

extension Daemon {
  /// Whether no connected head is lit (a disconnect waiting for its grace counts as lit):
  /// after a rolled-back apply, the loop plans again, a few rounds at most, rather than
  /// leave a dark desk until the next change.
  var deskIsDark: Bool { Self.isDark(heads) }

  /// Whether desktop heads are connected and none of them is lit: enabled with a mode it
  /// lists (a head showing a mode it does not list, as a compositor's custom mode, is the
  /// topology the heads bridge makes of it: no CRTC lit). A non-desktop head (a headset)
  /// neither lights nor darkens the desk.
  static func isDark(_ snapshot: HeadSnapshot) -> Bool {
    let desk = snapshot.heads.filter { $0.connected && !$0.nonDesktop }
    return !desk.isEmpty && !desk.contains { $0.enabled && $0.mode != nil }
  }
}
