/// The ids a head without server ids (wlroots') is given on the wire: its output id made
/// from its name, so that it keeps it across snapshots, and its modes' ids from that.
public enum HeadWireIDs {
  /// A head name's id: FNV-1a over its bytes, 40 bits (room for 12 bits of mode slots), never 0.
  public static func outputID(_ name: String) -> UInt {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return UInt(hash & 0xff_ffff_ffff) | 1
  }

  /// A head's modes as listed on the wire, preferred first (X's `npreferred`), as
  /// indices into `head.modes`; and each one's id: the head's id with its slot in the list
  /// (from 1) in the low 12 bits.
  public static func modeIDs(_ head: Head) -> (order: [Int], ids: [Int: ModeID]) {
    let id = outputID(head.name)
    let order =
      head.modes.indices.filter { head.modes[$0].preferred } + head.modes.indices.filter { !head.modes[$0].preferred }
    var ids: [Int: ModeID] = [:]
    for (slot, index) in order.enumerated() {
      ids[index] = ModeID(rawValue: id << 12 | UInt(slot + 1) & 0xfff)
    }
    return (order, ids)
  }
}

extension HeadMode {
  /// The mode as the wire (and a topology made of heads) lists it: named by its size, its
  /// dot clock its pixel rate (width × height × refresh), its totals its size, so that its
  /// refresh reads back exactly.
  public func wireMode(id: ModeID) -> Mode {
    let w = max(0, width)
    let h = max(0, height)
    let pixels = Double(w) * Double(h) * Double(max(0, refreshMilliHz)) / 1000
    let rate = pixels.isFinite && pixels < Double(UInt32.max) * 16 ? UInt64(pixels.rounded()) : 0
    // No interlace flag: it would halve the totals and double the refresh read back.
    return Mode(id: id, name: "\(w)x\(h)", width: w, height: h, dotClock: rate, hTotal: w, vTotal: h)
  }
}
