/// A stable key for a monitor, surviving changes of connector (`DP-1` today, `DP-2-1`
/// tomorrow).
///
/// From the EDID: manufacturer, product code, serial number and a hash of the base block,
/// since many monitors report serial 0 or 0x01010101 and identical monitors share everything
/// else; then the connector name breaks a tie between two connected monitors with the same
/// EDID. Without an EDID, the connector name alone.
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

  /// The identity of a monitor seen only by its connector.
  public init(connector: String) { rawValue = "output:" + connector }

  /// Identities for every connected output, with the connector as tie-break between outputs
  /// whose EDIDs are identical.
  public static func assign(_ outputs: [Output]) -> [OutputID: DisplayID] {
    var base: [OutputID: DisplayID] = [:]
    var counts: [DisplayID: Int] = [:]
    for output in outputs where output.isConnected {
      let id =
        output.identity.map(DisplayID.init(edid:))
        ?? DisplayID(connector: output.name)
      base[output.id] = id
      counts[id, default: 0] += 1
    }
    var result: [OutputID: DisplayID] = [:]
    for output in outputs where output.isConnected {
      guard let id = base[output.id] else { continue }
      let shared = (counts[id] ?? 0) > 1
      result[output.id] = shared ? DisplayID(rawValue: id.rawValue + "@" + output.name) : id
    }
    return result
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
