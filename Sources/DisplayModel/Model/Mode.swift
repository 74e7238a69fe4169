/// Flags of a mode that change how it is scanned out, in the bits the X protocol gives them.
public struct ModeFlags: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// Interlaced: two fields a frame.
  public static let interlace = ModeFlags(rawValue: 0x10)
  /// Double scan: every line scanned twice.
  public static let doubleScan = ModeFlags(rawValue: 0x20)
  /// Sync polarities: part of a mode's timings.
  public static let hSyncPositive = ModeFlags(rawValue: 0x1)
  public static let hSyncNegative = ModeFlags(rawValue: 0x2)
  public static let vSyncPositive = ModeFlags(rawValue: 0x4)
  public static let vSyncNegative = ModeFlags(rawValue: 0x8)
}

/// One mode: a size and the timing that drives it.
public struct Mode: Hashable, Sendable {
  public var id: ModeID
  public var name: String
  public var width: Int
  public var height: Int
  /// Pixel clock in Hz.
  public var dotClock: UInt64
  public var hTotal: Int
  public var vTotal: Int
  public var flags: ModeFlags
  /// Where the syncs start and end; 0 where a source gave none.
  public var hSyncStart = 0
  public var hSyncEnd = 0
  public var vSyncStart = 0
  public var vSyncEnd = 0

  public init(
    id: ModeID, name: String, width: Int, height: Int, dotClock: UInt64,
    hTotal: Int, vTotal: Int, flags: ModeFlags = []
  ) {
    self.id = id
    self.name = name
    self.width = width
    self.height = height
    self.dotClock = dotClock
    self.hTotal = hTotal
    self.vTotal = vTotal
    self.flags = flags
  }

  /// Vertical refresh in Hz, computed as xrandr does: dot clock / (hTotal × vTotal), with
  /// vTotal doubled for double-scan and halved for interlace. 0 when a total is 0.
  public var refreshHz: Double {
    var v = Double(vTotal)
    if flags.contains(.doubleScan) { v *= 2 }
    if flags.contains(.interlace) { v /= 2 }
    guard hTotal > 0, v > 0 else { return 0 }
    return Double(dotClock) / (Double(hTotal) * v)
  }

  /// Whether two modes drive a monitor the same way: every timing and flag equal, names aside.
  public func sameTimings(as other: Mode) -> Bool {
    (width, height, dotClock, hTotal, vTotal, flags) == (
      other.width, other.height, other.dotClock, other.hTotal, other.vTotal, other.flags
    )
      && (hSyncStart, hSyncEnd, vSyncStart, vSyncEnd) == (
        other.hSyncStart, other.hSyncEnd, other.vSyncStart, other.vSyncEnd
      )
  }

  public var isInterlaced: Bool { flags.contains(.interlace) }
  public var isDoubleScan: Bool { flags.contains(.doubleScan) }
}
