/// Finds where JSON5 text first goes wrong, to name a line in a syntax error.
///
/// Foundation's decoder does the real reading; it reports only that text is not JSON5. This
/// scanner follows the JSON5 grammar (comments, trailing commas, unquoted keys, single
/// quotes, hex, Infinity, NaN) far enough to find the first offending byte. It builds nothing.
struct JSON5Locator {
  struct Problem: Equatable {
    var offset: Int
    var message: String
  }

  // Read by the structural walks beside it (JSON5LocatorPaths.swift).
  let b: [UInt8]
  var i = 0

  /// The first problem in `bytes`, or nil when the scanner finds none.
  static func firstError(in bytes: [UInt8]) -> Problem? {
    var scanner = JSON5Locator(b: bytes)
    // A UTF-8 byte-order mark, which Foundation skips too.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.i = 3 }
    do {
      try scanner.skipSpace()
      try scanner.value(depth: 0)
      try scanner.skipSpace()
      if scanner.i < bytes.count {
        return scanner.problem("unexpected \(scanner.describe()) after the end of the document")
      }
      return nil
    } catch {
      return error
    }
  }

  init(b: [UInt8]) { self.b = b }

  var peek: UInt8? { i < b.count ? b[i] : nil }

  func problem(_ message: String) -> Problem { Problem(offset: min(i, b.count), message: message) }

  private func describe() -> String {
    guard let c = peek else { return "end of file" }
    return c >= 0x20 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x" + String(c, radix: 16)
  }

  mutating func skipSpace() throws(Problem) {
    while let c = peek {
      if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0B || c == 0x0C {
        i += 1
      } else if c == 0x2F, i + 1 < b.count, b[i + 1] == 0x2F {
        while let d = peek, d != 0x0A, d != 0x0D { i += 1 }
      } else if c == 0x2F, i + 1 < b.count, b[i + 1] == 0x2A {
        let start = i
        i += 2
        while i + 1 < b.count, !(b[i] == 0x2A && b[i + 1] == 0x2F) { i += 1 }
        guard i + 1 < b.count else {
          i = start
          throw problem("unterminated /* comment")
        }
        i += 2
      } else {
        return
      }
    }
  }

  mutating func value(depth: Int) throws(Problem) {
    guard depth < 512 else { throw problem("nested too deeply") }
    switch peek {
    case UInt8(ascii: "{"): try object(depth: depth)
    case UInt8(ascii: "["): try array(depth: depth)
    case UInt8(ascii: "\""), UInt8(ascii: "'"): try string()
    case let c? where isNumberStart(c): try number()
    case let c? where isIdentifierStart(c):
      let start = i
      let word = identifier()
      guard ["true", "false", "null", "Infinity", "NaN"].contains(word) else {
        // Back to where the word began: its String may be longer than its bytes (invalid
        // UTF-8 becomes U+FFFD), so subtracting its length could go before the start.
        i = start
        throw problem("unexpected word '\(word)' (a string value needs quotes)")
      }
    default: throw problem("expected a value, found \(describe())")
    }
  }

  private mutating func object(depth: Int) throws(Problem) {
    i += 1
    try skipSpace()
    while peek != UInt8(ascii: "}") {
      if peek == UInt8(ascii: "\"") || peek == UInt8(ascii: "'") {
        try string()
      } else if let c = peek, isIdentifierStart(c) || c == UInt8(ascii: "\\") {
        // An unquoted key, which may hold \uXXXX escapes.
        while let d = peek, isIdentifierPart(d) || d == UInt8(ascii: "\\") { i += 1 }
      } else {
        throw problem("expected a key or '}', found \(describe())")
      }
      try skipSpace()
      guard peek == UInt8(ascii: ":") else { throw problem("expected ':' after the key, found \(describe())") }
      i += 1
      try skipSpace()
      try value(depth: depth + 1)
      try skipSpace()
      if peek == UInt8(ascii: ",") {
        i += 1
        try skipSpace()
      } else if peek != UInt8(ascii: "}") {
        throw problem("expected ',' or '}', found \(describe())")
      }
    }
    i += 1
  }

  private mutating func array(depth: Int) throws(Problem) {
    i += 1
    try skipSpace()
    while peek != UInt8(ascii: "]") {
      try value(depth: depth + 1)
      try skipSpace()
      if peek == UInt8(ascii: ",") {
        i += 1
        try skipSpace()
      } else if peek != UInt8(ascii: "]") {
        throw problem("expected ',' or ']', found \(describe())")
      }
    }
    i += 1
  }

  mutating func string() throws(Problem) {
    let quote = b[i]
    let start = i
    i += 1
    while let c = peek, c != quote {
      if c == 0x0A || c == 0x0D {
        i = start
        throw problem("unterminated string (a newline inside it needs a backslash)")
      }
      guard c == UInt8(ascii: "\\") else {
        i += 1
        continue
      }
      // An escape; a backslash before CR LF continues the string on the next line.
      i += i + 2 < b.count && b[i + 1] == 0x0D && b[i + 2] == 0x0A ? 3 : 2
    }
    guard peek == quote else {
      i = start
      throw problem("unterminated string")
    }
    i += 1
  }

  private mutating func number() throws(Problem) {
    if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { i += 1 }
    if let c = peek, isIdentifierStart(c) {
      let word = identifier()
      guard word == "Infinity" || word == "NaN" else { throw problem("invalid number") }
      return
    }
    let start = i
    while let c = peek,
      isIdentifierPart(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
    {
      if c == UInt8(ascii: "+") || c == UInt8(ascii: "-"),
        !(b[i - 1] == UInt8(ascii: "e") || b[i - 1] == UInt8(ascii: "E"))
      {
        break
      }
      i += 1
    }
    let text = String(decoding: b[start..<i], as: UTF8.self)
    let lower = text.lowercased()
    let valid =
      lower.hasPrefix("0x") ? UInt64(lower.dropFirst(2), radix: 16) != nil : Double(text) != nil && text != "."
    if !valid {
      i = start
      throw problem("invalid number '\(text)'")
    }
  }

  mutating func identifier() -> String {
    let start = i
    while let c = peek, isIdentifierPart(c) { i += 1 }
    return String(decoding: b[start..<i], as: UTF8.self)
  }

  private func isNumberStart(_ c: UInt8) -> Bool {
    (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
  }
  private func isIdentifierStart(_ c: UInt8) -> Bool {
    (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$")
      || c >= 0x80
  }
  func isIdentifierPart(_ c: UInt8) -> Bool { isIdentifierStart(c) || (c >= 0x30 && c <= 0x39) }
}

extension JSON5Locator.Problem: Error {}
