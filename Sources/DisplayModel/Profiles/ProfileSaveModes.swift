extension ProfileSave {
  /// Whether the mode policy picks the mode being saved for a request (and the kind of mode
  /// it makes, for a custom one).
  typealias Picks = (ModeRequest, CustomModeRequest?) -> Bool

  /// `mode: "WxH@R"`, and for a mode displayd made (`server`: the server's mode, whose name
  /// and timings tell), what makes it again: `custom: true` (with `reduced: true`) for CVT
  /// timings, else its `modeline`.
  static func modeFields(_ server: Mode?, width: Int, height: Int, refreshHz: Double, picks: Picks) -> [String] {
    guard let mode = server, let origin = CustomModes.origin(of: mode) else {
      return ["mode: " + quoted(modeText(width, height, refreshHz, picks))]
    }
    switch origin.custom {
    case .cvt(let reduced):
      let text = customModeText(origin.request, reduced, mode, picks)
      return ["mode: " + quoted(text), "custom: true"] + (reduced ? ["reduced: true"] : [])
    case .modeline(let line):
      let name = mode.name.dropFirst(CustomModes.prefix.count)
      return ["modeline: " + quoted((name.contains("\"") ? "" : "\"\(name)\" ") + line.description)]
    }
  }

  /// The rate as the mode was asked for (its name has it), when that finds this very mode.
  static func customModeText(_ request: ModeRequest, _ reduced: Bool, _ mode: Mode, _ picks: Picks) -> String {
    guard case .sizeRate(let w, let h, let r) = request else { return "\(mode.width)x\(mode.height)" }
    for places in 0...2 {
      let text = "\(w)x\(h)@" + fixed(r, places: places)
      guard let parsed = ModeRequest(text) else { continue }
      if picks(parsed, .cvt(reduced: reduced)) { return text }
    }
    return "\(w)x\(h)@" + fixed(r, places: 2)
  }

  /// `WxH@R` with as many decimals as it takes for the mode policy to pick this very mode.
  static func modeText(_ width: Int, _ height: Int, _ refreshHz: Double, _ picks: Picks) -> String {
    let size = "\(width)x\(height)"
    guard refreshHz > 0, refreshHz <= ModeRequest.maxRefresh else { return size }
    for places in 2...6 {
      let text = size + "@" + fixed(refreshHz, places: places)
      if let request = ModeRequest(text), picks(request, nil) { return text }
    }
    return size + "@" + fixed(refreshHz, places: 3)
  }
}
