/// Flags of a RandR mode that change how it is scanned out.
public struct ModeFlags: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// `RR_Interlace`: two fields a frame.
  public static let interlace = ModeFlags(rawValue: 0x10)
  /// `RR_DoubleScan`: every line scanned twice.
  public static let doubleScan = ModeFlags(rawValue: 0x20)
}

/// One RandR mode: a size and the timing that drives it.
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

  public var isInterlaced: Bool { flags.contains(.interlace) }
  public var isDoubleScan: Bool { flags.contains(.doubleScan) }
}
