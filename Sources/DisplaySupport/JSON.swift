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
    var out: [UInt8] = []
    out.reserveCapacity(1024)
    write(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  // Into bytes rather than a String: appending to a String one scalar at a time took a third
  // of `modes --json`'s own time.
  func write(to out: inout [UInt8]) {
    switch self {
    case .null: out += "null".utf8
    case .bool(let b): out += (b ? "true" : "false").utf8
    case .int(let i): out += String(i).utf8
    case .double(let d): out += (d.isFinite ? JSON.format(d) : "null").utf8
    case .string(let s): JSON.quote(s, into: &out)
    case .array(let items):
      out.append(UInt8(ascii: "["))
      for (i, item) in items.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        item.write(to: &out)
      }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      out.append(UInt8(ascii: "{"))
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        JSON.quote(key, into: &out)
        out.append(UInt8(ascii: ":"))
        value.write(to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
  }

  /// Integral values print without a fraction only when they are whole; others in Swift's
  /// shortest round-tripping form.
  static func format(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) + ".0" }
    return String(d)
  }

  // Byte by byte: every character that needs escaping is ASCII, and the bytes of any other
  // character (UTF-8, as a String holds it) are copied as they are.
  static func quote(_ s: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in s.utf8 {
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"):
        out.append(UInt8(ascii: "\\"))
        out.append(byte)
      case UInt8(ascii: "\n"): out += #"\n"#.utf8
      case UInt8(ascii: "\r"): out += #"\r"#.utf8
      case UInt8(ascii: "\t"): out += #"\t"#.utf8
      case 0..<0x20, 0x7F:
        let hex = String(byte, radix: 16)
        out += "\\u".utf8
        out += String(repeating: "0", count: 4 - hex.count).utf8
        out += hex.utf8
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}

extension JSON {
  /// `.null` for nil, else the value.
  public static func optional<T>(_ value: T?, _ make: (T) -> JSON) -> JSON {
    value.map(make) ?? .null
  }
}
