/// Which of the X server's two spellings of one head transform a config wrote. A half turn commutes
/// with every other transform, so `reflect y` is a half turn more with `reflect x`, and both
/// reflections together are a half turn: `rotate: "inverted"` and `reflect: "xy"` show one
/// picture, as do `rotate: "left", reflect: "y"` and `rotate: "right", reflect: "x"`. Other
/// display servers know only the transform; X keeps the rotation and reflections it is given
/// (status, events and `profile save` show them), and a head there may offer one spelling and
/// not the other (both reflections but no half turn), so the X backend sets the spelling the
/// config wrote.
public enum TransformSpelling: Hashable, Sendable, CaseIterable {
  /// The transform's quarter turns, with `reflect x` when it is flipped (`rotate: "inverted"`).
  case turned
  /// A half turn more, with `reflect y`, and `reflect x` too when it is not flipped
  /// (`reflect: "xy"`, `reflect: "y"`).
  case reflectedY
}

extension RotateRequest {
  /// The quarter turns counter-clockwise this names: 0 for `normal`, 1 for `left`.
  public var quarterTurns: Int {
    switch self {
    case .normal: return 0
    case .left: return 1
    case .inverted: return 2
    case .right: return 3
    }
  }

  /// The word for `turns` quarter turns counter-clockwise.
  public init(quarterTurns turns: Int) {
    self = [RotateRequest.normal, .left, .inverted, .right][(turns % 4 + 4) % 4]
  }
}

extension Transform {
  /// The transform a config's `rotate` and `reflect` ask for, and how they spell it: the
  /// turns of `rotate`, a half turn more for `reflect y`, flipped when exactly one axis is
  /// reflected.
  public static func requested(_ rotate: RotateRequest, _ reflect: ReflectRequest) -> (
    transform: Transform, spelling: TransformSpelling
  ) {
    let (x, y) = (reflect == .x || reflect == .xy, reflect == .y || reflect == .xy)
    let turns = rotate.quarterTurns + (y ? 2 : 0)
    let transform = Transform(rawValue: turns % 4 + (x != y ? 4 : 0)) ?? .normal
    return (transform, y ? .reflectedY : .turned)
  }

  /// This transform in a config's words, spelled as `spelling`: `requested` undone.
  public func words(_ spelling: TransformSpelling = .turned) -> (rotate: RotateRequest, reflect: ReflectRequest) {
    let turns = rawValue % 4
    switch spelling {
    case .turned: return (RotateRequest(quarterTurns: turns), isFlipped ? .x : .none)
    case .reflectedY: return (RotateRequest(quarterTurns: turns + 2), isFlipped ? .y : .xy)
    }
  }
}
