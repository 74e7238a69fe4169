/// The text form of `displayd status`.
public enum StatusReport {
  public static func text(_ status: JSON) -> String {
    func str(_ v: JSON?) -> String {
      switch v {
      case .string(let s)?: return s
      case .int(let i)?: return String(i)
      default: return "-"
      }
    }
    var lines = ["displayd on \(str(status["display"])) since \(str(status["since"])), main \(str(status["main"]))"]
    lines.append(
      "config: \(str(status["config"]))"
        + (status["config_error"].flatMap {
          if case .string(let e) = $0 { return " (error: \(e); previous config in force)" } else { return nil }
        } ?? ""))
    if let p = status["profile"] {
      let name = p["name"].flatMap { if case .string(let s) = $0 { return s } else { return nil } }
      lines.append("profile: " + (name.map { "\($0) (\(str(p["reason"])))" } ?? "none"))
    }
    if case .array(let monitors)? = status["monitors"] {
      if monitors.isEmpty { lines.append("no external monitors") }
      for m in monitors {
        var who = ""
        if let id = m["identity"], case .object = id {
          who = " [\(str(id["manufacturer"])) \(str(id["product_name"]))]"
        }
        let window: String
        if case .int(let w)? = m["window"] { window = "0x" + String(w, radix: 16) } else { window = "-" }
        lines.append(
          "  \(str(m["output"]))\(who): \(str(m["mode"])), window \(window), \(str(m["content"])), level \(str(m["level"])), since \(str(m["since"]))"
        )
      }
    }
    if let c = status["counters"] {
      lines.append(
        "reconciles: \(str(c["reconciles"])) (\(str(c["reconciles_changed"])) changed the layout); windows created \(str(c["windows_created"])), destroyed \(str(c["windows_destroyed"]))"
      )
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
