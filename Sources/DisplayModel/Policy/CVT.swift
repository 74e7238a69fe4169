/// VESA Coordinated Video Timings (CVT 1.1) for a size and refresh rate, the formula the
/// `cvt` program (xcvt) computes: normal blanking, or reduced blanking (`cvt -r`) for
/// digital displays. Progressive, no margins. Pure.
public enum CVT {
  /// Horizontal sizes are whole character cells of this many pixels (rounded up, as cvt does).
  static let cell = 8
  static let minVPorch = 3
  static let minVBackPorch = 6

  /// The timings, or nil when they do not fit a mode's fields (16-bit totals, a 32-bit clock).
  public static func modeLine(width: Int, height: Int, refresh: Double, reduced: Bool) -> ModeLine? {
    guard width > 0, height > 0, refresh.isFinite, refresh > 0, width <= 1 << 16, height <= 1 << 16 else { return nil }
    let h = (width + cell - 1) / cell * cell
    let vSync = syncWidth(h, height)
    let line = reduced ? reducedLine(h, height, refresh, vSync) : normalLine(h, height, refresh, vSync)
    guard line.hTotal <= ModeLine.maxTiming, line.vTotal <= ModeLine.maxTiming, line.dotClock <= ModeLine.maxDotClock
    else { return nil }
    return line
  }

  /// The vertical sync width tells the aspect ratio: 4:3, 16:9, 16:10, 5:4 and 15:9 have their
  /// own; any other is 10 lines.
  static func syncWidth(_ w: Int, _ h: Int) -> Int {
    if h % 3 == 0 && h * 4 / 3 == w { return 4 }
    if h % 9 == 0 && h * 16 / 9 == w { return 5 }
    if h % 10 == 0 && h * 16 / 10 == w { return 6 }
    if h % 4 == 0 && h * 5 / 4 == w { return 7 }
    if h % 9 == 0 && h * 15 / 9 == w { return 7 }
    return 10
  }

  // The arithmetic follows what cvt prints, not only the standard's text: the estimated line
  // period is single precision, the clock is the total over that estimate (truncated to
  // whole kHz, then to 0.25 MHz), the sync and back porch take at least the sync width plus
  // 3 lines, and the horizontal sync is one cell narrower when 8 % of the line is a whole
  // number of cells.
  static func normalLine(_ w: Int, _ h: Int, _ refresh: Double, _ vSync: Int) -> ModeLine {
    let minVSyncBP = 550.0  // µs
    let hPeriod = Double(Float(1_000_000.0 / Double(Float(refresh)) - minVSyncBP) / Float(h + minVPorch))
    let vSyncBP = max(Int(minVSyncBP / hPeriod) + 1, vSync + minVPorch)
    let vTotal = h + vSyncBP + minVPorch
    // The blanking's share of the line: C' − M' × period, at least 20 %.
    let duty = Double(max(Float(30.0 - 300.0 * hPeriod / 1000.0), 20))
    var blank = Int(Double(w) * duty / (100.0 - duty))
    blank -= blank % (2 * cell)
    let hTotal = w + blank
    let hSync = (hTotal * 8 / 100 - 1) / cell * cell
    let hSyncEnd = w + blank / 2
    return ModeLine(
      dotClock: clock(hTotal, hPeriod), h: (w, hSyncEnd - hSync, hSyncEnd, hTotal),
      v: (h, h + minVPorch, h + minVPorch + vSync, vTotal), flags: [.hSyncNegative, .vSyncPositive])
  }

  static func reducedLine(_ w: Int, _ h: Int, _ refresh: Double, _ vSync: Int) -> ModeLine {
    let minVBlank = 460.0  // µs
    let blank = 160
    let hSync = 32
    let hPeriod = Double(Float(1_000_000.0 / Double(Float(refresh)) - minVBlank) / Float(h))
    let vbi = max(Int(Float(minVBlank) / Float(hPeriod) + 1), minVPorch + vSync + minVBackPorch)
    let vTotal = h + vbi
    let hTotal = w + blank
    let hSyncEnd = w + blank / 2
    return ModeLine(
      dotClock: clock(hTotal, hPeriod), h: (w, hSyncEnd - hSync, hSyncEnd, hTotal),
      v: (h, h + minVPorch, h + minVPorch + vSync, vTotal), flags: [.hSyncPositive, .vSyncNegative])
  }

  /// The pixel clock in Hz for a line of `total` pixels lasting `period` µs: whole kHz,
  /// rounded down to 0.25 MHz. One beyond a mode's 32 bits (or not finite) becomes one over the
  /// limit, so the caller's check refuses it.
  static func clock(_ total: Int, _ period: Double) -> UInt64 {
    let khz = Double(total) * 1000.0 / period
    guard khz.isFinite, khz >= 0, khz * 1000 < Double(ModeLine.maxDotClock) else { return ModeLine.maxDotClock + 1 }
    let whole = UInt64(khz)
    return (whole - whole % 250) * 1000
  }
}
