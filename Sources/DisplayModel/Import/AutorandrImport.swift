/// autorandr's saved profiles as displayd profiles. Pure: the command reads the files.
///
/// A profile is a folder with `setup` (one line per connected output: connector and EDID in
/// hex) and `config` (blocks starting `output NAME`, then `off` or xrandr-like options). The
/// monitor set is `setup`'s: the `off` blocks autorandr writes for every other connector are
/// not part of it. Monitors are matched by their EDID's identity as `profile save` matches
/// them; an output saved without an EDID by its connector.
public enum AutorandrImport {
  /// What autorandr writes in `setup` for a connected output without an EDID.
  public static let noEDID = "--CONNECTED-BUT-EDID-UNAVAILABLE-"
  /// The X output properties autorandr saves, by the key it writes (`x-prop-max_bpc`).
  static let properties: [String: String] = Dictionary(
    uniqueKeysWithValues: [
      "Colorspace", "max bpc", "aspect ratio", "Broadcast RGB", "audio", "non-desktop", "TearFree",
      "underscan vborder", "underscan hborder", "underscan", "scaling mode",
    ].map { (key(for: $0), $0) })
  static let ignored: [String: String] = [
    "crtc": "displayd picks the CRTCs", "panning": "displayd does no panning", "gamma": "displayd sets no gamma",
    "filter": "displayd's scale filter is `scale_filter`",
  ]

  /// autorandr's key for a property: lower case, each run of non-word characters one `_`.
  static func key(for property: String) -> String {
    var out = ""
    for c in property.lowercased() {
      if c.isLetter || c.isNumber || c == "_" {
        out.append(c)
      } else if out.last != "_" || out.isEmpty {
        out.append("_")
      }
    }
    return out
  }

  /// One profile from the texts of its `setup` and `config` files (named for the notes).
  public static func profile(
    name: String, setup: String, setupFile: String, config: String, configFile: String
  ) -> Result<(ImportedProfile, [ImportNote]), ImportNote> {
    var notes: [ImportNote] = []
    do {
      let desk = try monitors(setup, file: setupFile, &notes)
      var blocks = try AutorandrConfig.blocks(config, file: configFile, &notes)
      var lit: [ImportedOutput] = []
      var off: [ImportedOutput] = []
      for output in desk {
        let match = ProfileSave.match(output, desk)
        guard let i = blocks.firstIndex(where: { $0.connector == output.name }) else {
          notes.append(
            ImportNote(configFile, nil, "\(output.name) is in setup but not in config: displayd's defaults apply"))
          lit.append(ImportedOutput(match: match))
          continue
        }
        let block = blocks.remove(at: i)
        let entry = try block.entry(match: match, file: configFile, &notes)
        if entry.enabled { lit.append(entry) } else { off.append(entry) }
      }
      if let stray = blocks.first(where: { !$0.off }) {
        throw ImportNote(
          configFile, stray.line, "\(stray.connector) is lit but has no line in setup (no EDID to match)")
      }
      lit.sort { ($0.x ?? 0, $0.y ?? 0) < ($1.x ?? 0, $1.y ?? 0) }
      guard !desk.isEmpty else { throw ImportNote(setupFile, nil, "no output: the profile matches no monitors") }
      return .success((ImportedProfile(name: name, outputs: lit + off), notes))
    } catch let error as ImportNote {
      return .failure(error)
    } catch {
      return .failure(ImportNote(configFile, nil, "\(error)"))
    }
  }

  /// The connected outputs of `setup`, with their EDIDs (none when autorandr had none).
  static func monitors(_ text: String, file: String, _ notes: inout [ImportNote]) throws(ImportNote)
    -> [ProfileSave.Monitor]
  {
    var outputs: [ProfileSave.Monitor] = []
    for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
      guard let first = words.first, !first.hasPrefix("#") else { continue }
      guard words.count == 2 else { throw ImportNote(file, n + 1, "expected `CONNECTOR EDID`") }
      let (name, edid) = (String(words[0]), String(words[1]))
      guard !outputs.contains(where: { $0.name == name }) else { throw ImportNote(file, n + 1, "\(name) twice") }
      let identity = try bytes(edid, file, n + 1, &notes).flatMap { try? EDID(bytes: $0) }
      outputs.append(ProfileSave.Monitor(name: name, identity: identity))
    }
    return outputs
  }

  /// The EDID's bytes, nil (with a note when it was not autorandr's "unavailable") when there
  /// is nothing to match by but the connector.
  static func bytes(_ hex: String, _ file: String, _ line: Int, _ notes: inout [ImportNote]) throws(ImportNote)
    -> [UInt8]?
  {
    if hex.hasPrefix(noEDID) { return nil }
    if hex.contains("*") || hex.count == 32 {
      let what = hex.count == 32 ? "an MD5 sum (older autorandr)" : "a pattern"
      notes.append(ImportNote(file, line, "the EDID is \(what): matched by connector"))
      return nil
    }
    let digits = Array(hex.utf8)
    guard digits.count % 2 == 0, digits.count <= 2 * 32768 else { throw ImportNote(file, line, "the EDID is not hex") }
    var bytes: [UInt8] = []
    for i in stride(from: 0, to: digits.count, by: 2) {
      guard let b = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else {
        throw ImportNote(file, line, "the EDID is not hex")
      }
      bytes.append(b)
    }
    if (try? EDID(bytes: bytes)) == nil {
      notes.append(ImportNote(file, line, "the EDID does not decode: matched by connector"))
      return nil
    }
    return bytes
  }
}
