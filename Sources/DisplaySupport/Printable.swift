/// Text from outside (an output's or a mode's name, an EDID string, anything a client or a
/// monitor can set) as one line for a terminal or a log: C0 controls, DEL, C1 controls and
/// the Unicode line and paragraph separators written as `\n`, `\r`, `\t` or `\u{hex}`, so no
/// name can forge a line or an escape sequence. Text without them is returned as it is. Every
/// text report and log line goes through this one function; JSON has its own escaping.
public func printable(_ text: String) -> String {
  func isControl(_ v: UInt32) -> Bool { v < 0x20 || (v >= 0x7F && v < 0xA0) || v == 0x2028 || v == 0x2029 }
  guard text.unicodeScalars.contains(where: { isControl($0.value) }) else { return text }
  var out = ""
  out.reserveCapacity(text.utf8.count + 8)
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case _ where isControl(scalar.value): out += "\\u{" + String(scalar.value, radix: 16) + "}"
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out
}

/// Lines of a text report, each made `printable`, each ended by a newline.
public func printableLines(_ lines: [String]) -> String { lines.map { printable($0) + "\n" }.joined() }
