extension ProfileSave {
  /// `mode: "WxH@R"`, and for a mode displayd made, what makes it again: `custom: true` (with
  /// `reduced: true`) for CVT timings, else its `modeline`.
  static func modeFields(_ mode: Mode, _ output: Output, _ t: Topology) -> [String] {
    guard let origin = CustomModes.origin(of: mode) else { return ["mode: " + quoted(modeText(mode, output, t))] }
    switch origin.custom {
    case .cvt(let reduced):
      let text = customModeText(origin.request, reduced, mode, output, t)
      return ["mode: " + quoted(text), "custom: true"] + (reduced ? ["reduced: true"] : [])
    case .modeline(let line):
      let name = mode.name.dropFirst(CustomModes.prefix.count)
      return ["modeline: " + quoted((name.contains("\"") ? "" : "\"\(name)\" ") + line.description)]
    }
  }

  /// The rate as the mode was asked for (its name has it), when that finds this very mode.
  static func customModeText(
    _ request: ModeRequest, _ reduced: Bool, _ mode: Mode, _ output: Output, _ t: Topology
  ) -> String {
    guard case .sizeRate(let w, let h, let r) = request else { return "\(mode.width)x\(mode.height)" }
    for places in 0...2 {
      let text = "\(w)x\(h)@" + fixed(r, places: places)
      guard let parsed = ModeRequest(text) else { continue }
      if ModePolicy.candidates(parsed, custom: .cvt(reduced: reduced), for: output, in: t).modes.first?.id == mode.id {
        return text
      }
    }
    return "\(w)x\(h)@" + fixed(r, places: 2)
  }
}
