extension JSON5Locator {
  /// Where a value lies: its first byte, and the byte after its last.
  struct Span: Equatable {
    var start: Int
    var end: Int
  }

  /// One member of an object, or one element of an array (with an empty key): where its key
  /// starts, its value, and the offset of the comma after it, if any.
  struct Member: Equatable {
    var key: String
    var keyStart: Int
    var value: Span
    var comma: Int?
  }

  /// The top-level object of valid JSON5 text: its braces and members; nil for other text.
  static func topLevelObject(in bytes: [UInt8]) -> (span: Span, members: [Member])? {
    guard firstError(in: bytes) == nil else { return nil }
    var s = JSON5Locator(b: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { s.i = 3 }
    do {
      try s.skipSpace()
      return try s.members(close: UInt8(ascii: "}"))
    } catch {
      return nil
    }
  }

  /// The elements of the array whose `[` is at `open`, in valid JSON5 text.
  static func arrayElements(in bytes: [UInt8], at open: Int) -> (span: Span, members: [Member])? {
    guard firstError(in: bytes) == nil, open < bytes.count, bytes[open] == UInt8(ascii: "[") else { return nil }
    var s = JSON5Locator(b: bytes)
    s.i = open
    do {
      return try s.members(close: UInt8(ascii: "]"))
    } catch {
      return nil
    }
  }

  /// Walks an object (keyed members) or an array up to `close`, from its opening bracket.
  private mutating func members(close: UInt8) throws(Problem) -> (span: Span, members: [Member]) {
    let start = i
    guard peek == (close == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")) else {
      throw problem("not the expected bracket")
    }
    i += 1
    try skipSpace()
    var result: [Member] = []
    while let c = peek, c != close {
      let keyStart = i
      var key = ""
      if close == UInt8(ascii: "}") {
        if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
          try string()
          key = String(decoding: b[(keyStart + 1)..<(i - 1)], as: UTF8.self)
        } else {
          key = identifier()
        }
        try skipSpace()
        i += 1  // ':'
        try skipSpace()
      }
      let valueStart = i
      try value(depth: 1)
      let member = Member(key: key, keyStart: keyStart, value: Span(start: valueStart, end: i), comma: nil)
      try skipSpace()
      result.append(member)
      if peek == UInt8(ascii: ",") {
        result[result.count - 1].comma = i
        i += 1
        try skipSpace()
      }
    }
    i += 1
    return (Span(start: start, end: i), result)
  }
}

extension JSON5Locator {
  /// Where a key path (`monitors[0].custom`) is written in text the decoder took, so an error
  /// about a value can name its line as a syntax error does: the offset of the path's last key
  /// (or element), else of the deepest part found; nil when not even the first is.
  static func offset(of path: [CodingKey], in bytes: [UInt8]) -> Int? {
    var s = JSON5Locator(b: bytes)
    var best: Int?
    for key in path {
      guard let start = try? s.enter(key) else { break }
      best = start
    }
    return best
  }

  /// In the object (for a named key) or the array (for an index) that starts here, moves to
  /// the value of the first member `key` names and returns where that member starts; nil
  /// when there is none.
  private mutating func enter(_ key: CodingKey) throws(Problem) -> Int? {
    try skipSpace()
    let close: UInt8
    switch (peek, key.intValue) {
    case (UInt8(ascii: "{"), nil): close = UInt8(ascii: "}")
    case (UInt8(ascii: "["), _?): close = UInt8(ascii: "]")
    default: return nil
    }
    i += 1
    try skipSpace()
    var n = 0
    while let c = peek, c != close {
      let start = i
      if close == UInt8(ascii: "]") {
        if n == key.intValue { return start }
      } else {
        let name = try memberName()
        try skipSpace()
        guard peek == UInt8(ascii: ":") else { return nil }
        i += 1
        if name == key.stringValue { return start }
        try skipSpace()
      }
      try value(depth: 1)
      try skipSpace()
      if peek == UInt8(ascii: ",") {
        i += 1
        try skipSpace()
      }
      n += 1
    }
    return nil
  }

  /// A key's text as written: between its quotes, or bare (escapes left as they are).
  private mutating func memberName() throws(Problem) -> String {
    let start = i
    if peek == UInt8(ascii: "\"") || peek == UInt8(ascii: "'") {
      try string()
      return String(decoding: b[(start + 1)..<(i - 1)], as: UTF8.self)
    }
    while let d = peek, isIdentifierPart(d) || d == UInt8(ascii: "\\") { i += 1 }
    return String(decoding: b[start..<i], as: UTF8.self)
  }
}
