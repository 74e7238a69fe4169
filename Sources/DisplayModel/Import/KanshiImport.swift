/// A kanshi config's profiles as displayd profiles. Pure: the command reads the file.
///
/// `profile [NAME] { output CRITERIA COMMAND... }`, each output's commands on its line or in
/// a `{ ... }` block; top-level `output CRITERIA ...` directives give defaults for the
/// profiles' outputs with the same criteria (or their `alias $NAME`). A kanshi profile
/// matches when each of its outputs matches a connected one and there are no others, as a
/// displayd profile does. kanshi's `scale S` shows an area 1/S times the mode: displayd's
/// `scale` 1/S.
public enum KanshiImport {
  /// Reads every profile; `vendors` maps a company name (hwdata's pnp.ids) to its PNP id,
  /// for descriptions (`"Dell Inc. DELL U2415 7MT0167B2YNL"`).
  public static func read(_ text: String, file: String, vendors: [String: String] = [:]) -> ImportResult {
    var result = ImportResult()
    let directives: [KanshiDirective]
    do {
      var tokens = try KanshiSyntax.tokens(text, file: file)[...]
      directives = try KanshiDirective.parse(&tokens, file: file, nested: false)
    } catch {
      result.broken.append(error)
      return result
    }
    var reader = KanshiReader(file: file, vendors: vendors)
    for d in directives where d.words.first == "output" {
      guard d.words.count >= 2 else {
        result.broken.append(ImportNote(file, d.line, "`output` without criteria"))
        continue
      }
      reader.defaults.append(d)
    }
    for d in directives {
      switch d.words.first {
      case "output": continue
      case "profile":
        let name = d.words.count > 1 ? d.words[1] : "kanshi line \(d.line)"
        if d.words.count == 1 { result.notes.append(ImportNote(file, d.line, "a profile without a name: '\(name)'")) }
        guard let block = d.block, d.words.count <= 2 else {
          result.broken.append(ImportNote(file, d.line, "expected `profile [NAME] { ... }`"))
          continue
        }
        if result.profiles.contains(where: { $0.name == name }) {
          result.broken.append(ImportNote(file, d.line, "a second profile named '\(name)'"))
          continue
        }
        switch reader.profile(name, block) {
        case .success(let p): result.profiles.append(p)
        case .failure(let e): result.broken.append(e)
        }
      case "include":
        result.notes.append(ImportNote(file, d.line, "`include` not followed: import that file by itself"))
      default:
        result.notes.append(ImportNote(file, d.line, "unknown directive `\(d.words.first ?? "")`: ignored"))
      }
    }
    for d in reader.defaults where !reader.used.contains(d.line) {
      result.notes.append(ImportNote(file, d.line, "top-level `output \(d.words[1])` is used by no profile: ignored"))
    }
    result.notes += reader.notes
    result.notes.sort { ($0.line ?? 0) < ($1.line ?? 0) }
    return result
  }

  /// hwdata's `pnp.ids` (`ABC<tab>Company`) as company → PNP id (the first id of a name).
  public static func vendors(pnpIDs text: String) -> [String: String] {
    var table: [String: String] = [:]
    for line in text.split(separator: "\n") {
      let parts = line.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2, parts[0].count == 3 else { continue }
      let name = String(parts[1]).trimmed
      if table[name] == nil { table[name] = String(parts[0]) }
    }
    return table
  }
}

/// The profile-by-profile state of one import: the top-level defaults and the notes.
struct KanshiReader {
  let file: String
  let vendors: [String: String]
  var defaults: [KanshiDirective] = []
  /// The lines of the defaults some profile's output took.
  var used: Set<Int> = []
  var notes: [ImportNote] = []

