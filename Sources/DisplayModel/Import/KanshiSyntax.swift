/// A kanshi config as words, braces and line ends, with their line numbers. Pure.
///
/// kanshi's syntax (kanshi(5)): directives are words separated by blanks, ended by a line
/// end; a word may be quoted with `"` to hold blanks; `#` starts a comment; `{` and `}`
/// open and close a block.
struct KanshiToken: Equatable {
  enum Kind: Equatable {
    case word(String)
    case open, close, end
  }
  var kind: Kind
  var line: Int
}

enum KanshiSyntax {
  static func tokens(_ text: String, file: String) throws(ImportNote) -> [KanshiToken] {
    var tokens: [KanshiToken] = []
    var line = 1
    var chars = Array(text.unicodeScalars)[...]
    func add(_ kind: KanshiToken.Kind) { tokens.append(KanshiToken(kind: kind, line: line)) }
    while let c = chars.first {
      switch c {
      case "\n":
        chars.removeFirst()
        add(.end)
        line += 1
      case " ", "\t", "\r": chars.removeFirst()
      case "#": while let d = chars.first, d != "\n" { chars.removeFirst() }
      case "{":
        chars.removeFirst()
        add(.open)
      case "}":
        chars.removeFirst()
        add(.close)
      case "\"":
        chars.removeFirst()
        var word = String.UnicodeScalarView()
        while let d = chars.first, d != "\"" {
          guard d != "\n" else { throw ImportNote(file, line, "a quoted word does not end on its line") }
          word.append(chars.removeFirst())
        }
        guard !chars.isEmpty else { throw ImportNote(file, line, "a quoted word does not end") }
        chars.removeFirst()
        add(.word(String(word)))
      default:
        var word = String.UnicodeScalarView()
        while let d = chars.first, !" \t\r\n{}#\"".unicodeScalars.contains(d) { word.append(chars.removeFirst()) }
        add(.word(String(word)))
      }
    }
    add(.end)
    return tokens
  }
}

/// A directive: its words and, when it opens one, the directives of its block.
struct KanshiDirective {
  var words: [String]
  var line: Int
  var block: [KanshiDirective]?

  /// The directives of a token stream, up to an unmatched `}` (or the end).
  /// Blocks nest two deep at most (`profile { output { … } }`), as in kanshi: deeper ones are
  /// an error, never dropped, and no file can recurse the parser into a stack overflow.
  static let maxDepth = 2

  static func parse(
    _ tokens: inout ArraySlice<KanshiToken>, file: String, nested: Bool, depth: Int = 0
  ) throws(ImportNote) -> [Self] {
    var directives: [Self] = []
    var current: Self?
    while let token = tokens.popFirst() {
      switch token.kind {
      case .word(let w):
        if current == nil { current = Self(words: [], line: token.line) }
        current?.words.append(w)
      case .end:
        if let c = current { directives.append(c) }
        current = nil
      case .open:
        guard var c = current else { throw ImportNote(file, token.line, "`{` without a directive before it") }
        guard depth < Self.maxDepth else { throw ImportNote(file, token.line, "blocks nested too deep") }
        c.block = try parse(&tokens, file: file, nested: true, depth: depth + 1)
        directives.append(c)
        current = nil
      case .close:
        guard nested else { throw ImportNote(file, token.line, "`}` without a `{`") }
        if let c = current { directives.append(c) }
        return directives
      }
    }
    if nested { throw ImportNote(file, directives.last?.line ?? 1, "a `{` is not closed") }
    if let c = current { directives.append(c) }
    return directives
  }
}
