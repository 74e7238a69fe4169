import DisplayModel
import Foundation

/// What a planner answers, as one line a person can read and a golden file can hold: each
/// head's configuration (`NAME off`, or `NAME MODE +X+Y` with what differs from a plain
/// head), the primary, the physical size, the heads the plan configures and its warnings.
enum PlanText {
  static func line(_ plan: RulePlan) -> String {
    configuration(plan.configuration) + configures(plan.configures) + warnings(plan.warnings)
  }

  static func line(_ plan: ProfilePlan) -> String {
    configuration(plan.configuration) + configures(plan.configures) + warnings(plan.warnings)
      + (plan.dpi.map { " | dpi " + String(format: "%.3f", $0) } ?? "")
  }

  static func configuration(_ c: OutputConfiguration) -> String {
    var text = c.heads.isEmpty ? "nothing" : c.heads.map(head).joined(separator: "; ")
    if let primary = c.primary { text += " | primary \(primary)" }
    if let size = c.physicalSize { text += " | \(size.width)x\(size.height) mm" }
    return text
  }

  static func head(_ h: HeadConfiguration) -> String {
    guard h.enabled else { return "\(h.name) off" }
    var words = [h.name, h.mode.map(mode) ?? "no-mode", "+\(h.x)+\(h.y)"]
    if h.transform != .normal { words.append("\(h.transform)") }
    if h.spelling != .turned { words.append("spelled \(h.spelling)") }
    if h.scale != 1 || h.scaleY != nil {
      words.append("scale " + number(h.scale) + (h.scaleY.map { "x" + number($0) } ?? ""))
    }
    if h.scaleFilter != .bilinear { words.append("filter \(h.scaleFilter)") }
    if let target = h.sameAs { words.append("same-as \(target)") }
    if !h.fallbackModes.isEmpty { words.append("fallbacks " + h.fallbackModes.map(mode).joined(separator: ",")) }
    if h.modeIsDefault { words.append("default") }
    return words.joined(separator: " ")
  }

  static func mode(_ m: HeadModeRequest) -> String {
    switch m {
    case .listed(let w, let h, let r): return "\(w)x\(h)@\(r)"
    default: return "\(m)"
    }
  }

  static func number(_ d: Double) -> String {
    d == d.rounded() ? String(Int(d)) : String(format: "%.6g", d)
  }

  static func configures(_ names: Set<String>) -> String {
    names.isEmpty ? "" : " | configures " + names.sorted().joined(separator: ",")
  }

  static func warnings(_ warnings: [PlanWarning]) -> String {
    warnings.isEmpty ? "" : " | warnings: " + warnings.map(\.description).joined(separator: " / ")
  }

  /// The windows the policy wants, one a head: its area, level, content, and what it mirrors.
  static func windows(_ wanted: [WindowWanted]) -> String {
    guard !wanted.isEmpty else { return "no window" }
    return wanted.map { w in
      var words = [w.head, w.rect.description, "level \(w.level)", "\(w.content)"]
      if let source = w.mirrorSource { words.append("of \(source)") }
      if let m = w.mirror { words.append("content " + m.content.description) }
      if w.content == .mirror { words += ["filter \(w.filter)", w.cursor ? "cursor" : "no-cursor"] }
      words.append(String(format: "%.3fHz", w.refreshHz))
      if let why = w.refusal { words.append("refused: \(why)") }
      words.append(
        "picture \(w.picture.width)x\(w.picture.height) dpi " + String(format: "%.2f", w.picture.density)
          + (w.picture.details.map { " \"\($0)\"" } ?? ""))
      return words.joined(separator: " ")
    }.joined(separator: "; ")
  }
}
