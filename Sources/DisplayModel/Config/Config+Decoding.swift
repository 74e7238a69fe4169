import FoundationEssentials

/// Any key of a JSON object, for strict decoding: unknown keys are errors, not ignored.
public struct AnyKey: CodingKey {
  public var stringValue: String
  public var intValue: Int? { nil }
  public init(stringValue: String) { self.stringValue = stringValue }
  public init?(intValue: Int) { nil }
  public init(_ s: String) { stringValue = s }
}

extension KeyedDecodingContainer where K == AnyKey {
  /// Throws for a key outside `known`, naming the key and what is allowed.
  func requireOnly(_ known: [String]) throws {
    for key in allKeys where !known.contains(key.stringValue) {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self,
        debugDescription: "unknown key '\(key.stringValue)' (expected one of: \(known.joined(separator: ", ")))")
    }
  }

  func optional<T: Decodable>(_ key: String) throws -> T? {
    try decodeIfPresent(T.self, forKey: AnyKey(key))
  }

  /// A number in `range` (finite: JSON5's Infinity and NaN are refused here, by key).
  func bounded(_ key: String, _ range: ClosedRange<Double>, lowerOpen: Bool, expected: String) throws -> Double? {
    guard let value = try decodeIfPresent(Double.self, forKey: AnyKey(key)) else { return nil }
    guard range.contains(value), !(lowerOpen && value == range.lowerBound) else {
      throw DecodingError.dataCorruptedError(
        forKey: AnyKey(key), in: self, debugDescription: "\(value) is out of range: expected \(expected)")
    }
    return value
  }

  /// An integer in `range`. Read as a number first, so Infinity, NaN, fractions and huge
  /// values are errors naming the key rather than a decoder failure without one.
  func boundedInt(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
    guard contains(AnyKey(key)) else { return nil }
    let expected = "an integer \(range.lowerBound)...\(range.upperBound)"
    guard let number = try? decode(Double.self, forKey: AnyKey(key)) else {
      throw DecodingError.typeMismatch(
        Int.self, .init(codingPath: codingPath + [AnyKey(key)], debugDescription: expected))
    }
    guard let value = Int(exactly: number), range.contains(value) else {
      throw DecodingError.dataCorruptedError(
        forKey: AnyKey(key), in: self, debugDescription: "\(number) is not valid: expected \(expected)")
    }
    return value
  }

  /// `position` of a rule or `defaults`: a `PositionRequest`. `same-as` (xrandr's clone) is a
  /// profile entry's alone: here it is an error saying so, not a position ignored.
  func rulePosition() throws -> PositionRequest? {
    if let text = try? decodeIfPresent(String.self, forKey: AnyKey("position")), text.hasPrefix("same-as") {
      throw DecodingError.dataCorruptedError(
        forKey: AnyKey("position"), in: self,
        debugDescription: "'\(text)': same-as is only available in profiles; here expected \(positionExpected)")
    }
    return try parsed("position", expected: positionExpected, PositionRequest.init)
  }

  /// A string field parsed by `parse`; an unparsable one throws with `expected`.
  func parsed<T>(_ key: String, expected: String, _ parse: (String) -> T?) throws -> T? {
    guard let text = try decodeIfPresent(String.self, forKey: AnyKey(key)) else { return nil }
    guard let value = parse(text) else {
      throw DecodingError.dataCorruptedError(
        forKey: AnyKey(key), in: self, debugDescription: "'\(text)' is not valid: expected \(expected)")
    }
    return value
  }
}

let modeExpected =
  "preferred | highest | keep | \"WxH\" | \"WxH@R\" (W and H 1...32767, R above 0 and at most 1000 Hz)"
let positionExpected = "right-of | left-of | above | below <output|main>, or \"X,Y\" (X and Y 0...32767)"
let colourExpected = "#rgb, #rrggbb or a colour name (white, black, red, green, blue, gray, yellow)"

func oneOf<T: RawRepresentable & CaseIterable>(_: T.Type) -> String where T.RawValue == String {
  T.allCases.map(\.rawValue).joined(separator: " | ")
}

extension Config: Decodable {
  public init(from decoder: Decoder) throws {
    self.init()
    let c = try decoder.container(keyedBy: AnyKey.self)
    try c.requireOnly([
      "main", "defaults", "placeholder", "monitors", "hooks", "profiles", "panel", "desktop", "disconnect_grace",
    ])
    main = try c.optional("main")
    defaults = try c.optional("defaults") ?? MonitorSettings()
    placeholder = try c.optional("placeholder") ?? PlaceholderStyle()
    monitors = try c.optional("monitors") ?? []
    hooks = try c.optional("hooks") ?? HookConfig()
    desktop = try c.parsed("desktop", expected: oneOf(DesktopPolicy.self), DesktopPolicy.init) ?? desktop
    disconnectGrace =
      try c.bounded("disconnect_grace", Self.graces, lowerOpen: false, expected: "a number of seconds 0...60")
      ?? disconnectGrace
    try decodeProfiles(c)
  }
}

