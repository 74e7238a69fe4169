/// A RandR output id (an `RROutput` XID), wrapped so it cannot be confused with other ids.
public struct OutputID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
  public var rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// A RandR CRTC id (an `RRCrtc` XID).
public struct CrtcID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
  public var rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
  public var description: String { "0x" + String(rawValue, radix: 16) }
}
