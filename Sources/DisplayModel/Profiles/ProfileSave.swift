/// `profile save`: the current layout as one profile, the text of exactly one JSON5 object
/// `{ name: NAME, outputs: [...] }`, ready to paste into `profiles: [ ... ]`. Pure.
///
/// Every connected desktop output is listed: lit ones by position (left to right, then top
/// to bottom) with their mode, position, rotation, reflection, scale, primary and the
/// properties the user can change (`properties`, read by the caller); those that
/// are off after them as `enabled: false`. A monitor with an EDID is matched by
/// manufacturer, product name and serial where the EDID has them (else product code); by
/// connector too when another connected monitor would match the same; one without by
/// connector. A Wayland head (no EDID) by the make, model and serial it reports
/// (`HeadIdentity`), written as the EDID keys they match. Outputs sharing a CRTC are saved as `same-as` the first of them. Applying the
/// saved profile to the same monitors changes nothing.
public enum ProfileSave {
  public static func text(
    name: String, topology t: Topology, properties: [OutputID: [String: OutputProperty]] = [:]
  ) -> String {
    let desk = ProfileMatcher.desk(t)
    let lit = desk.compactMap { o in t.geometry(of: o).map { (o, $0) } }
      .sorted { a, b in (a.1.x, a.1.y, a.0.name) < (b.1.x, b.1.y, b.0.name) }.map(\.0)
    let off = desk.filter { t.activeCrtc(of: $0) == nil }
    var entries: [String] = []
    var cloneSource: [CrtcID: String] = [:]
    for output in lit + off {
      var fields = ["match: " + match(output, desk)]
      if let crtc = t.activeCrtc(of: output), let mode = t.currentMode(of: output) {
        if let first = cloneSource[crtc.id] {
          fields += modeFields(mode, output, t) + ["position: " + quoted("same-as " + first)]
        } else {
          if crtc.outputs.count > 1 {
            cloneSource[crtc.id] = output.name
            fields.append("alias: " + quoted(output.name))
          }
          fields += layout(output, crtc, mode, t)
        }
        if t.primary == output.id { fields.append("primary: true") }
      } else {
        fields.append("enabled: false")
      }
      fields += propertyFields(properties[output.id] ?? [:])
      entries.append("{ " + fields.joined(separator: ", ") + " }")
    }
    return object(name: name, outputs: entries)
  }

  /// `{ name: NAME, outputs: [...] }` with one entry (`{ ... }`) a line: a saved profile's
  /// and an imported one's alike.
  static func object(name: String, outputs: [String]) -> String {
    let lines = outputs.map { "    " + $0 + "," }
    return "{\n  name: \(quoted(name)),\n  outputs: [\n" + lines.joined(separator: "\n") + "\n  ],\n}"
  }

  /// The match for one output: its EDID's identity, with the connector when that is not unique.
  static func match(_ output: Output, _ desk: [Output]) -> String {
    var m = MonitorMatch()
    if let edid = output.identity {
      m.manufacturer = escaped(edid.manufacturer)
      m.productName = edid.productName.map { escaped($0.text) }
      m.serial = edid.serial.map(escaped)
      if m.productName == nil && m.serial == nil { m.productCode = edid.productCode }
    } else if let head = output.headIdentity {
      m.manufacturer = head.savedManufacturer.map(escaped)
      m.productName = head.productName.map(escaped)
      m.productCode = head.productCode
      m.serial = head.savedSerial.map(escaped)
    }
    let identified = m.manufacturer != nil || m.productName != nil || m.productCode != nil || m.serial != nil
    if !identified || desk.contains(where: { $0.id != output.id && m.matches($0, $0.identity) }) {
      m.output = escaped(output.name)
    }
    return text(m)
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

  /// Mode, position, rotation, reflection and scale of a lit output.
  static func layout(_ output: Output, _ crtc: Crtc, _ mode: Mode, _ t: Topology) -> [String] {
    var fields = modeFields(mode, output, t) + ["position: " + quoted("\(crtc.x),\(crtc.y)")]
    if crtc.rotation.name != "normal" { fields.append("rotate: " + quoted(crtc.rotation.name)) }
    let reflect = crtc.rotation.intersection([.reflectX, .reflectY])
    if !reflect.isEmpty {
      fields.append("reflect: " + quoted(reflect == [.reflectX, .reflectY] ? "xy" : reflect == .reflectX ? "x" : "y"))
    }
    if let s = uniformScale(crtc.transform.matrix) {
      if ProfileOutput.scales.contains(s) { fields.append("scale: \(s)") }
      return fields
    }
    let (w, h) = crtc.rotation.turned(mode.width, mode.height)
    if (crtc.width, crtc.height) != (w, h), w > 0, h > 0 {
      let s = Double(crtc.width) / Double(w)
      let f = FixedScale.fixed(s)
      if ProfileOutput.scales.contains(s), let size = mode.footprint(crtc.rotation, FixedScale.transform(f, f)),
        size == (crtc.width, crtc.height)
      {
        fields.append("scale: \(s)")
      }
    }
    return fields
  }

  /// The scale of a CRTC's transform matrix as the server holds it, when it is one scale both ways
  /// other than 1, written with the fewest decimals (up to 6) that give the same 16.16 value:
  /// 1366 wide at 1.25 shows 1708 pixels, whose ratio (1.25036…) is not the scale asked, and
  /// 0.7 is held as 0.69999695…. Nil for the identity and for any other matrix.
  static func uniformScale(_ m: [Double]) -> Double? {
    guard m.count == 9, m[0] == m[4], m[0] > 0, m[0] != 1, m[8] == 1,
      [m[1], m[2], m[3], m[5], m[6], m[7]].allSatisfy({ $0 == 0 }),
      let held = HeadTransform.quantized(m[0], ScaleQuantum.randr)
    else { return nil }
    var p = 1.0
    for _ in 1...6 {
      p *= 10
      let short = (m[0] * p).rounded() / p
      if HeadTransform.quantized(short, ScaleQuantum.randr) == held { return short }
    }
    return m[0]
  }

  /// `WxH@R` with as many decimals as it takes for the mode policy to pick this very mode.
  static func modeText(_ mode: Mode, _ output: Output, _ t: Topology) -> String {
    let size = "\(mode.width)x\(mode.height)"
    guard mode.refreshHz > 0, mode.refreshHz <= ModeRequest.maxRefresh else { return size }
    for places in 2...6 {
      let text = size + "@" + fixed(mode.refreshHz, places: places)
      if let request = ModeRequest(text), ModePolicy.candidates(request, for: output, in: t).modes.first?.id == mode.id
      {
        return text
      }
    }
    return size + "@" + fixed(mode.refreshHz, places: 3)
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
}
