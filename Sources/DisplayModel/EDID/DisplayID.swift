/// A stable key for a monitor, surviving changes of connector (`DP-1` today, `DP-2-1`
/// tomorrow).
///
/// From the EDID: manufacturer, product code, serial number and a hash of the base block,
/// since many monitors report serial 0 or 0x01010101 and identical monitors share everything
/// else.
public struct DisplayID: Hashable, Sendable, CustomStringConvertible, Comparable {
  public var rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }

  /// The identity of a monitor with this EDID (no tie-break).
  public init(edid: EDID) {
    let serial = edid.serialNumber.map { String($0, radix: 16) } ?? "0"
    let code = String(edid.productCode, radix: 16)
    let hash = String(fnv1a64(edid.bytes.prefix(128)), radix: 16)
    rawValue = "\(edid.manufacturer)-\(code)-\(serial)-" + String(repeating: "0", count: 16 - hash.count) + hash
  }

  public var description: String { rawValue }
  public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// FNV-1a, 64-bit: a stable hash (Swift's `Hasher` is seeded per process).
func fnv1a64<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
  var h: UInt64 = 0xcbf2_9ce4_8422_2325
  for b in bytes {
    h ^= UInt64(b)
    h = h &* 0x100_0000_01b3
  }
  return h
}
