extension ProfileSave {
  /// `profile save --write`: the config text with `object` appended to its `profiles` list
  /// (or a `profiles` key added to the top-level object), every other byte (comments,
  /// formatting) kept. Throws a config error for a config that does not parse, one whose
  /// `profiles` is not a list, or when the result does not (a name already taken) or does
  /// not read back with one profile more (a `profiles` key the scanner cannot name).
  public static func appending(_ object: String, toConfig bytes: [UInt8], file: String) throws(ConfigError) -> [UInt8] {
    let before = try Config.parse(bytes, file: file)
    guard let top = JSON5Locator.topLevelObject(in: bytes) else {
      throw ConfigError(file: file, message: "the config is not one JSON5 object")
    }
    let newline =
      bytes.indices.contains { bytes[$0] == 0x0D && $0 + 1 < bytes.count && bytes[$0 + 1] == 0x0A } ? "\r\n" : "\n"
    let edits: [(at: Int, text: String)]
    // The reader takes the first of two equal keys.
    if let profiles = top.members.first(where: { $0.key == "profiles" }) {
      guard let list = JSON5Locator.arrayElements(in: bytes, at: profiles.value.start) else {
        throw ConfigError(file: file, keyPath: "profiles", message: "expected a list")
      }
      edits = intoList(object, list, keyStart: profiles.keyStart, bytes, newline)
    } else {
      edits = newKey(object, top, bytes, newline)
    }
    var result = bytes
    // From the end, so offsets stay valid; of two at one offset, the later one first.
    for (_, edit) in edits.enumerated().sorted(by: { ($0.element.at, $0.offset) > ($1.element.at, $1.offset) }) {
      result.insert(contentsOf: Array(edit.text.utf8), at: edit.at)
    }
    guard try Config.parse(result, file: file).profiles.count == before.profiles.count + 1 else {
      throw ConfigError(
        file: file, keyPath: "profiles",
        message: "cannot tell where the profiles list is (a key written with escapes?); nothing written")
    }
    return result
  }

  /// After the last element (and its comma), or inside an empty list.
  static func intoList(
    _ object: String, _ list: (span: JSON5Locator.Span, members: [JSON5Locator.Member]), keyStart: Int,
    _ b: [UInt8], _ nl: String
  ) -> [(at: Int, text: String)] {
    guard let last = list.members.last else {
      let indent = indentation(of: keyStart, b)
      return [(list.span.start + 1, nl + indent + "  " + indented(object, indent + "  ", nl) + "," + nl + indent)]
    }
    let indent = indentation(of: last.value.start, b)
    let text = nl + indent + indented(object, indent, nl)
    if let comma = last.comma { return [(endOfLine(after: comma + 1, b), text + ",")] }
    return [(last.value.end, ","), (endOfLine(after: last.value.end, b), text)]
  }

  /// A `profiles` key after the last member of the top-level object.
  static func newKey(
    _ object: String, _ top: (span: JSON5Locator.Span, members: [JSON5Locator.Member]), _ b: [UInt8], _ nl: String
  ) -> [(at: Int, text: String)] {
    guard let last = top.members.last else {
      return [
        (top.span.start + 1, nl + "  profiles: [" + nl + "    " + indented(object, "    ", nl) + "," + nl + "  ]," + nl)
      ]
    }
    let indent = indentation(of: last.keyStart, b)
    let key =
      nl + indent + "profiles: [" + nl + indent + "  " + indented(object, indent + "  ", nl) + "," + nl + indent + "]"
    if let comma = last.comma { return [(endOfLine(after: comma + 1, b), key + ",")] }
    return [(last.value.end, ","), (endOfLine(after: last.value.end, b), key)]
  }

  /// The spaces and tabs that start the line holding `offset`.
  static func indentation(of offset: Int, _ b: [UInt8]) -> String {
    var start = offset
    while start > 0, b[start - 1] != 0x0A, b[start - 1] != 0x0D { start -= 1 }
    var end = start
    while end < offset, b[end] == 0x20 || b[end] == 0x09 { end += 1 }
    return String(decoding: b[start..<end], as: UTF8.self)
  }

  /// Where the line goes on after `offset` when only spaces or a `//` comment follow (so
  /// the comment stays with what it was written after), else `offset`.
  static func endOfLine(after offset: Int, _ b: [UInt8]) -> Int {
    var i = offset
    while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
    if i + 1 < b.count, b[i] == UInt8(ascii: "/"), b[i + 1] == UInt8(ascii: "/") {
      while i < b.count, b[i] != 0x0A, b[i] != 0x0D { i += 1 }
    }
    return i == b.count || b[i] == 0x0A || b[i] == 0x0D ? i : offset
  }

  /// The object's lines after the first, indented by `indent`.
  static func indented(_ object: String, _ indent: String, _ nl: String) -> String {
    object.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
      .map { $0.offset == 0 ? String($0.element) : indent + $0.element }.joined(separator: nl)
  }
}
