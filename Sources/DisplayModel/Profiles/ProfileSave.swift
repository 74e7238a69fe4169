/// `profile save`: the current layout as one profile, the text of exactly one JSON5 object
/// `{ name: NAME, outputs: [...] }`, ready to paste into `profiles: [ ... ]`. Pure.
///
/// Every connected desktop head is listed: lit ones by position (left to right, then top
/// to bottom) with their mode, position, rotation, reflection, scale, primary and the
/// properties the user can change (`properties`, read by the caller); those that
/// are off after them as `enabled: false`. A monitor with an EDID is matched by
/// manufacturer, product name and serial where the EDID has them (else product code); by
/// connector too when another connected monitor would match the same; one without by
/// connector. A Wayland head (no EDID) by the make, model and serial it reports
/// (`HeadIdentity`), written as the EDID keys they match. Heads showing one picture (X:
/// one scan-out) are saved as `same-as` the first of them. Applying the saved profile to the
/// same monitors changes nothing.
public enum ProfileSave {
  /// `{ name: NAME, outputs: [...] }` with one entry (`{ ... }`) a line: a saved profile's
  /// and an imported one's alike.
  static func object(name: String, outputs: [String]) -> String {
    let lines = outputs.map { "    " + $0 + "," }
    return "{\n  name: \(quoted(name)),\n  outputs: [\n" + lines.joined(separator: "\n") + "\n  ],\n}"
  }

  /// A monitor as the match for it is made: its connector, its EDID (decoded) and what it
  /// says of itself without one.
  struct Monitor {
    var name: String
    var identity: EDID?
    var said: HeadIdentity?
  }

  /// The match for one monitor: its EDID's identity, with the connector when that is not
  /// unique on `desk` (connectors are).
  static func match(_ monitor: Monitor, _ desk: [Monitor]) -> String {
    var m = identityMatch(monitor.identity, said: monitor.said)
    if !identifies(m)
      || desk.contains(where: { $0.name != monitor.name && m.matches(name: $0.name, $0.identity, identity: $0.said) })
    {
      m.output = escaped(monitor.name)
    }
    return text(m)
  }

  /// The identity keys of a monitor: its EDID's, else what it says of itself (written as
  /// the EDID keys that match it); none when it says nothing.
  static func identityMatch(_ edid: EDID?, said: HeadIdentity?) -> MonitorMatch {
    var m = MonitorMatch()
    if let edid {
      m.manufacturer = escaped(edid.manufacturer)
      m.productName = edid.productName.map { escaped($0.text) }
      m.serial = edid.serial.map(escaped)
      if m.productName == nil && m.serial == nil { m.productCode = edid.productCode }
    } else if let said {
      m.manufacturer = said.savedManufacturer.map(escaped)
      m.productName = said.productName.map(escaped)
      m.productCode = said.productCode
      m.serial = said.savedSerial.map(escaped)
    }
    return m
  }

  /// Whether a match has an identity key: without one, only the connector tells the monitor.
  static func identifies(_ m: MonitorMatch) -> Bool {
    m.manufacturer != nil || m.productName != nil || m.productCode != nil || m.serial != nil
  }

  /// A match as a JSON5 object, its fields (globs, escaped already) in the reader's order: a
  /// saved profile's and an imported one's alike.
  static func text(_ m: MonitorMatch) -> String {
    var parts: [String] = []
    if let v = m.output { parts.append("output: " + quoted(v)) }
    if let v = m.manufacturer { parts.append("manufacturer: " + quoted(v)) }
    if let v = m.productName { parts.append("product_name: " + quoted(v)) }
    if let v = m.productCode { parts.append("product_code: \(v)") }
    if let v = m.serial { parts.append("serial: " + quoted(v)) }
    return "{ " + parts.joined(separator: ", ") + " }"
  }

  /// `rotate` and `reflect` for `transform` in the spelling the head holds, none for an
  /// unturned picture.
  static func rotationFields(_ transform: Transform, _ spelling: TransformSpelling) -> [String] {
    let (rotate, reflect) = transform.words(spelling)
    var fields: [String] = []
    if rotate != .normal { fields.append("rotate: " + quoted(rotate.rawValue)) }
    if reflect != .none { fields.append("reflect: " + quoted(reflect.rawValue)) }
    return fields
  }

