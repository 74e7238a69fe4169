/// A mode's id: the one its server lists it by, or the one a head without server ids is
/// given on the wire (`HeadWireIDs`).
public struct ModeID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
  public var rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// A rectangle in root-window coordinates.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int
  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
  /// `WxH+X+Y`, as xrandr writes geometry.
  public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
