import DisplayModel

/// How a picture is turned and reflected on its monitor, in the bits the X protocol gives them.
public struct Rotation: OptionSet, Hashable, Sendable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  public static let normal = Rotation(rawValue: 1)
  public static let left = Rotation(rawValue: 2)
  public static let inverted = Rotation(rawValue: 4)
  public static let right = Rotation(rawValue: 8)
  public static let reflectX = Rotation(rawValue: 16)
  public static let reflectY = Rotation(rawValue: 32)

  /// xrandr's word for the rotation part: normal, left, inverted or right.
  public var name: String {
    if contains(.left) { return "left" }
    if contains(.inverted) { return "inverted" }
    if contains(.right) { return "right" }
    return "normal"
  }
}
extension Rotation {
  /// Whether the picture is turned a quarter (left or right): the mode's sides swap on the screen.
  public var isQuarterTurn: Bool { contains(.left) || contains(.right) }

  /// `width` x `height` as a CRTC turned by this rotation shows them: swapped for a quarter turn.
  public func turned(_ width: Int, _ height: Int) -> (width: Int, height: Int) {
    isQuarterTurn ? (height, width) : (width, height)
  }
}

extension Rotation {
  /// RandR's bits for `transform` spelled as `spelling`: one rotation bit and the reflections.
  public init(_ transform: Transform, _ spelling: TransformSpelling = .turned) {
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
  public var transform: Transform {
    var turns = contains(.left) ? 1 : contains(.inverted) ? 2 : contains(.right) ? 3 : 0
    let (x, y) = (contains(.reflectX), contains(.reflectY))
    if y { turns += 2 }
    return Transform(rawValue: turns % 4 + (x != y ? 4 : 0)) ?? .normal
  }

  /// How these bits spell their transform: with `reflect y` or without.
  public var spelling: TransformSpelling { contains(.reflectY) ? .reflectedY : .turned }

  /// The rotation bit of `turns` quarter turns counter-clockwise.
  static func quarterTurns(_ turns: Int) -> Rotation {
    [Rotation.normal, .left, .inverted, .right][turns % 4]
  }
}

extension RotateRequest {
  /// The rotation bit.
  public var rotation: Rotation { Rotation.quarterTurns(quarterTurns) }
}

extension ReflectRequest {
  /// The reflection bits (empty for `none`).
  public var rotation: Rotation {
    switch self {
    case .none: return []
    case .x: return .reflectX
    case .y: return .reflectY
    case .xy: return [.reflectX, .reflectY]
    }
  }
}
