import DisplayModel

extension ModeFlags {
  /// Each flag and its bit in the X protocol's mode info (`RR_Interlace` and the rest).
  static let xBitTable: [(flag: ModeFlags, bit: UInt)] = [
    (.hSyncPositive, 0x1), (.hSyncNegative, 0x2), (.vSyncPositive, 0x4), (.vSyncNegative, 0x8),
    (.interlace, 0x10), (.doubleScan, 0x20), (.compositeSync, 0x40), (.compositeSyncPositive, 0x80),
    (.compositeSyncNegative, 0x100), (.horizontalSkew, 0x200), (.broadcast, 0x400), (.pixelMultiplex, 0x800),
    (.doubleClock, 0x1000), (.halfClock, 0x2000),
  ]

  /// The flags a server's mode info carries in `xBits`; bits X does not define are dropped.
  public init(xBits: UInt) {
    self = ModeFlags(Self.xBitTable.filter { xBits & $0.bit != 0 }.map(\.flag))
  }

  /// These flags as the X protocol's mode info bits.
  public var xBits: UInt {
    Self.xBitTable.reduce(0) { contains($1.flag) ? $0 | $1.bit : $0 }
  }
}
