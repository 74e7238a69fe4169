/// Something a plan could not do as asked and what it does instead: the planners' warnings
/// (rules, profiles, built-in layouts, the lid, a restore), logged by the daemon and listed
/// by `check-config`. `description` is the line.
public indirect enum PlanWarning: Hashable, Sendable, CustomStringConvertible {
  /// The output lacks the mode asked: `request` nil for the preferred one.
  case modeMissing(output: String, request: ModeRequest?, using: String)
  /// A custom request whose CVT timings do not fit a mode's fields (`CVT.modeLine`).
  case customTimingsUnfit(output: String, request: ModeRequest)
  /// A custom mode larger than the server's largest screen.
  case customTooLarge(output: String, mode: String, width: Int, height: Int, maxWidth: Int, maxHeight: Int)
  /// Two warnings about one output's mode, said in one line.
  case both(PlanWarning, PlanWarning)
  /// The output lists no modes: left alone (rules) or left off (profiles).
  case noModes(output: String, leftOff: Bool)
  /// A transform the head cannot show (by its capabilities), the ones it can, and the one
  /// it shows instead.
  case headCannot(output: String, transform: Transform, can: [Transform], instead: Transform)
  /// A `scale` on a head that cannot scale (by its capabilities).
  case cannotScale(output: String, scale: Double)
  /// A profile entry's preferred mode (turned) does not fit the largest screen.
  case profileModeTooLarge(output: String, mode: String, turned: Bool, maxWidth: Int, maxHeight: Int, instead: String)
  case screenTooLarge(width: Int, height: Int, maxWidth: Int, maxHeight: Int)
  /// Rules that ask for `enabled: false` on every lit output: kept on.
  case keptOn(outputs: [String])
  case primaryContested(outputs: [String], chosen: String)
  case primaryOff(output: String)
  /// What the rules ask of main that is not applied to it (`enabled: false`, ...).
  case mainLeftAsIs(output: String, asked: [String])
  case dpiWithoutSize(profile: String)
  case cloneCannotScale(output: String)
  case cloneTooFar(output: String)
  /// A position relative to an entry that is not lit.
  case anchorMissing(output: String, position: String)
  case restoreTooLarge(width: Int, height: Int)

  public var description: String {
    switch self {
    case .modeMissing(let output, let request, let using):
      let lacking = request.map { "no mode \($0)" } ?? "no preferred mode"
      return "\(output) has \(lacking); using \(using) instead"
    case .customTimingsUnfit(let output, let request):
      return "\(output): no CVT timings for \(request) fit RandR; not created"
    case .customTooLarge(let output, let mode, let width, let height, let maxWidth, let maxHeight):
      return "\(output): custom mode \(mode) (\(width)x\(height)) is larger than the server's maximum screen "
        + "\(maxWidth)x\(maxHeight); not created"
    case .both(let first, let second): return "\(first); \(second)"
    case .noModes(let output, let leftOff): return "\(output) lists no modes; left \(leftOff ? "off" : "alone")"
    case .headCannot(let output, let transform, let can, let instead):
      return "\(output) cannot show \(transform) (it can: \(can.map { "\($0)" }.joined(separator: ", "))); "
        + "\(instead) instead"
    case .cannotScale(let output, let scale): return "\(output) cannot scale; scale 1 instead of \(scale)"
    case .profileModeTooLarge(let output, let mode, let turned, let maxWidth, let maxHeight, let instead):
      return "\(output): \(mode)\(turned ? " turned" : "") does not fit within the server's maximum screen "
        + "\(maxWidth)x\(maxHeight); \(instead) instead"
    case .screenTooLarge(let width, let height, let maxWidth, let maxHeight):
      return "the layout needs a \(width)x\(height) screen, more than the server's \(maxWidth)x\(maxHeight)"
    case .keptOn(let outputs):
      return "\(outputs.joined(separator: ", ")): enabled false, but turning it off would leave no output lit; "
        + "left on (never a dark desk)"
    case .primaryContested(let outputs, let chosen):
      return "\(outputs.joined(separator: ", ")) all ask to be primary; \(chosen) is"
    case .primaryOff(let output): return "\(output) is primary but off; primary left as it is"
    case .mainLeftAsIs(let output, let asked):
      return "\(output) is main: a monitors rule's \(asked.joined(separator: ", ")) is not applied to main "
        + "(a profile can turn main off, rotate or scale it); left as it is"
    case .dpiWithoutSize(let profile):
      return "profile '\(profile)': dpi auto, but the monitor reports no physical size (or one over 10 m); left as is"
    case .cloneCannotScale(let output):
      return "\(output): its CRTC does not take transforms; shown unscaled at the place of its target"
    case .cloneTooFar(let output):
      return "\(output): its target's area is too far from its own size to scale; shown unscaled"
    case .anchorMissing(let output, let position):
      return "\(output): '\(position)' names no other lit entry; arranged instead"
    case .restoreTooLarge(let width, let height):
      return "the layout before the manual one needs a \(width)x\(height) screen, more than the server's maximum; "
        + "not restored"
    }
  }
}
