/// Finds where a key path (`monitors[0].custom`) is written in JSON5 text, so an error about
/// a value can name its line as a syntax error does. Text the decoder took is valid JSON5, so
/// this walks it simply: objects, arrays, strings, comments, and any other token up to a
/// delimiter. It builds nothing; nil when the path is not found.
struct KeyPathLocator {
  private let b: [UInt8]
  private var i = 0

  /// The offset of the path's last key (or element), else of the deepest part found.
  static func offset(of path: [CodingKey], in bytes: [UInt8]) -> Int? {
    guard !path.isEmpty else { return nil }
    var locator = KeyPathLocator(b: bytes)
    var best: Int?
    locator.find(path[...], &best)
    return best
  }

  private init(b: [UInt8]) { self.b = b }

  private mutating func find(_ path: ArraySlice<CodingKey>, _ best: inout Int?) {
    skipSpace()
    guard let key = path.first, i < b.count else { return }
    if b[i] == UInt8(ascii: "{"), key.intValue == nil {
      i += 1
      while skipSpace(), i < b.count, b[i] != UInt8(ascii: "}") {
        let start = i
        let name = readKey()
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: ":") { i += 1 }
        if name == key.stringValue {
          best = start
          return find(path.dropFirst(), &best)
        }
        skipValue()
        skipComma()
        guard i > start else { return }
      }
    } else if b[i] == UInt8(ascii: "["), let index = key.intValue {
      i += 1
      var n = 0
      while skipSpace(), i < b.count, b[i] != UInt8(ascii: "]") {
        let start = i
        if n == index {
          best = i
          return find(path.dropFirst(), &best)
        }
        skipValue()
        skipComma()
        guard i > start else { return }
        n += 1
      }
    }
  }

  /// A quoted or bare key's text.
  private mutating func readKey() -> String {
    if i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
      let start = i + 1
      skipString()
      return String(decoding: b[start..<max(start, i - 1)], as: UTF8.self)
    }
    let start = i
    while i < b.count, !isDelimiter(b[i]), b[i] != UInt8(ascii: ":") { i += 1 }
    return String(decoding: b[start..<i], as: UTF8.self)
  }

  private mutating func skipValue() {
    skipSpace()
    guard i < b.count else { return }
    switch b[i] {
    case UInt8(ascii: "\""), UInt8(ascii: "'"): skipString()
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      let close = b[i] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
      i += 1
      while skipSpace(), i < b.count, b[i] != close {
        let start = i
        if close == UInt8(ascii: "}") {
          _ = readKey()
          skipSpace()
          if i < b.count, b[i] == UInt8(ascii: ":") { i += 1 }
        }
        skipValue()
        skipComma()
        guard i > start else { return }
      }
      i += 1
    default:
      while i < b.count, !isDelimiter(b[i]) { i += 1 }
    }
  }

  private mutating func skipString() {
    let quote = b[i]
    i += 1
    while i < b.count, b[i] != quote {
      i += b[i] == UInt8(ascii: "\\") ? 2 : 1
    }
    i = min(i + 1, b.count)
  }

  private mutating func skipComma() {
    skipSpace()
    if i < b.count, b[i] == UInt8(ascii: ",") { i += 1 }
  }

  /// Skips blanks and comments; true, so it can lead a loop condition.
  @discardableResult
  private mutating func skipSpace() -> Bool {
    while i < b.count {
      if b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D {
        i += 1
      } else if b[i] == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "/") {
        while i < b.count, b[i] != 0x0A { i += 1 }
      } else if b[i] == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "*") {
        i += 2
        while i + 1 < b.count, !(b[i] == UInt8(ascii: "*") && b[i + 1] == UInt8(ascii: "/")) { i += 1 }
        i = min(i + 2, b.count)
      } else {
        break
      }
    }
    return true
  }

  private func isDelimiter(_ c: UInt8) -> Bool {
    c == UInt8(ascii: ",") || c == UInt8(ascii: "}") || c == UInt8(ascii: "]") || c == 0x20 || c == 0x09
      || c == 0x0A || c == 0x0D || c == UInt8(ascii: "/")
  }
}
