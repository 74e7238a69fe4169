/// A mode displayd makes when the output lacks the one asked for: a rule's or a profile
/// entry's `custom: true` (CVT timings for its `mode`, reduced blanking with `reduced: true`)
/// or its `modeline`.
public enum CustomModeRequest: Hashable, Sendable {
  case cvt(reduced: Bool)
  case modeline(ModeLine)
}

/// Modes displayd creates on the server: how they are named, found again, and released. The
/// name marks them, so a restarted daemon (and `profile save`) knows them: every mode named
/// `displayd-…` that no head shows is displayd's to delete. Pure.
public enum CustomModes {
  public static let prefix = "displayd-"

  /// The first virtual id: above every X id (29 bits), so never a mode the server has. A plan
  /// names a mode still to be created by `virtualBase + output id`.
  public static let virtualBase: UInt = 0x8000_0000

  public static func isVirtual(_ id: ModeID) -> Bool { id.rawValue >= virtualBase }

  /// The name the server lists a modeline's mode under once displayd made it: its own name
  /// (else its size and dot clock) after the prefix.
  public static func madeName(_ line: ModeLine) -> String {
    line.name.map { prefix + $0 } ?? prefix + "\(line.hDisplay)x\(line.vDisplay)_" + String(line.dotClock)
  }

  /// The mode wanted for a request, with its name (not yet its id); nil when the request
  /// names no size (`preferred`, `highest`, `keep`) or the timings do not fit a mode's fields.
  public static func wanted(_ request: ModeRequest, _ custom: CustomModeRequest) -> Mode? {
    switch custom {
    case .modeline(let line):
      return line.mode(id: ModeID(rawValue: 0), name: madeName(line))
    case .cvt(let reduced):
      let size: (Int, Int, Double)
      switch request {
      case .size(let w, let h): size = (w, h, 60)
      case .sizeRate(let w, let h, let r): size = (w, h, r)
      case .preferred, .highest, .keep: return nil
      }
      guard let line = CVT.modeLine(width: size.0, height: size.1, refresh: size.2, reduced: reduced) else {
        return nil
      }
      return line.mode(id: ModeID(rawValue: 0), name: cvtName(line.hDisplay, line.vDisplay, size.2, reduced))
    }
  }

  /// `displayd-1600x700_60.00`, `displayd-1600x700R_60.00` for reduced blanking: cvt's name
  /// with the rate it was asked for.
  static func cvtName(_ w: Int, _ h: Int, _ refresh: Double, _ reduced: Bool) -> String {
    prefix + "\(w)x\(h)" + (reduced ? "R" : "") + "_" + fixed(refresh, places: 2)
  }

  /// What a mode displayd created was asked as: `custom: true` with a size and rate (and
  /// `reduced`) when its name and timings are CVT's, else its modeline. nil for other modes.
  public static func origin(of mode: Mode) -> (request: ModeRequest, custom: CustomModeRequest)? {
    guard mode.name.hasPrefix(prefix) else { return nil }
    let body = mode.name.dropFirst(prefix.count)
    let parts = body.split(separator: "_")
    if parts.count == 2, let rate = Double(parts[1]) {
      for reduced in [false, true] {
        let request = ModeRequest.sizeRate(width: mode.width, height: mode.height, refresh: rate)
        if let cvt = wanted(request, .cvt(reduced: reduced)), cvt.name == mode.name, cvt.sameTimings(as: mode) {
          return (request, .cvt(reduced: reduced))
        }
      }
    }
    return (.size(width: mode.width, height: mode.height), .modeline(ModeLine(mode)))
  }

  /// `asked` for the output named, within `limit`: the mode under id 0.
  public static func asked(_ request: ModeRequest, output: String, limit: (Int, Int)) -> (
    mode: Mode?, warning: PlanWarning?
  ) {
    let (w, h, r): (Int, Int, Double)
    switch request {
    case .size(let width, let height): (w, h, r) = (width, height, 0)
    case .sizeRate(let width, let height, let rate): (w, h, r) = (width, height, rate)
    case .preferred, .highest, .keep: return (nil, nil)
    }
    let name = "\(w)x\(h)"
    guard w > 0, h > 0, w <= limit.0, h <= limit.1 else {
      return (
        nil, .customTooLarge(output: output, mode: name, width: w, height: h, maxWidth: limit.0, maxHeight: limit.1)
      )
    }
    let pixels = Double(w) * Double(h) * r
    guard pixels.isFinite, pixels >= 0, pixels < Double(UInt32.max) * 16 else {
      return (nil, .customTimingsUnfit(output: output, request: request))
    }
    let mode = Mode(
      id: ModeID(rawValue: 0), name: name, width: w, height: h, dotClock: UInt64(pixels.rounded()), hTotal: w,
      vTotal: h)
    return (mode, nil)
  }
}

extension ModeLine {
  /// The label of the mode displayd makes of this line, as the planners name it: a mode
  /// with timings under displayd's prefix (`displayd-1600x700R_60.00@60.00`); a size a
  /// server makes of any size (no blanking, `CustomModes.asked`) by its own name
  /// (`1024x768@0.00`). `Mode.label` of the made mode.
  public var madeLabel: String {
    let sized = hTotal == hDisplay && vTotal == vDisplay
    let name = sized ? (self.name ?? "\(hDisplay)x\(vDisplay)") : CustomModes.madeName(self)
    return mode(id: ModeID(rawValue: 0), name: name).label
  }
}
