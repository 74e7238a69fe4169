import FoundationEssentials

/// A list index in a coding path, so a config error can name `profiles[1].outputs[0]`.
struct IndexKey: CodingKey {
  var intValue: Int?
  var stringValue: String { "\(intValue ?? 0)" }
  init(_ index: Int) { intValue = index }
  init?(intValue: Int) { self.intValue = intValue }
  init?(stringValue: String) { nil }
}

let profilePositionExpected =
  "right-of | left-of | above | below <alias|output|main>, same-as <alias|output|main>, or \"X,Y\" (X and Y 0...32767)"
let scaleExpected = "a number 0.25...8"
let dpiExpected = "\"auto\" or a number 24...2400"

extension Profile: Decodable {
  public init(from decoder: Decoder) throws {
    let c = try decoder.container(keyedBy: AnyKey.self)
    try c.requireOnly(["name", "lid", "outputs", "arrange", "align", "dpi", "hooks"])
    guard let name: String = try c.optional("name") else {
      throw DecodingError.keyNotFound(
        AnyKey("name"), .init(codingPath: decoder.codingPath, debugDescription: "a profile needs a name"))
    }
    self.init(name: name)
    lid = try c.parsed("lid", expected: oneOf(LidCondition.self), LidCondition.init) ?? lid
    guard c.contains(AnyKey("outputs")) else {
      throw DecodingError.keyNotFound(
        AnyKey("outputs"), .init(codingPath: decoder.codingPath, debugDescription: "a profile needs outputs"))
    }
    outputs = try c.decode([ProfileOutput].self, forKey: AnyKey("outputs"))
    arrange = try c.parsed("arrange", expected: oneOf(Arrangement.self), Arrangement.init) ?? arrange
    align = try c.parsed("align", expected: oneOf(Alignment.self), Alignment.init) ?? align
    dpi = try Self.dpi(c)
    if c.contains(AnyKey("hooks")) {
      let hooks = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("hooks"))
      try hooks.requireOnly(["applied"])
      appliedHooks = try HookConfig.commands(hooks, "applied")
    }
    try ProfileValidation(profile: self, path: decoder.codingPath).check()
  }

  /// `"auto"` or a number in `DPISetting.range`.
  static func dpi(_ c: KeyedDecodingContainer<AnyKey>) throws -> DPISetting? {
    guard c.contains(AnyKey("dpi")) else { return nil }
    if let text = try? c.decode(String.self, forKey: AnyKey("dpi")) {
      guard text == "auto" else {
        throw DecodingError.dataCorruptedError(
          forKey: AnyKey("dpi"), in: c, debugDescription: "'\(text)' is not valid: expected \(dpiExpected)")
      }
      return .auto
    }
    guard (try? c.decode(Double.self, forKey: AnyKey("dpi"))) != nil else {
      throw DecodingError.typeMismatch(
        Double.self, .init(codingPath: c.codingPath + [AnyKey("dpi")], debugDescription: dpiExpected))
    }
    return try c.bounded("dpi", DPISetting.range, lowerOpen: false, expected: dpiExpected).map(DPISetting.fixed)
  }
}

extension ProfileOutput: Decodable {
  public init(from decoder: Decoder) throws {
    self.init()
    let c = try decoder.container(keyedBy: AnyKey.self)
    try c.requireOnly([
      "match", "alias", "enabled", "mode", "position", "rotate", "reflect", "scale", "scale_filter", "primary",
      "content", "level", "mirror",
    ] + OutputExtras.keys + customModeKeys)
    guard c.contains(AnyKey("match")) else {
      throw DecodingError.keyNotFound(
        AnyKey("match"), .init(codingPath: decoder.codingPath, debugDescription: "an entry needs a match"))
    }
    match = try c.decode(MonitorMatch.self, forKey: AnyKey("match"))
    alias = try c.optional("alias")
    enabled = try c.optional("enabled")
    mode = try c.parsed("mode", expected: modeExpected, ModeRequest.init) ?? mode
    position = try c.parsed("position", expected: profilePositionExpected, ProfilePosition.init)
    let rotate = try c.parsed("rotate", expected: oneOf(RotateRequest.self), RotateRequest.init) ?? .normal
    let reflect = try c.parsed("reflect", expected: oneOf(ReflectRequest.self), ReflectRequest.init) ?? .none
    (transform, transformSpelling) = Transform.requested(rotate, reflect)
    scale = try c.bounded("scale", Self.scales, lowerOpen: false, expected: scaleExpected) ?? scale
    scaleFilter = try c.parsed("scale_filter", expected: oneOf(ScaleFilter.self), ScaleFilter.init) ?? scaleFilter
    primary = try c.optional("primary") ?? primary
    content = try c.parsed("content", expected: oneOf(ContentKind.self), ContentKind.init) ?? content
    level = try c.parsed("level", expected: oneOf(WindowLevel.self), WindowLevel.init)
    mirror = try c.optional("mirror")
    extras = try OutputExtras(c)
    custom = try c.customMode(mode: c.contains(AnyKey("mode")) ? mode : nil)
  }
}

extension MonitorRule {
  /// The per-output layout keys a `monitors` rule shares with profile entries.
  static let layoutKeys = ["enabled", "rotate", "reflect", "scale", "scale_filter", "primary"]

  mutating func decodeLayout(_ c: KeyedDecodingContainer<AnyKey>) throws {
    enabled = try c.optional("enabled")
    rotate = try c.parsed("rotate", expected: oneOf(RotateRequest.self), RotateRequest.init)
    reflect = try c.parsed("reflect", expected: oneOf(ReflectRequest.self), ReflectRequest.init)
    scale = try c.bounded("scale", ProfileOutput.scales, lowerOpen: false, expected: scaleExpected)
    scaleFilter = try c.parsed("scale_filter", expected: oneOf(ScaleFilter.self), ScaleFilter.init)
    primary = try c.optional("primary")
  }
}

extension Config {
  /// `profiles`, whose names must be unique, and `defaults.lid_closed`.
  mutating func decodeProfiles(_ c: KeyedDecodingContainer<AnyKey>) throws {
    panel = try c.optional("panel")
    if c.contains(AnyKey("defaults")) {
      let d = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("defaults"))
      lidClosed = try d.parsed("lid_closed", expected: oneOf(LidClosedAction.self), LidClosedAction.init) ?? lidClosed
    }
    profiles = try c.optional("profiles") ?? []
    var seen: [String: Int] = [:]
    for (i, profile) in profiles.enumerated() {
      if let first = seen[profile.name] {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: c.codingPath + [AnyKey("profiles"), IndexKey(i), AnyKey("name")],
            debugDescription: "profile '\(profile.name)': the name is taken by profiles[\(first)]"))
      }
      seen[profile.name] = i
    }
  }
}
