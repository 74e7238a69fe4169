/// Flags of a mode that change how it is scanned out, by the names a modeline gives them.
/// The raw values are the model's own; each backend maps them to its server's.
public struct ModeFlags: OptionSet, Hashable, Sendable {
  public let rawValue: UInt16
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  /// Interlaced: two fields a frame.
  public static let interlace = ModeFlags(rawValue: 1 << 0)
  /// Double scan: every line scanned twice.
  public static let doubleScan = ModeFlags(rawValue: 1 << 1)
  /// Sync polarities: part of a mode's timings.
  public static let hSyncPositive = ModeFlags(rawValue: 1 << 2)
  public static let hSyncNegative = ModeFlags(rawValue: 1 << 3)
  public static let vSyncPositive = ModeFlags(rawValue: 1 << 4)
  public static let vSyncNegative = ModeFlags(rawValue: 1 << 5)
  /// Composite sync, and its polarities (`csync`, `+csync`, `-csync`).
  public static let compositeSync = ModeFlags(rawValue: 1 << 6)
  public static let compositeSyncPositive = ModeFlags(rawValue: 1 << 7)
  public static let compositeSyncNegative = ModeFlags(rawValue: 1 << 8)
  /// The rarer flags a server may list on a mode: a horizontal skew given, broadcast,
  /// pixel multiplexing, a doubled clock and a halved one. Kept so that timings compare as
  /// the server's.
  public static let horizontalSkew = ModeFlags(rawValue: 1 << 9)
  public static let broadcast = ModeFlags(rawValue: 1 << 10)
  public static let pixelMultiplex = ModeFlags(rawValue: 1 << 11)
  public static let doubleClock = ModeFlags(rawValue: 1 << 12)
  public static let halfClock = ModeFlags(rawValue: 1 << 13)
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