extension HookConfig: Decodable {
  public init(from decoder: Decoder) throws {
    self.init()
    let c = try decoder.container(keyedBy: AnyKey.self)
    try c.requireOnly(["connected", "disconnected", "timeout_seconds"])
    connected = try Self.commands(c, "connected")
    disconnected = try Self.commands(c, "disconnected")
    timeoutSeconds =
      try c.bounded(
        "timeout_seconds", Self.timeouts, lowerOpen: true, expected: "a number of seconds above 0, at most 3600")
      ?? timeoutSeconds
  }

  /// One argv (`["prog", "arg"]`) or several (`[["prog1"], ["prog2", "x"]]`); none empty.
  static func commands(_ c: KeyedDecodingContainer<AnyKey>, _ key: String) throws -> [[String]] {
    guard c.contains(AnyKey(key)) else { return [] }
    let commands =
      try (try? c.decode([[String]].self, forKey: AnyKey(key))) ?? [c.decode([String].self, forKey: AnyKey(key))]
    if commands.contains(where: \.isEmpty) {
      throw DecodingError.dataCorruptedError(
        forKey: AnyKey(key), in: c,
        debugDescription: "expected a program and its arguments, e.g. [\"/usr/bin/logger\", \"plugged\"]")
    }
    return commands
  }
}

extension MonitorSettings: Decodable {
  public init(from decoder: Decoder) throws {
    self.init()
    let c = try decoder.container(keyedBy: AnyKey.self)
    // `lid_closed` is a key of `defaults` that `Config` reads.
    try c.requireOnly(["mode", "position", "content", "level", "mirror", "lid_closed"])
    mode = try c.parsed("mode", expected: modeExpected, ModeRequest.init) ?? mode
    position = try c.rulePosition() ?? position
    content = try c.parsed("content", expected: oneOf(ContentKind.self), ContentKind.init) ?? content
    level = try c.parsed("level", expected: oneOf(WindowLevel.self), WindowLevel.init) ?? level
    mirror = try c.optional("mirror") ?? mirror
  }
}

extension MirrorOptions: Decodable {
  public init(from decoder: Decoder) throws {
    self.init()
    let c = try decoder.container(keyedBy: AnyKey.self)
    try c.requireOnly(["source", "scale", "cursor", "filter"])
    source = try c.optional("source") ?? source
    scale = try c.parsed("scale", expected: oneOf(MirrorScale.self), MirrorScale.init) ?? scale
    cursor = try c.optional("cursor") ?? cursor
    filter = try c.parsed("filter", expected: oneOf(MirrorFilter.self), MirrorFilter.init) ?? filter
  }
}

extension PlaceholderStyle: Decodable {
  public init(from decoder: Decoder) throws {
    self.init()
    let c = try decoder.container(keyedBy: AnyKey.self)
    try c.requireOnly(["text", "background", "foreground", "image", "details"])
    text = try c.optional("text") ?? text
    background = try c.parsed("background", expected: colourExpected, RGBColor.init) ?? background
    foreground = try c.parsed("foreground", expected: colourExpected, RGBColor.init) ?? foreground
    image = try c.optional("image")
    details = try c.optional("details") ?? details
  }
}

extension MonitorRule: Decodable {
  public init(from decoder: Decoder) throws {
    self.init()
    let c = try decoder.container(keyedBy: AnyKey.self)
    try c.requireOnly(
      ["match", "mode", "position", "content", "level", "mirror", "ignore"] + Self.layoutKeys
        + OutputExtras.keys + customModeKeys)
    guard c.contains(AnyKey("match")) else {
      throw DecodingError.keyNotFound(
        AnyKey("match"), .init(codingPath: decoder.codingPath, debugDescription: "a rule needs a match"))
    }
    match = try c.decode(MonitorMatch.self, forKey: AnyKey("match"))
    mode = try c.parsed("mode", expected: modeExpected, ModeRequest.init)
    position = try c.rulePosition()
    content = try c.parsed("content", expected: oneOf(ContentKind.self), ContentKind.init)
    level = try c.parsed("level", expected: oneOf(WindowLevel.self), WindowLevel.init)
    mirror = try c.optional("mirror")
    ignore = try c.optional("ignore") ?? false
    try decodeLayout(c)
    extras = try OutputExtras(c)
    custom = try c.customMode(mode: mode)
  }
}

extension MonitorMatch: Decodable {
  public init(from decoder: Decoder) throws {
    self.init()
    let c = try decoder.container(keyedBy: AnyKey.self)
    try c.requireOnly(["output", "manufacturer", "product_name", "product_code", "serial"])
    output = try c.optional("output")
    manufacturer = try c.optional("manufacturer")
    productName = try c.optional("product_name")
    productCode = try c.boundedInt("product_code", 0...0xFFFF)
    serial = try c.optional("serial")
  }
}
