import FoundationEssentials

let propertiesExpected = "an object of property names to a string (an enum's value) or an integer"
let touchExpected = "a list of XInput device-name globs, e.g. [\"ELAN*\", \"Wacom*\"]"

extension OutputExtras {
  /// The keys of a rule or profile entry that this decodes.
  static let keys = ["properties", "touch"]

  /// `properties` and `touch` of a rule or profile entry.
  init(_ c: KeyedDecodingContainer<AnyKey>) throws {
    self.init()
    if c.contains(AnyKey("properties")) {
      let p = try c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("properties"))
      for key in p.allKeys { properties[key.stringValue] = try Self.value(p, key) }
      if properties.keys.contains("") {
        throw DecodingError.dataCorruptedError(
          forKey: AnyKey("properties"), in: c,
          debugDescription: "a property needs a name; expected \(propertiesExpected)")
      }
    }
    if c.contains(AnyKey("touch")) {
      guard let globs = try? c.decode([String].self, forKey: AnyKey("touch")) else {
        throw DecodingError.typeMismatch(
          [String].self, .init(codingPath: c.codingPath + [AnyKey("touch")], debugDescription: touchExpected))
      }
      guard !globs.contains(where: \.isEmpty) else {
        throw DecodingError.dataCorruptedError(
          forKey: AnyKey("touch"), in: c, debugDescription: "an empty glob; expected \(touchExpected)")
      }
      touch = globs
    }
  }

  /// A string, or an integer within `PropertyValue.integers` (read as a number first, so
  /// fractions, Infinity and huge values are errors naming the key).
  static func value(_ p: KeyedDecodingContainer<AnyKey>, _ key: AnyKey) throws -> PropertyValue {
    if let text = try? p.decode(String.self, forKey: key) { return .text(text) }
    let expected = "a string or an integer \(PropertyValue.integers.lowerBound)...\(PropertyValue.integers.upperBound)"
    guard let number = try? p.decode(Double.self, forKey: key) else {
      throw DecodingError.typeMismatch(
        PropertyValue.self, .init(codingPath: p.codingPath + [key], debugDescription: expected))
    }
    guard let i = Int(exactly: number), PropertyValue.integers.contains(i) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: p, debugDescription: "\(number) is not valid: expected \(expected)")
    }
    return .integer(i)
  }
}

extension Config {
  /// What the first `monitors` rule matching the output asks besides its layout (the rule
  /// that gives its settings); nil when none does, or the rule ignores the output.
  public func extras(for output: Output) -> OutputExtras? {
    guard let rule = rule(for: output), !rule.ignore, !rule.extras.isEmpty else { return nil }
    return rule.extras
  }

  /// Whether any rule or profile entry maps XInput devices.
  public var usesTouch: Bool {
    monitors.contains { !$0.extras.touch.isEmpty }
      || profiles.contains { $0.outputs.contains { !$0.extras.touch.isEmpty } }
  }
}

/// The outputs that get properties or touch devices, with what they get: from the profile in
/// force (each entry's output), else from the `monitors` rules (every connected output, main
/// included: a built-in touch screen is on the panel). Pure.
public enum OutputExtrasPlan {
  /// `profile`: the profile in force with the heads its entries took, by connector name.
  public static func wanted(
    _ topology: Topology, config: Config, profile: (Profile, HeadProfileAssignment)?
  ) -> [(output: Output, extras: OutputExtras)] {
    if let (profile, assignment) = profile {
      return zip(profile.outputs, assignment.heads).compactMap { entry, name in
        guard !entry.extras.isEmpty, let output = topology.output(named: name), output.isConnected else { return nil }
        return (output, entry.extras)
      }
    }
    return topology.connectedOutputs.compactMap { o in config.extras(for: o).map { (o, $0) } }
  }

  /// Each device to map, with the output it goes on and its matrix: the first lit output
  /// whose globs match its name; and the globs that matched no device.
  public static func touch(
    _ wanted: [(output: Output, extras: OutputExtras)], devices: [InputDevice], topology: Topology
  ) -> (mappings: [TouchMapping], unmatched: [String]) {
    var mappings: [TouchMapping] = []
    var unmatched: [String] = []
    for (output, extras) in wanted {
      for glob in extras.touch {
        let matching = devices.filter { globMatch(glob, $0.name) }
        if matching.isEmpty { unmatched.append(glob) }
        guard let crtc = topology.activeCrtc(of: output) else { continue }
        let m = TouchMatrix.matrix(
          rect: crtc.rect, rotation: crtc.rotation, screenWidth: topology.screen.width,
          screenHeight: topology.screen.height)
        for device in matching where !mappings.contains(where: { $0.device == device }) {
          mappings.append(TouchMapping(device: device, output: output.name, rect: crtc.rect, matrix: m))
        }
      }
    }
    return (mappings, unmatched)
  }
}

/// One device put on one output.
public struct TouchMapping: Hashable, Sendable {
  public var device: InputDevice
  public var output: String
  public var rect: Rect
  public var matrix: [Double]
}

/// An XInput device that can be mapped: a slave or floating pointer with a
/// `Coordinate Transformation Matrix`.
public struct InputDevice: Hashable, Sendable {
  public var id: Int
  public var name: String
  public init(id: Int, name: String) {
    self.id = id
    self.name = name
  }
}
