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
/// (`HeadIdentity`), written as the EDID keys they match. Heads showing one picture (RandR:
/// one CRTC) are saved as `same-as` the first of them. Applying the saved profile to the
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

  /// `rotate` and `reflect` as RandR's bits spell them, none for an unturned picture.
  static func rotationFields(_ rotation: Rotation) -> [String] {
    var fields: [String] = []
    if rotation.name != "normal" { fields.append("rotate: " + quoted(rotation.name)) }
    let reflect = rotation.intersection([.reflectX, .reflectY])
    if !reflect.isEmpty {
      fields.append("reflect: " + quoted(reflect == [.reflectX, .reflectY] ? "xy" : reflect == .reflectX ? "x" : "y"))
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