  /// A head's scale when it is one other than 1, written with the fewest decimals (up to 6)
  /// that give the same 16.16 value the server holds: 1366 wide at 1.25 shows 1708 pixels,
  /// whose ratio (1.25036…) is not the scale asked, and 0.7 is held as 0.69999695…. Nil
  /// for 1 and for no scale.
  static func uniformScale(_ scale: Double) -> Double? {
    guard scale > 0, scale != 1, let held = Transform.quantized(scale, ScaleQuantum.fixedPoint) else { return nil }
    var p = 1.0
    for _ in 1...6 {
      p *= 10
      let short = (scale * p).rounded() / p
      if Transform.quantized(short, ScaleQuantum.fixedPoint) == held { return short }
    }
    return scale
  }

  /// A glob that matches exactly this text (fnmatch's backslash escapes).
  public static func escaped(_ text: String) -> String {
    var result = ""
    for c in text {
      if "*?[\\".contains(c) { result.append("\\") }
      result.append(c)
    }
    return result
  }

  /// A JSON string literal.
  public static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      // C0, DEL and C1 (a CSI in a server's atom must not reach a terminal), and JSON5's
      // line separators.
      case _
      where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
        || scalar.value == 0x2029:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// The layout of a snapshot of heads as one profile (see `ProfileSave`): the heads a
  /// profile must account for (`ProfileMatcher.desk`), lit ones by the corner of their
  /// area, each matched by its EDID, else by the make, model and serial it says (the PNP ids
  /// of a make from `vendors`); the properties of a head by its name.
  public static func text(
    name: String, snapshot: HeadSnapshot, properties: [String: [String: OutputProperty]] = [:],
    vendors: PNPVendors = .none
  ) -> String {
    let snapshot = snapshot.bounded().snapshot
    let desk = ProfileMatcher.desk(snapshot)
    let lit = desk.compactMap { h in h.rect.map { (h, $0) } }
      .sorted { a, b in (a.1.x, a.1.y, a.0.name) < (b.1.x, b.1.y, b.0.name) }.map(\.0)
    let off = desk.filter { $0.rect == nil }
    // Every lit head's picture, those outside the desk too (a `non-desktop` head on the
    // scan-out of a desk's head makes it a picture shown twice).
    let shown = snapshot.heads.compactMap(Picture.init)
    var entries: [String] = []
    for head in lit + off {
      var fields = ["match: " + match(head, desk, vendors: vendors)]
      if let mode = head.mode, head.rect != nil {
        fields += litFields(head, mode, lit: lit, shown: shown)
        if snapshot.primary == head.name { fields.append("primary: true") }
      } else {
        fields.append("enabled: false")
      }
      fields += propertyFields(properties[head.name] ?? [:])
      entries.append("{ " + fields.joined(separator: ", ") + " }")
    }
    return object(name: name, outputs: entries)
  }

  /// A lit head's mode and place: `same-as` the first lit head of the desk showing its
  /// picture, and on that one an `alias` when another head shows its picture too.
  static func litFields(_ head: Head, _ mode: HeadMode, lit: [Head], shown: [Picture]) -> [String] {
    guard let picture = Picture(head) else { return layout(head, mode) }
    if let first = lit.first(where: { Picture($0) == picture }), first.name != head.name {
      return modeFields(mode, head) + ["position: " + quoted("same-as " + first.name)]
    }
    let alias = shown.filter { $0 == picture }.count > 1 ? ["alias: " + quoted(head.name)] : []
    return alias + layout(head, mode)
  }

  /// What a lit head shows, as far as heads tell: heads alike in it show one picture. A
  /// snapshot does not say which heads share a scan-out; heads at one place, turned alike,
  /// scaled alike in the mode the server names by one handle (on X, its id) do. A
  /// compositor names no modes: each of its heads shows its own.
  struct Picture: Hashable {
    var rect: Rect
    var mode: UInt64
    var transform: Transform
    var spelling: TransformSpelling
    var scale: Double

    init?(_ head: Head) {
      guard let rect = head.rect, let mode = head.mode?.serverID else { return nil }
      (self.rect, self.mode, transform, spelling, scale) = (rect, mode, head.transform, head.spelling, head.scale)
    }
  }

