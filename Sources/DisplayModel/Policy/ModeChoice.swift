/// What the mode choice reads of a mode: RandR's modes and a head's alike.
public protocol ChoosableMode {
  var width: Int { get }
  var height: Int { get }
  var refreshHz: Double { get }
}

extension Mode: ChoosableMode {}

extension HeadMode: ChoosableMode {
  /// The refresh in Hz (0 when the backend does not say).
  public var refreshHz: Double { Double(refreshMilliHz) / 1000 }
}

/// The parts of choosing a monitor's mode that do not depend on how the server names modes,
/// shared by every planner that chooses among listed modes (`HeadModePolicy`). Pure.
enum ModeChoice {
  /// Whether a custom request is a modeline (timings given), not CVT's.
  static func isModeline(_ custom: CustomModeRequest?) -> Bool {
    if case .modeline = custom { return true }
    return false
  }

  /// The largest: the most pixels, then the highest refresh (the first of equals).
  static func largest<M: ChoosableMode>(_ modes: [M]) -> M? {
    modes.max { (pixels($0), $0.refreshHz) < (pixels($1), $1.refreshHz) }
  }

  /// Width times height, saturating: a head's sizes come from outside.
  static func pixels<M: ChoosableMode>(_ mode: M) -> Int {
    let (product, overflow) = mode.width.multipliedReportingOverflow(by: mode.height)
    return overflow ? Int.max : product
  }

  /// The mode of `all` a request names; `.keep` is the `current` mode (else the preferred
  /// one). A mode without a refresh (a headless compositor's) is a size at any rate where the
  /// server makes any size (`anySize`).
  static func requested<M: ChoosableMode>(
    _ request: ModeRequest, in all: [M], preferred: M?, largest: M?, current: M?, anySize: Bool
  ) -> M? {
    switch request {
    case .preferred: return preferred
    case .highest: return largest
    case .keep: return current ?? preferred
    case .size(let w, let h):
      return all.filter { $0.width == w && $0.height == h }.max { $0.refreshHz < $1.refreshHz }
    case .sizeRate(let w, let h, let r):
      let rated = { (m: M) in abs(m.refreshHz - r) <= 0.5 || (anySize && m.refreshHz == 0) }
      return all.filter { $0.width == w && $0.height == h && rated($0) }
        .min { abs($0.refreshHz - r) < abs($1.refreshHz - r) }
    }
  }

  /// The modes to try in order: `firsts` (the request's, the preferred, the largest), then
  /// every other mode, largest first (a planner walks down the chain until the layout fits),
  /// each once by `key`.
  static func chain<M: ChoosableMode, K: Hashable>(_ firsts: [M?], _ all: [M], key: (M) -> K) -> [M] {
    let rest = all.sorted { (pixels($0), $0.refreshHz) > (pixels($1), $1.refreshHz) }
    var chain: [M] = []
    var seen: Set<K> = []
    for mode in firsts.compactMap({ $0 }) + rest where seen.insert(key(mode)).inserted {
      chain.append(mode)
    }
    return chain
  }

  /// The warning for a choice: the request unmet (`using` the chain's first), joined with the
  /// custom mode's own.
  static func warning(
    _ output: String, _ request: ModeRequest, met: Bool, using first: String?, custom: PlanWarning?
  ) -> PlanWarning? {
    var warning: PlanWarning?
    if !met, let first {
      warning = .modeMissing(output: output, request: request == .preferred ? nil : request, using: first)
    }
    if let custom { warning = warning.map { .both(custom, $0) } ?? custom }
    return warning
  }
}
