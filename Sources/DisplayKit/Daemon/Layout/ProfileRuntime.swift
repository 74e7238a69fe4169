import DisplayModel

/// The daemon's memory of profiles and the lid.
struct ProfileRuntime {
  var active = ActiveProfile(name: nil, reason: .none)
  /// The active profile and the heads its entries took, for the windows.
  var chosen: ProfileChoice?
  /// Whether a profile is chosen, without a copy of it.
  var hasChosen: Bool {
    guard case .some = chosen else { return false }
    return true
  }
  /// The profile or built-in layout chosen by hand, and the desk it was chosen on.
  var manual: (choice: LayoutChoice, desk: DeskKey)?
  /// The layout automatic choice had when the first manual choice was made: put back when
  /// automatic choice resumes.
  var automaticLayout: SavedLayout?
  /// The heads the daemon had lit then (`DeskLayout.litByDaemon`): what a put-back layout
  /// holds lit as automatic choice had it is lit by whom it was then, not by the choice.
  var automaticLit: Set<String> = []
  /// The profile last brought into force (or that failed), and the desk then.
  var applied: (name: String, desk: DeskKey)?
  /// Whether the last apply of the chosen profile failed (and was rolled back).
  var failed = false
  /// The server reset a monitor of the desk (`DeskLayout.serverReset`): the profile in force is
  /// planned again once, though the desk is the same.
  var serverReset = false
  /// The desk the lid policy last ran for, and where the panel was before it went off.
  var lidDesk: DeskKey?
  var panelRect: Rect?
  /// The profile's `dpi` as last planned (measured for `auto`; nil for none or an
  /// unmeasurable `auto`): what `Xft.dpi` gets when it comes into force.
  var plannedDPI: Double?
}

/// A profile and the heads its entries take.
typealias ProfileChoice = (profile: Profile, assignment: ProfileAssignment)
