/// One `output NAME` block of an autorandr `config` file: its lines, with their numbers.
struct AutorandrConfig {
  var connector: String
  /// The `output` line's number.
  var line: Int
  var options: [(line: Int, key: String, value: String?)] = []

  var off: Bool { options.contains { $0.key == "off" } }

  /// The file's blocks; lines before the first `output` are noted and left out.
  static func blocks(_ text: String, file: String, _ notes: inout [ImportNote]) throws(ImportNote) -> [Self] {
    var blocks: [Self] = []
    for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let words = raw.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
      guard let first = words.first.map({ String($0).trimmed }), !first.isEmpty, !first.hasPrefix("#") else { continue }
      let value = words.count > 1 ? String(words[1]).trimmed : nil
      if first == "output" {
        guard let name = value, !name.isEmpty else { throw ImportNote(file, n + 1, "`output` without a connector") }
        guard !blocks.contains(where: { $0.connector == name }) else { throw ImportNote(file, n + 1, "\(name) twice") }
        blocks.append(Self(connector: name, line: n + 1))
      } else if blocks.isEmpty {
        notes.append(ImportNote(file, n + 1, "`\(first)` before any `output` line: ignored"))
      } else {
        blocks[blocks.count - 1].options.append((n + 1, first, value))
      }
    }
    return blocks
  }

  /// The profile entry for this block.
  func entry(match: String, file: String, _ notes: inout [ImportNote]) throws(ImportNote) -> ImportedOutput {
    var entry = ImportedOutput(match: match)
    if off {
      entry.enabled = false
      for option in options where option.key != "off" {
        notes.append(ImportNote(file, option.line, "`\(option.key)` of an output that is off: ignored"))
      }
      return entry
    }
    for (line, key, value) in options {
      let at = { (message: String) in ImportNote(file, line, message) }
      if let why = AutorandrImport.ignored[key] {
        notes.append(at("`\(key)` ignored: \(why)"))
        continue
      }
      if key.hasPrefix("x-prop-") {
        try property(String(key.dropFirst(7)), value, &entry, at, &notes)
        continue
      }
      try option(key, value, &entry, at, &notes)
    }
    guard entry.width != nil else { throw ImportNote(file, line, "\(connector) is lit but has no `mode`") }
    if entry.x == nil { (entry.x, entry.y) = (0, 0) }
    return entry
  }

  private func option(
    _ key: String, _ value: String?, _ entry: inout ImportedOutput, _ at: (String) -> ImportNote,
    _ notes: inout [ImportNote]
  ) throws(ImportNote) {
    let v = value ?? ""
    switch key {
    case "mode":
      let sized = v.prefix { $0.isNumber || $0 == "x" }
      let size = sized.split(separator: "x")
      guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), ModeRequest.sizes.contains(w),
        ModeRequest.sizes.contains(h)
      else { throw at("mode '\(v)' is not WxH") }
      (entry.width, entry.height) = (w, h)
      // `1920x1080i`, or a mode made by hand (`1600x700_60.00`): the size is what is kept.
      let rest = v.dropFirst(sized.count)
      if !rest.isEmpty { notes.append(at("mode '\(v)': '\(rest)' dropped, imported as the size \(w)x\(h)")) }
    case "rate":
      guard let r = Double(v), r > 0, r <= ModeRequest.maxRefresh else { throw at("rate '\(v)' is not a refresh rate") }
      entry.refresh = v
    case "pos":
      guard let (x, y) = ImportedOutput.position(Substring(v), separator: "x") else {
        throw at("pos '\(v)' is not XxY")
      }
      (entry.x, entry.y) = (x, y)
    case "rotate":
      guard let r = RotateRequest(rawValue: v) else { throw at("rotate '\(v)' is not normal, left, right or inverted") }
      entry.rotate = r
    case "reflect":
      guard let r = v == "normal" ? ReflectRequest.none : ReflectRequest(rawValue: v) else {
        throw at("reflect '\(v)' is not normal, x, y or xy")
      }
      entry.reflect = r
    case "primary": entry.primary = true
    case "transform", "scale":
      scale(key, v, &entry, at, &notes)
    default:
      notes.append(at("unknown option `\(key)`: ignored"))
    }
  }

  /// A transform or `--scale` that is one factor on both axes is displayd's `scale`.
  private func scale(
    _ key: String, _ v: String, _ entry: inout ImportedOutput, _ at: (String) -> ImportNote, _ notes: inout [ImportNote]
  ) {
    let numbers = v.split(whereSeparator: { $0 == "," || $0 == "x" }).compactMap { Double($0) }
    let factor: Double?
    if key == "scale" {
      factor = numbers.count == 2 && numbers[0] == numbers[1] ? numbers[0] : nil
    } else if numbers.count == 9, numbers[0] == numbers[4], numbers[8] == 1,
      [1, 2, 3, 5, 6, 7].allSatisfy({ numbers[$0] == 0 })
    {
      factor = numbers[0]
    } else {
      factor = nil
    }
    guard let factor, let s = ImportedOutput.scale(factor) else {
      notes.append(at("`\(key) \(v)` is not one scale factor of 0.25...8: ignored"))
      return
    }
    entry.scale = s
  }

  private func property(
    _ key: String, _ value: String?, _ entry: inout ImportedOutput, _ at: (String) -> ImportNote,
    _ notes: inout [ImportNote]
  ) throws(ImportNote) {
    guard let name = AutorandrImport.properties[key] else {
      notes.append(at("unknown property `\(key)`: ignored"))
      return
    }
    if name == "non-desktop" {
      notes.append(at("`non-desktop` is the monitor's, not a setting: ignored"))
      return
    }
    guard let value, !value.isEmpty else { throw at("property `\(key)` without a value") }
    entry.properties.append((name, Int(value).map(PropertyValue.integer) ?? .text(value)))
  }
}

extension String {
  /// Without leading and trailing blanks (spaces, tabs, carriage returns).
  var trimmed: String {
    var s = Substring(self)
    while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
    return String(s)
  }
}
