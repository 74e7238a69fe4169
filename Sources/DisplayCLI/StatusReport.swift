import DisplayModel
import DisplayService
import DisplaySupport

/// The text form of `displayd status`.
public enum StatusReport {
  public static func text(_ status: StatusAnswer) -> String {
    var lines = ["displayd on \(status.display) since \(status.since), main \(status.main ?? "-")"]
    if let backend = status.backend {
      lines.append("backend: \(backend)" + (status.compositor.map { " (compositor: \($0))" } ?? ""))
    }
    lines.append(
      "config: \(status.config ?? "-")"
        + (status.configError.map { " (error: \($0); previous config in force)" } ?? ""))
    lines.append("profile: " + (status.profile.name.map { "\($0) (\(status.profile.reason))" } ?? "none"))
    if let dpi = status.xftDPI {
      lines.append("Xft.dpi: \(dpi)" + (status.xsettings.map { " (XSETTINGS manager: \($0))" } ?? ""))
    }
    if let layout = status.layout { lines.append("layout: " + text(layout)) }
    if status.monitors.isEmpty { lines.append("no external monitors") }
    for m in status.monitors {
      let who = m.identity.map { " [\($0.manufacturer) \($0.productName ?? "-")]" } ?? ""
      lines.append(
        "  \(m.output)\(who): \(m.mode ?? "-"), window 0x\(String(m.window, radix: 16)), \(m.content), "
          + "level \(m.level), since \(m.since)")
    }
    let c = status.counters
    lines.append(
      "reconciles: \(c.reconciles) (\(c.reconcilesChanged) changed the layout); "
        + "windows created \(c.windowsCreated), destroyed \(c.windowsDestroyed)")
    if let d = status.desktop {
      let who = d.manager.map { "\($0) (\(d.desktop ?? "-"))" } ?? "none seen"
      lines.append("desktop: \(who), policy \(d.policy): \(d.layout) lays the monitors out")
    }
    return printableLines(lines)
  }

  /// `automatic`, `chosen by hand: built-in mirror`, `chosen by hand: profile desk`.
  static func text(_ layout: StatusAnswer.LayoutRecord) -> String {
    if let builtin = layout.builtin { return "chosen by hand: built-in \(builtin)" }
    if let profile = layout.profile { return "chosen by hand: profile \(profile)" }
    return layout.byHand ? "chosen by hand" : "automatic"
  }
}
