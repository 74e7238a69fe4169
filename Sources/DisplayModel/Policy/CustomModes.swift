/// A mode displayd makes when the output lacks the one asked for: a rule's or a profile
/// entry's `custom: true` (CVT timings for its `mode`, reduced blanking with `reduced: true`)
/// or its `modeline`.
public enum CustomModeRequest: Hashable, Sendable {
  case cvt(reduced: Bool)
  case modeline(ModeLine)
}

/// Modes displayd creates on the server: how they are named, found again, and released. The
/// name marks them, so a restarted daemon (and `profile save`) knows them: every mode named
/// `displayd-…` that no CRTC shows is displayd's to delete. Pure.
public enum CustomModes {
  public static let prefix = "displayd-"

  /// The first virtual id: above every X id (29 bits), so never a mode the server has. A plan
  /// names a mode still to be created by `virtualBase + output id`.
  public static let virtualBase: UInt = 0x8000_0000

  public static func isVirtual(_ id: ModeID) -> Bool { id.rawValue >= virtualBase }

  /// The name the server lists a modeline's mode under once displayd made it: its own name
  /// (else its size and dot clock) after the prefix.
  static func madeName(_ line: ModeLine) -> String {
    line.name.map { prefix + $0 } ?? prefix + "\(line.hDisplay)x\(line.vDisplay)_" + String(line.dotClock)
  }

  /// The mode wanted for a request, with its name (not yet its id); nil when the request
  /// names no size (`preferred`, `highest`, `keep`) or the timings do not fit RandR.
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

  /// The mode an output gets for a custom request it lacks: a mode displayd made before with
  /// these timings (the output's own first: then nothing is to be created), else the wanted
  /// mode under a virtual id, for the apply to create. nil (with a warning) when it cannot be
  /// made: timings RandR cannot carry, or larger than the server's maximum screen.
  public static func resolve(
    _ request: ModeRequest, _ custom: CustomModeRequest, for output: Output, in topology: Topology
  ) -> (mode: Mode?, warning: PlanWarning?) {
    guard let wanted = wanted(request, custom) else {
      if case .cvt = custom, request == .preferred || request == .highest || request == .keep { return (nil, nil) }
      return (nil, .customTimingsUnfit(output: output.name, request: request))
    }
    let screen = topology.screen
    if screen.maxWidth > 0 && screen.maxHeight > 0
      && (wanted.width > screen.maxWidth || wanted.height > screen.maxHeight)
    {
      let warning = PlanWarning.customTooLarge(
        output: output.name, mode: wanted.name, width: wanted.width, height: wanted.height,
        maxWidth: screen.maxWidth, maxHeight: screen.maxHeight)
      return (nil, warning)
    }
    let made = topology.modes.values.filter { $0.name.hasPrefix(prefix) && $0.sameTimings(as: wanted) }
    if let own = made.first(where: { output.modes.contains($0.id) }) { return (own, nil) }
    var virtual = wanted
    if let other = made.min(by: { $0.id.rawValue < $1.id.rawValue }) { virtual.name = other.name }
    virtual.id = ModeID(rawValue: virtualBase + output.id.rawValue % virtualBase)
    return (virtual, nil)
  }

  /// For a server that makes any size it is asked for (wlroots' `set_custom_mode`): a size
  /// and rate the output does not list, as a mode to create under a virtual id, with the
  /// timings the bridge gives a head's modes (totals of the size, so that the rate reads back
  /// exactly; rate 0 when the request names none: the compositor picks). nil for requests
  /// that name no size, and (with a warning) for a size beyond the server's maximum screen.
  public static func asked(_ request: ModeRequest, for output: Output, in topology: Topology) -> (
    mode: Mode?, warning: PlanWarning?
  ) {
    let screen = topology.screen
    let limit = (
      screen.maxWidth > 0 ? screen.maxWidth : Int(Int16.max), screen.maxHeight > 0 ? screen.maxHeight : Int(Int16.max)
    )
    var (mode, warning) = asked(request, output: output.name, limit: limit)
    mode?.id = ModeID(rawValue: virtualBase + output.id.rawValue % virtualBase)
    return (mode, warning)
  }

  /// `asked` for the output named, within `limit`: the mode under id 0.
  static func asked(_ request: ModeRequest, output: String, limit: (Int, Int)) -> (mode: Mode?, warning: PlanWarning?) {
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

  /// The modes displayd made that no CRTC shows, with the outputs listing them: to delete.
  public static func unused(in topology: Topology) -> [ModeRelease] {
    let shown = Set(topology.crtcs.compactMap(\.mode))
    return topology.modes.values.filter { $0.name.hasPrefix(prefix) && !shown.contains($0.id) }
      .sorted { $0.id.rawValue < $1.id.rawValue }
      .map { mode in
        ModeRelease(
          mode: mode.id, name: mode.name, outputs: topology.outputs.filter { $0.modes.contains(mode.id) }.map(\.id))
      }
  }
}

/// A mode displayd made and no longer shows: removed from these outputs, then destroyed.
public struct ModeRelease: Hashable, Sendable {
  public var mode: ModeID
  public var name: String
  public var outputs: [OutputID]
  public init(mode: ModeID, name: String, outputs: [OutputID]) {
    self.mode = mode
    self.name = name
    self.outputs = outputs
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
