import DisplayKit
import DisplayService

/// The text form of `displayd status`.
public enum StatusReport {
  public static func text(_ status: StatusAnswer) -> String {
    var lines = ["displayd on \(status.display) since \(status.since), main \(status.main ?? "-")"]
    lines.append(
      "config: \(status.config ?? "-")"
        + (status.configError.map { " (error: \($0); previous config in force)" } ?? ""))
    lines.append("profile: " + (status.profile.name.map { "\($0) (\(status.profile.reason))" } ?? "none"))
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
    return printableLines(lines)
  }
}