  mutating func profile(_ name: String, _ block: [KanshiDirective]) -> Result<ImportedProfile, ImportNote> {
    var outputs: [ImportedOutput] = []
    do {
      for d in block {
        switch d.words.first {
        case "output": outputs.append(try output(d))
        case "exec":
          notes.append(ImportNote(file, d.line, "`exec` not imported: put it in the profile's hooks.applied"))
        default: notes.append(ImportNote(file, d.line, "unknown profile directive `\(d.words.first ?? "")`: ignored"))
        }
      }
    } catch {
      return .failure(error)
    }
    guard !outputs.isEmpty else { return .failure(ImportNote(file, nil, "profile '\(name)' has no outputs")) }
    return .success(ImportedProfile(name: name, outputs: outputs))
  }

  mutating func output(_ d: KanshiDirective) throws(ImportNote) -> ImportedOutput {
    guard d.words.count >= 2 else { throw ImportNote(file, d.line, "`output` without criteria") }
    var criteria = d.words[1]
    var commands: [(line: Int, words: [String])] = []
    // A profile's `output $NAME` takes the criteria of the top-level output aliased NAME.
    for top in defaults {
      let aliased =
        criteria.hasPrefix("$") && zip(top.words, top.words.dropFirst()).contains { $0 == ("alias", criteria) }
      guard aliased || top.words[1] == criteria else { continue }
      if aliased { criteria = top.words[1] }
      used.insert(top.line)
      commands += [(top.line, Array(top.words.dropFirst(2)))] + (top.block ?? []).map { ($0.line, $0.words) }
    }
    guard !criteria.hasPrefix("$") else {
      throw ImportNote(file, d.line, "no top-level output has `alias \(criteria)`")
    }
    commands += [(d.line, Array(d.words.dropFirst(2)))] + (d.block ?? []).map { ($0.line, $0.words) }
    var entry = ImportedOutput(match: try match(criteria, d.line))
    for (line, words) in commands { try apply(words, line, &entry) }
    return entry
  }

  /// `*`, a connector, or a description `Make Model Serial`.
  mutating func match(_ criteria: String, _ line: Int) throws(ImportNote) -> String {
    var m = MonitorMatch()
    if criteria == "*" {
      m.output = "*"
      return ProfileSave.text(m)
    }
    let words = criteria.split(separator: " ").map(String.init)
    guard words.count > 1 else {
      m.output = ProfileSave.escaped(criteria)
      return ProfileSave.text(m)
    }
    var rest = words[...]
    if let (make, code) = vendors.filter({ criteria.hasPrefix($0.key + " ") }).max(by: { $0.key.count < $1.key.count })
    {
      rest = rest.dropFirst(make.split(separator: " ").count)
      m.manufacturer = code
    } else if let first = rest.first, first.count == 3, first.allSatisfy({ $0.isUppercase && $0.isASCII }) {
      m.manufacturer = first
      rest = rest.dropFirst()
    } else if let first = rest.first, rest.count >= 3, rest.last == "Unknown" {
      // Where the make ends is not known, and there is no serial to tell the monitor by: the
      // make's first word and the model's last one.
      m.manufacturer = ProfileSave.escaped(first) + "*"
      let last = rest[rest.endIndex - 2]
      if let code = HeadIdentity.hexNumber(last, digits: 4) {
        m.productCode = Int(code)
      } else {
        m.productName = "*" + ProfileSave.escaped(last)
      }
      notes.append(
        ImportNote(
          file, line,
          "the make in \"\(criteria)\" is not a known company (hwdata's pnp.ids) and there is no serial: "
            + "matched by the make's first word and the model's last"))
    } else {
      notes.append(
        ImportNote(
          file, line,
          "the make in \"\(criteria)\" is not a known company (hwdata's pnp.ids): matched by serial alone"))
    }
    let known = m.manufacturer != nil && m.productName == nil && m.productCode == nil
    let serial = rest.count > 1 ? rest.popLast() : nil
    let model = rest.joined(separator: " ")
    if known, let code = HeadIdentity.hexNumber(model, digits: 4) {
      m.productCode = Int(code)
    } else if known, !model.isEmpty {
      m.productName = ProfileSave.escaped(model)
    }
    if let serial, serial != "Unknown" {
      let text = HeadIdentity.hexNumber(serial, digits: 8).map { String($0) } ?? serial
      m.serial = ProfileSave.escaped(text)
    }
    guard m.productName != nil || m.productCode != nil || m.serial != nil else {
      throw ImportNote(file, line, "cannot tell a monitor by \"\(criteria)\"")
    }
    return ProfileSave.text(m)
  }

