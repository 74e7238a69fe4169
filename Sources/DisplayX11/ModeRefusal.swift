import DisplayModel

/// Why one candidate mode of a change did not take: an apply that runs out of candidates
/// names each in turn.
enum ModeRefusal: CustomStringConvertible {
  /// The server would not make or show a custom mode (`name`, else the virtual id).
  case custom(name: String, why: String)
  /// The screen cannot grow to hold the mode.
  case screenTooSmall(ModeID)
  /// The server refused to set the CRTC to it.
  case refused(ModeID, why: String)
  /// The configuration timestamp went stale on both tries.
  case stale(ModeID)

  var description: String {
    switch self {
    case .custom(let name, let why): "custom mode \(name): \(why)"
    case .screenTooSmall(let mode): "mode \(mode): the screen cannot grow to hold it"
    case .refused(let mode, let why): "mode \(mode): \(why)"
    case .stale(let mode): "mode \(mode): config timestamp stale twice"
    }
  }
}
