/// What the mode choice reads of a mode: the X backend's modes and a head's alike.
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
/// shared by every planner that chooses among listed modes (`ModePolicy`). Pure.
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
    var chain: [M] = []
    var seen = Set<K>(minimumCapacity: firsts.count + all.count)
    for mode in firsts.compactMap({ $0 }) + largestFirst(all) where seen.insert(key(mode)).inserted {
      chain.append(mode)
    }
    return chain
  }

  /// `chain` with each mode once by equality, for modes that are their own key (a head's),
  /// over `all` in `order` (`largestFirstOrder(all)`, which the caller has already):
  /// compared in place up to `linearModes` modes, where copying and hashing a mode into a
  /// set costs more than comparing it with the few before.
  static func chain<M: ChoosableMode & Hashable>(_ firsts: [M?], _ all: [M], order: [Int]) -> [M] {
    guard all.count <= linearModes else { return chain(firsts, all, key: { $0 }) }
    var chain: [M] = []
    chain.reserveCapacity(firsts.count + all.count)
    // Equal modes have equal sizes and refreshes: only those are compared whole.
    var sizes: [(Int, Int, Double)] = []
    sizes.reserveCapacity(firsts.count + all.count)
    func add(_ mode: M) {
      let size = (mode.width, mode.height, mode.refreshHz)
      guard !sizes.indices.contains(where: { sizes[$0] == size && chain[$0] == mode }) else { return }
      chain.append(mode)
      sizes.append(size)
    }
    for case let mode? in firsts { add(mode) }
    for index in order { add(all[index]) }
    return chain
  }

  /// The indices of `all` in `largestFirst`'s order, found without moving the modes (a
  /// head's are large); its first is `largest(all)`'s.
  static func largestFirstOrder<M: ChoosableMode>(_ all: [M]) -> [Int] {
    let keys = all.map { (pixels($0), $0.refreshHz) }
    return keys.indices.sorted { keys[$0] > keys[$1] }
  }

  /// Modes a chain compares in place: more than a monitor lists.
  static let linearModes = 128

  /// Every mode, the most pixels first, then the highest refresh.
  private static func largestFirst<M: ChoosableMode>(_ all: [M]) -> [M] {
    all.sorted { (pixels($0), $0.refreshHz) > (pixels($1), $1.refreshHz) }
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
