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
  /// What the first `monitors` rule matching the head asks besides its layout, matched as
  /// its settings are (`rule(for:vendors:)`: its name, its EDID, else the make, model and
  /// serial it says); nil when none does, or the rule ignores the head.
  public func extras(for head: Head, vendors: PNPVendors = .none) -> OutputExtras? {
    extras(by: rule(for: head, vendors: vendors))
  }

  func extras(by rule: MonitorRule?) -> OutputExtras? {
    guard let rule, !rule.ignore, !rule.extras.isEmpty else { return nil }
    return rule.extras
  }

  /// Whether any rule or profile entry maps XInput devices.
  public var usesTouch: Bool {
    monitors.contains { !$0.extras.touch.isEmpty }
      || profiles.contains { $0.outputs.contains { !$0.extras.touch.isEmpty } }
  }
}

/// The heads that get properties or touch devices, with what they get: from the profile in
/// force (each entry's head), else from the `monitors` rules (every connected head, main
/// included: a built-in touch screen is on the panel). Pure.
public enum OutputExtrasPlan {
  /// `profile`: the profile in force with the heads its entries took, by connector name;
  /// `vendors`: the PNP ids of the makes the heads say, for rules matching an identity.
  public static func wanted(
    _ heads: HeadSnapshot, config: Config, profile: (Profile, ProfileAssignment)?, vendors: PNPVendors = .none
  ) -> [(head: Head, extras: OutputExtras)] {
    if let (profile, assignment) = profile {
      return zip(profile.outputs, assignment.heads).compactMap { entry, name in
        guard !entry.extras.isEmpty, let head = heads.head(named: name), head.connected else { return nil }
        return (head, entry.extras)
      }
    }
    return heads.heads.filter(\.connected).compactMap { h in config.extras(for: h, vendors: vendors).map { (h, $0) } }
  }

  /// Each device to map, with the head it goes on and its matrix: the first lit head whose
  /// globs match its name, over the area it covers of `heads`' screen (`touchScreen`); and
  /// the globs that matched no device.
  public static func touch(
    _ wanted: [(head: Head, extras: OutputExtras)], devices: [InputDevice], heads: HeadSnapshot
  ) -> (mappings: [TouchMapping], unmatched: [String]) {
    var mappings: [TouchMapping] = []
    var unmatched: [String] = []
    let screen = heads.touchScreen
    for (head, extras) in wanted {
      for glob in extras.touch {
        let matching = devices.filter { globMatch(glob, $0.name) }
        if matching.isEmpty { unmatched.append(glob) }
        guard let rect = head.rect else { continue }
        let m = TouchMatrix.matrix(
          rect: rect, transform: head.transform, spelling: head.spelling, screenWidth: screen.width,
          screenHeight: screen.height)
        for device in matching where !mappings.contains(where: { $0.device == device }) {
          mappings.append(TouchMapping(device: device, output: head.name, rect: rect, matrix: m))
        }
      }
    }
    return (mappings, unmatched)
  }
}

extension HeadSnapshot {
  /// The screen an absolute device's range spans: the snapshot's (the X root window), else
  /// the lit heads' bounding box from the origin, as the heads bridge makes the screen.
  public var touchScreen: (width: Int, height: Int) {
    let screen = screen ?? litBounds
    return (screen.width, screen.height)
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
