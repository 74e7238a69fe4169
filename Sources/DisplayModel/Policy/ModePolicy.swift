/// A mode the head planner asks a head for: one it lists, or one to make, with its size.
public struct PlannedMode: Hashable, Sendable, ChoosableMode {
  public var width: Int
  public var height: Int
  public var refreshHz: Double
  /// The head's own mode, nil for one to make.
  public var listed: HeadMode?
  public var request: HeadModeRequest

  /// One the head lists.
  init(_ mode: HeadMode) {
    (width, height, refreshHz, listed) = (mode.width, mode.height, mode.refreshHz, mode)
    request = .listed(width: mode.width, height: mode.height, refreshMilliHz: mode.refreshMilliHz)
  }

  /// One to make with these timings, under the name displayd gives it (less the custom
  /// prefix the X backend puts back), so that the server lists it as the old plans named it.
  init(made mode: Mode) {
    (width, height, refreshHz, listed) = (mode.width, mode.height, mode.refreshHz, nil)
    var line = ModeLine(mode)
    // The name displayd gives the timings (`1600x700R_60.00`; the backend adds `displayd-`),
    // which the server lists the mode under and a later release finds it by.
    let name =
      mode.name.hasPrefix(CustomModes.prefix) ? String(mode.name.dropFirst(CustomModes.prefix.count)) : mode.name
    line.name = name.isEmpty ? nil : name
    request = .custom(line)
  }
}

/// Chooses a head's mode: the rule's request if the head lists it, else its
/// preferred mode, else its largest; a custom request (`custom`, `modeline`) a mode to make
/// when the head lacks it, and on a head that shows any size (`HeadCapabilities.anySize`)
/// a size it does not list asked for as it is. A head's modes carry no timings: a listed mode
/// meets a modeline by its size, refresh (to the mHz) and interlace. The server's maximum
/// screen is the backend's to enforce. Pure.
public enum ModePolicy {
  /// The modes to try in order (the first is the choice), and a warning when the request
  /// could not be met.
  public static func candidates(_ request: ModeRequest, custom: CustomModeRequest? = nil, for head: Head) -> (
    modes: [PlannedMode], warning: PlanWarning?
  ) {
    // A mode without area is no mode (a head's sizes come from outside).
    let usable = { (m: HeadMode) in m.width > 0 && m.height > 0 }
    var all: [PlannedMode] = []
    all.reserveCapacity(head.modes.count)
    for mode in head.modes where !mode.custom && usable(mode) { all.append(PlannedMode(mode)) }
    let preferred = head.modes.first(where: \.preferred).flatMap { usable($0) ? PlannedMode($0) : nil }
    // Every plan asks each head: the order is found once, for the largest and the chain.
    let order = ModeChoice.largestFirstOrder(all)
    let largest = order.first.map { all[$0] }
    let anySize = head.capabilities.anySize
    let current = head.enabled ? head.mode.flatMap { usable($0) ? PlannedMode($0) : nil } : nil
    var requested = ModeChoice.requested(
      request, in: all, preferred: preferred, largest: largest, current: current, anySize: anySize)
    var customWarning: PlanWarning?
    var custom = custom
    if requested == nil, anySize, !ModeChoice.isModeline(custom) {
      let (mode, why) = CustomModes.asked(request, output: head.name, limit: (Int.max, Int.max))
      (requested, customWarning) = (mode.map(PlannedMode.init(made:)), why)
      custom = nil
    }
    if let custom {
      let (made, why) = madeMode(request, custom, head, listed: all)
      if let made { requested = made }
      customWarning = why
    }
    let chain = ModeChoice.chain([requested, preferred, largest], all, order: order)
    let warning = ModeChoice.warning(
      head.name, request, met: requested != nil, using: chain.first.map(label), custom: customWarning)
    return (chain, warning)
  }

  /// How a warning names a mode: `1920x1080@60.00`, as `Mode.label` does.
  static func label(_ mode: PlannedMode) -> String {
    "\(mode.width)x\(mode.height)@" + fixed(mode.refreshHz, places: 2) + (mode.listed?.interlaced == true ? "i" : "")
  }

  /// For a custom request: the listed mode a modeline names, else nothing when a listed mode
  /// meets a CVT request, else the mode to make.
  static func madeMode(_ request: ModeRequest, _ custom: CustomModeRequest, _ head: Head, listed: [PlannedMode])
    -> (PlannedMode?, PlanWarning?)
  {
    if case .modeline(let line) = custom {
      let wanted = line.mode(id: ModeID(rawValue: 0), name: "")
      if let own = listed.first(where: { same($0, wanted) }) { return (own, nil) }
      let sized = { (m: PlannedMode) in m.width == wanted.width && m.height == wanted.height }
      if head.capabilities.anySize,
        let own = listed.first(where: { sized($0) && abs($0.refreshHz - wanted.refreshHz) < 0.001 })
      {
        return (own, nil)
      }
    } else if candidates(request, for: head).warning == nil {
      return (nil, nil)
    }
    return resolve(request, custom, head)
  }

  /// The mode a head gets for a custom request it lacks: one displayd made before with this
  /// size and refresh (then nothing is to be made), else the wanted mode to make; nil (with a
  /// warning) when its timings cannot be made.
  static func resolve(_ request: ModeRequest, _ custom: CustomModeRequest, _ head: Head) -> (
    PlannedMode?, PlanWarning?
  ) {
    guard let wanted = CustomModes.wanted(request, custom) else {
      if case .cvt = custom, request == .preferred || request == .highest || request == .keep { return (nil, nil) }
      return (nil, .customTimingsUnfit(output: head.name, request: request))
    }
    let made = head.modes.filter(\.custom).map(PlannedMode.init)
    if let own = made.first(where: { same($0, wanted) }) { return (own, nil) }
    return (PlannedMode(made: wanted), nil)
  }

  /// Whether a head's mode is the one these timings make, as far as a head's mode tells.
  static func same(_ mode: PlannedMode, _ wanted: Mode) -> Bool {
    guard let listed = mode.listed else { return false }
    return (listed.width, listed.height, listed.interlaced) == (wanted.width, wanted.height, wanted.isInterlaced)
      && listed.refreshMilliHz == milliHz(wanted)
  }

  /// A mode's refresh in mHz, as a head lists it.
  static func milliHz(_ mode: Mode) -> Int { Int(exactly: (mode.refreshHz * 1000).rounded()) ?? 0 }
}