  /// One output command line: `enable`, `disable`, `mode`, `position`, `scale`, `transform`.
  mutating func apply(_ words: [String], _ line: Int, _ entry: inout ImportedOutput) throws(ImportNote) {
    var rest = words[...]
    let file = self.file
    let at = { (message: String) in ImportNote(file, line, message) }
    while let command = rest.popFirst() {
      switch command {
      case "enable": entry.enabled = true
      case "disable": entry.enabled = false
      case "alias", "adaptive_sync":
        guard let value = rest.popFirst() else { throw at("`\(command)` needs a value") }
        if command == "adaptive_sync" {
          notes.append(at("`adaptive_sync \(value)` ignored: X has no such output setting"))
        }
      case "mode":
        if rest.first == "--custom" {
          rest.removeFirst()
          notes.append(at("`mode --custom`: imported as a plain mode, which the monitor must list"))
        }
        guard let v = rest.popFirst() else { throw at("`mode` needs WxH[@R[Hz]]") }
        try mode(v, at, &entry)
      case "position":
        guard let (x, y) = ImportedOutput.position(Substring(rest.popFirst() ?? ""), separator: ",") else {
          throw at("`position` needs X,Y")
        }
        (entry.x, entry.y) = (x, y)
      case "scale":
        guard let s = rest.popFirst().flatMap(Double.init), s > 0, let scale = ImportedOutput.scale(1 / s) else {
          throw at("`scale` needs a factor of 0.125...4")
        }
        entry.scale = scale
      case "transform":
        guard let t = rest.popFirst(), let (rotate, reflect) = Self.transforms[t] else {
          throw at("`transform` needs normal, 90, 180, 270, flipped, flipped-90, flipped-180 or flipped-270")
        }
        (entry.rotate, entry.reflect) = (rotate, reflect)
      default: throw at("unknown output command `\(command)`")
      }
    }
  }

  /// `WxH`, `WxH@R` or `WxH@RHz`.
  func mode(_ v: String, _ at: (String) -> ImportNote, _ entry: inout ImportedOutput) throws(ImportNote) {
    let halves = v.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
    let size = halves[0].split(separator: "x", omittingEmptySubsequences: false)
    guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), ModeRequest.sizes.contains(w),
      ModeRequest.sizes.contains(h)
    else { throw at("mode '\(v)' is not WxH[@R[Hz]]") }
    (entry.width, entry.height, entry.refresh) = (w, h, nil)
    guard halves.count == 2 else { return }
    let rate = halves[1].hasSuffix("Hz") ? String(halves[1].dropLast(2)) : String(halves[1])
    guard let r = Double(rate), r > 0, r <= ModeRequest.maxRefresh else { throw at("mode '\(v)': bad refresh rate") }
    entry.refresh = rate
  }

  /// Wayland's output transforms as xrandr's rotations. kanshi sends them as the protocol names
  /// them (wl_output.transform), turning counter-clockwise: `90` is xrandr's `left` (sway,
  /// which names its turns clockwise, shows it as `270`; Xwayland says `left`);
  /// `flipped` mirrors the picture left to right before the turn.
  static let transforms: [String: (RotateRequest, ReflectRequest)] = [
    "normal": (.normal, .none), "90": (.left, .none), "180": (.inverted, .none), "270": (.right, .none),
    "flipped": (.normal, .x), "flipped-90": (.left, .x), "flipped-180": (.inverted, .x), "flipped-270": (.right, .x),
  ]
}
