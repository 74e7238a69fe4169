/// A JSON value with ordered object keys, for the CLI's `--json` output.
///
/// Written by hand rather than with Foundation's encoder so that key order is the documented
/// one and the CLI does not pay Foundation's start-up cost.
public indirect enum JSON: Hashable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case double(Double)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  public static func == (a: JSON, b: JSON) -> Bool { a.serialized() == b.serialized() }
  public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

  /// Compact JSON text, one line.
  public func serialized() -> String {
    var out = ""
    write(to: &out)
    return out
  }

  public func write(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .double(let d): out += d.isFinite ? JSON.format(d) : "null"
    case .string(let s): JSON.quote(s, into: &out)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        item.write(to: &out)
      }
      out += "]"
    case .object(let members):
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        JSON.quote(key, into: &out)
        out += ":"
        value.write(to: &out)
      }
      out += "}"
    }
  }

  /// Integral values print without a fraction only when they are whole; others in Swift's
  /// shortest round-tripping form.
  static func format(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) + ".0" }
    return String(d)
  }

  static func quote(_ s: String, into out: inout String) {
    out += "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}

extension JSON {
  /// `.null` for nil, else the value.
  public static func optional<T>(_ value: T?, _ make: (T) -> JSON) -> JSON {
    value.map(make) ?? .null
  }
}
