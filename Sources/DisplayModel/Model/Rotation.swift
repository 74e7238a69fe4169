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
