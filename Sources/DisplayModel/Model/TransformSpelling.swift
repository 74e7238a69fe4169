/// Which of RandR's two spellings of one head transform a config wrote. A half turn commutes
/// with every other transform, so `reflect y` is a half turn more with `reflect x`, and both
/// reflections together are a half turn: `rotate: "inverted"` and `reflect: "xy"` show one
/// picture, as do `rotate: "left", reflect: "y"` and `rotate: "right", reflect: "x"`. Other
/// display servers know only the transform; RandR keeps the bits it is given (status, events
/// and `profile save` show them), and a CRTC may offer one spelling and not the other (both
/// reflections but no half turn), so the RandR planners set the spelling the config wrote.
public enum TransformSpelling: Hashable, Sendable, CaseIterable {
  /// The transform's quarter turns, with `reflect x` when it is flipped (`rotate: "inverted"`).
  case turned
  /// A half turn more, with `reflect y`, and `reflect x` too when it is not flipped
  /// (`reflect: "xy"`, `reflect: "y"`).
  case reflectedY
}

extension Rotation {
  /// RandR's bits for `transform` spelled as `spelling`: one rotation bit and the reflections.
  public init(_ transform: HeadTransform, _ spelling: TransformSpelling = .turned) {
    let turns = transform.rawValue % 4
    switch spelling {
    case .turned:
      self = Self.quarterTurns(turns).union(transform.isFlipped ? .reflectX : [])
    case .reflectedY:
      self = Self.quarterTurns(turns + 2).union(transform.isFlipped ? .reflectY : [.reflectX, .reflectY])
    }
  }

  /// The head transform these bits show: the rotation bit (the first of left, inverted and
  /// right; normal without one), a half turn more for `reflect y`, flipped when exactly one
  /// reflection is set.
  public var transform: HeadTransform {
    var turns = contains(.left) ? 1 : contains(.inverted) ? 2 : contains(.right) ? 3 : 0
    let (x, y) = (contains(.reflectX), contains(.reflectY))
    if y { turns += 2 }
    return HeadTransform(rawValue: turns % 4 + (x != y ? 4 : 0)) ?? .normal
  }

  /// How these bits spell their transform: with `reflect y` or without.
  public var spelling: TransformSpelling { contains(.reflectY) ? .reflectedY : .turned }

  /// The rotation bit of `turns` quarter turns counter-clockwise.
  static func quarterTurns(_ turns: Int) -> Rotation {
    [Rotation.normal, .left, .inverted, .right][turns % 4]
  }
}

extension HeadTransform {
  /// The transform a config's `rotate` and `reflect` ask for, and how they spell it.
  public static func requested(_ rotate: RotateRequest, _ reflect: ReflectRequest) -> (
    transform: HeadTransform, spelling: TransformSpelling
  ) {
    let bits = rotate.rotation.union(reflect.rotation)
    return (bits.transform, bits.spelling)
  }
}
