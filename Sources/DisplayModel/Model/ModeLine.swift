/// A mode's full timings in xrandr's `--newmode` syntax: an optional quoted name, the dot
/// clock in MHz, four horizontal and four vertical numbers, then flags (`+hsync`, `-vsync`,
/// `interlace`, `doublescan`, ...), e.g. `"90.50 1600 1680 1840 2080 700 703 713 727 -hsync +vsync"`.
public struct ModeLine: Hashable, Sendable, CustomStringConvertible {
  public var name: String?
  /// Pixel clock in Hz.
  public var dotClock: UInt64
  public var hDisplay: Int
  public var hSyncStart: Int
  public var hSyncEnd: Int
  public var hTotal: Int
  public var vDisplay: Int
  public var vSyncStart: Int
  public var vSyncEnd: Int
  public var vTotal: Int
  public var flags: ModeFlags

  public init(
    name: String? = nil, dotClock: UInt64, h: (Int, Int, Int, Int), v: (Int, Int, Int, Int), flags: ModeFlags
  ) {
    self.name = name
    self.dotClock = dotClock
    (hDisplay, hSyncStart, hSyncEnd, hTotal) = h
    (vDisplay, vSyncStart, vSyncEnd, vTotal) = v
    self.flags = flags
  }

  /// The largest dot clock a mode carries (32 bits of Hz) and the largest timing (16 bits), as
  /// the X protocol's mode info holds them.
  public static let maxDotClock = UInt64(UInt32.max)
  public static let maxTiming = Int(UInt16.max)

  /// The flags xrandr's `--newmode` takes, by their lower-case words.
  static let flagWords: [String: ModeFlags] = [
    "+hsync": .hSyncPositive, "-hsync": .hSyncNegative, "+vsync": .vSyncPositive, "-vsync": .vSyncNegative,
    "interlace": .interlace, "doublescan": .doubleScan, "csync": .compositeSync, "+csync": .compositeSyncPositive,
    "-csync": .compositeSyncNegative,
  ]

  /// Parses the text, or says what is wrong with it.
  public static func parse(_ text: String) -> Result<ModeLine, ModeLineError> {
    var rest = Substring(text).drop { $0 == " " || $0 == "\t" }
    var name: String?
    if rest.first == "\"" {
      let body = rest.dropFirst()
      guard let end = body.firstIndex(of: "\"") else { return .failure(.init("the name's closing quote is missing")) }
      name = String(body[..<end])
      rest = body[body.index(after: end)...]
    }
    let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard words.count >= 9 else {
      return .failure(.init("expected a dot clock in MHz and 8 timings, found \(words.count) number(s)"))
    }
    guard let mhz = Double(words[0]), mhz.isFinite, mhz > 0, mhz * 1e6 <= Double(maxDotClock) else {
      return .failure(.init("'\(words[0])' is not a dot clock in MHz (above 0, at most 4294.967295)"))
    }
    var numbers: [Int] = []
    for word in words[1...8] {
      guard let n = Int(word), (1...maxTiming).contains(n) else {
        return .failure(.init("'\(word)' is not a timing (an integer 1...\(maxTiming))"))
      }
      numbers.append(n)
    }
    var flags: ModeFlags = []
    for word in words[9...] {
      guard let flag = flagWords[word.lowercased()] else {
        return .failure(.init("unknown flag '\(word)' (expected \(flagWords.keys.sorted().joined(separator: ", ")))"))
      }
      flags.insert(flag)
    }
    let line = ModeLine(
      name: name, dotClock: UInt64((mhz * 1e6).rounded()), h: (numbers[0], numbers[1], numbers[2], numbers[3]),
      v: (numbers[4], numbers[5], numbers[6], numbers[7]), flags: flags)
    return line.problem.map { .failure(.init($0)) } ?? .success(line)
  }

  /// Why the timings cannot drive a monitor: each sync inside its blanking, in order.
  var problem: String? {
    guard hDisplay <= hSyncStart, hSyncStart <= hSyncEnd, hSyncEnd <= hTotal, hDisplay < hTotal else {
      return "the horizontal timings must grow: display ≤ sync start ≤ sync end ≤ total (and display < total)"
    }
    guard vDisplay <= vSyncStart, vSyncStart <= vSyncEnd, vSyncEnd <= vTotal, vDisplay < vTotal else {
      return "the vertical timings must grow: display ≤ sync start ≤ sync end ≤ total (and display < total)"
    }
    guard hDisplay <= ModeRequest.sizes.upperBound, vDisplay <= ModeRequest.sizes.upperBound else {
      return "the size must be at most \(ModeRequest.sizes.upperBound)x\(ModeRequest.sizes.upperBound)"
    }
    let refresh = mode(id: ModeID(rawValue: 0), name: "").refreshHz
    guard refresh >= 1, refresh <= ModeRequest.maxRefresh else {
      return "the refresh rate \(fixed(refresh, places: 2)) Hz is outside 1...\(Int(ModeRequest.maxRefresh)) Hz"
    }
    return nil
  }

  /// The mode these timings make.
  public func mode(id: ModeID, name: String) -> Mode {
    var m = Mode(
      id: id, name: name, width: hDisplay, height: vDisplay, dotClock: dotClock, hTotal: hTotal, vTotal: vTotal,
      flags: flags)
    (m.hSyncStart, m.hSyncEnd, m.vSyncStart, m.vSyncEnd) = (hSyncStart, hSyncEnd, vSyncStart, vSyncEnd)
    return m
  }

  /// The timings of a mode.
  public init(_ mode: Mode) {
    self.init(
      dotClock: mode.dotClock, h: (mode.width, mode.hSyncStart, mode.hSyncEnd, mode.hTotal),
      v: (mode.height, mode.vSyncStart, mode.vSyncEnd, mode.vTotal), flags: mode.flags)
  }

  /// In xrandr's syntax, without the name: `90.50 1600 1680 1840 2080 700 703 713 727 -hsync +vsync`.
  public var description: String {
    let mhz = fixed(Double(dotClock) / 1e6, places: dotClock % 10_000 == 0 ? 2 : 6)
    let words = Self.flagWords.filter { flags.contains($0.value) }.map(\.key).sorted { order($0) < order($1) }
    return
      ([mhz] + [hDisplay, hSyncStart, hSyncEnd, hTotal, vDisplay, vSyncStart, vSyncEnd, vTotal].map(String.init)
      + words).joined(separator: " ")
  }

  private func order(_ word: String) -> Int {
    ["+hsync", "-hsync", "+vsync", "-vsync", "interlace", "doublescan", "csync", "+csync", "-csync"]
      .firstIndex(of: word) ?? 99
  }
}

/// What is wrong with a modeline.
public struct ModeLineError: Error, Hashable, Sendable, CustomStringConvertible {
  public var description: String
  init(_ text: String) { description = text }
}