  /// The match for one head: its identity, with the connector when another head of the desk
  /// would match it too.
  static func match(_ head: Head, _ desk: [Head], vendors: PNPVendors) -> String {
    let edid = head.edid.flatMap { try? EDID(bytes: $0) }
    let said =
      edid == nil ? HeadIdentity(make: head.make, model: head.model, serial: head.serial, vendors: vendors) : nil
    var m = identityMatch(edid, said: said)
    if !identifies(m)
      || desk.contains(where: { $0.name != head.name && ProfileMatcher.matches(m, $0, vendors: vendors) })
    {
      m.output = escaped(head.name)
    }
    return text(m)
  }

  /// Mode, position, rotation, reflection and scale of a lit head.
  static func layout(_ head: Head, _ mode: HeadMode) -> [String] {
    var fields = modeFields(mode, head) + ["position: " + quoted("\(head.x),\(head.y)")]
    fields += rotationFields(head.transform, head.spelling)
    if let s = uniformScale(head.scale), ProfileOutput.scales.contains(s) {
      fields.append("scale: \(s)")
    }
    return fields
  }

  /// The mode's fields, checked against the mode policy over the head's modes; a mode with
  /// the server's timings (X's) is the server's mode again, which says whether displayd
  /// made it.
  static func modeFields(_ mode: HeadMode, _ head: Head) -> [String] {
    let server = mode.timings.map { $0.mode(id: ModeID(rawValue: 0), name: mode.name ?? "") }
    return modeFields(server, width: mode.width, height: mode.height, refreshHz: mode.timedRefreshHz ?? mode.refreshHz)
    { request, custom in
      ModePolicy.candidates(request, custom: custom, for: head).modes.first?.listed == mode
    }
  }

  /// Whether the mode policy picks the mode being saved for a request (and the kind of mode
  /// it makes, for a custom one).
  typealias Picks = (ModeRequest, CustomModeRequest?) -> Bool

  /// `mode: "WxH@R"`, and for a mode displayd made (`server`: the server's mode, whose name
  /// and timings tell), what makes it again: `custom: true` (with `reduced: true`) for CVT
  /// timings, else its `modeline`.
  static func modeFields(_ server: Mode?, width: Int, height: Int, refreshHz: Double, picks: Picks) -> [String] {
    guard let mode = server, let origin = CustomModes.origin(of: mode) else {
      return ["mode: " + quoted(modeText(width, height, refreshHz, picks))]
    }
    switch origin.custom {
    case .cvt(let reduced):
      let text = customModeText(origin.request, reduced, mode, picks)
      return ["mode: " + quoted(text), "custom: true"] + (reduced ? ["reduced: true"] : [])
    case .modeline(let line):
      let name = mode.name.dropFirst(CustomModes.prefix.count)
      return ["modeline: " + quoted((name.contains("\"") ? "" : "\"\(name)\" ") + line.description)]
    }
  }

  /// The rate as the mode was asked for (its name has it), when that finds this very mode.
  static func customModeText(_ request: ModeRequest, _ reduced: Bool, _ mode: Mode, _ picks: Picks) -> String {
    guard case .sizeRate(let w, let h, let r) = request else { return "\(mode.width)x\(mode.height)" }
    for places in 0...2 {
      let text = "\(w)x\(h)@" + fixed(r, places: places)
      guard let parsed = ModeRequest(text) else { continue }
      if picks(parsed, .cvt(reduced: reduced)) { return text }
    }
    return "\(w)x\(h)@" + fixed(r, places: 2)
  }

  /// `WxH@R` with as many decimals as it takes for the mode policy to pick this very mode.
  static func modeText(_ width: Int, _ height: Int, _ refreshHz: Double, _ picks: Picks) -> String {
    let size = "\(width)x\(height)"
    guard refreshHz > 0, refreshHz <= ModeRequest.maxRefresh else { return size }
    for places in 2...6 {
      let text = size + "@" + fixed(refreshHz, places: places)
      if let request = ModeRequest(text), picks(request, nil) { return text }
    }
    return size + "@" + fixed(refreshHz, places: 3)
  }
}
