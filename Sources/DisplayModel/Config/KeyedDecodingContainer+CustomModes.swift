/// The keys of a mode displayd makes, shared by `monitors` rules and profile entries.
let customModeKeys = ["custom", "reduced", "modeline"]

extension KeyedDecodingContainer where K == AnyKey {
  /// `custom: true` (with `reduced`) for CVT timings of `mode`, or `modeline`; nil when none
  /// is given. Errors name the key: `reduced` without `custom`, `custom` without a size or
  /// with timings a mode cannot carry, a modeline that is not one, or both at once.
  func customMode(mode: ModeRequest?) throws -> CustomModeRequest? {
    let custom: Bool = try optional("custom") ?? false
    let reduced: Bool? = try optional("reduced")
    if reduced != nil && !custom { throw error("reduced", "reduced blanking is for custom: true") }
    if let text: String = try optional("modeline") {
      if custom { throw error("modeline", "give either modeline or custom: true, not both") }
      switch ModeLine.parse(text) {
      case .failure(let why): throw error("modeline", "'\(text)' is not a modeline: \(why)")
      case .success(let line):
        if let mode, !Self.sameSize(mode, line) {
          throw error("modeline", "the modeline is \(line.hDisplay)x\(line.vDisplay) but mode is \(mode)")
        }
        return .modeline(line)
      }
    }
    guard custom else { return nil }
    let request = CustomModeRequest.cvt(reduced: reduced ?? false)
    guard let mode, mode != .preferred, mode != .highest, mode != .keep else {
      throw error("custom", "custom: true needs a mode \"WxH\" or \"WxH@R\" to compute CVT timings for")
    }
    guard CustomModes.wanted(mode, request) != nil else {
      throw error(
        "custom",
        "no CVT timings for \(mode) fit RandR (totals at most \(ModeLine.maxTiming), a clock at most 4294.967295 MHz)")
    }
    return request
  }

  private static func sameSize(_ mode: ModeRequest, _ line: ModeLine) -> Bool {
    switch mode {
    case .size(let w, let h), .sizeRate(let w, let h, _): return (w, h) == (line.hDisplay, line.vDisplay)
    case .preferred, .highest, .keep: return false
    }
  }

  private func error(_ key: String, _ text: String) -> DecodingError {
    DecodingError.dataCorruptedError(forKey: AnyKey(key), in: self, debugDescription: text)
  }
}
