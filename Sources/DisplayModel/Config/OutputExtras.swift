/// A value of an output property (on X) as a config gives it: a string for an enum (atom)
/// property, an integer for an integer property.
public enum PropertyValue: Hashable, Sendable, CustomStringConvertible {
  case text(String)
  case integer(Int)

  /// The values an integer may take: X properties hold at most 32 bits.
  public static let integers = Int(Int32.min)...Int(UInt32.max)

  public var description: String {
    switch self {
    case .text(let s): return "'\(s)'"
    case .integer(let i): return "\(i)"
    }
  }
}

/// What a rule or profile entry asks of an output besides its layout: X output
/// properties to set, and XInput devices (by name glob) to map onto it.
public struct OutputExtras: Hashable, Sendable {
  /// Property name → value.
  public var properties: [String: PropertyValue] = [:]
  /// XInput device-name globs (`ELAN*`).
  public var touch: [String] = []
  public init() {}

  public var isEmpty: Bool { properties.isEmpty && touch.isEmpty }
}

/// One output property as the server describes it: its value and the values it takes.
public struct OutputProperty: Hashable, Sendable {
  /// The property's type: `ATOM` (an enum's names), `INTEGER`/`CARDINAL`, or another.
  public enum ValueType: Hashable, Sendable {
    case atom, integer
    case other(String)
  }
  public var name: String
  public var type: ValueType
  /// 8, 16 or 32.
  public var format: Int
  /// The value's items: the pending value where the property is pending.
  public var value: [PropertyValue]
  /// Whether `allowed` holds (min, max) pairs rather than a list of values.
  public var range: Bool
  /// The enum's values, or the bounds of a range; empty: anything of the type.
  public var allowed: [PropertyValue]
  public var immutable: Bool
  /// A new value takes effect at the next mode set.
  public var pending: Bool

  public init(
    name: String, type: ValueType, format: Int, value: [PropertyValue], range: Bool = false,
    allowed: [PropertyValue] = [], immutable: Bool = false, pending: Bool = false
  ) {
    (self.name, self.type, self.format, self.value) = (name, type, format, value)
    (self.range, self.allowed, self.immutable, self.pending) = (range, allowed, immutable, pending)
  }

  /// What may be written, for messages: `one of Full, Limited 16:235` or `an integer 6...16`.
  public var allowedText: String {
    let words = allowed.map { v -> String in
      if case .text(let s) = v { return s }
      return v.description
    }
    if range, allowed.count >= 2 { return "an integer \(words[0])...\(words[1])" }
    if !allowed.isEmpty { return "one of " + words.joined(separator: ", ") }
    switch type {
    case .atom: return "a name"
    case .integer: return "an integer"
    case .other(let t): return "a value of type \(t), which displayd does not write"
    }
  }

  /// Whether `value` is one this property takes.
  func accepts(_ value: PropertyValue) -> Bool {
    switch (type, value) {
    case (.atom, .text), (.integer, .integer): break
    default: return false
    }
    if case .integer(let i) = value, !fits(i) { return false }
    guard !allowed.isEmpty else { return true }
    guard range else { return allowed.contains(value) }
    guard case .integer(let i) = value else { return false }
    // Pairs of bounds; any pair may admit the value.
    return stride(from: 0, to: allowed.count - 1, by: 2).contains { k in
      if case .integer(let lo) = allowed[k], case .integer(let hi) = allowed[k + 1] { return lo <= i && i <= hi }
      return false
    }
  }

  /// Whether an integer fits the property's format (signed or unsigned).
  func fits(_ i: Int) -> Bool {
    switch format {
    case 8: return Int(Int8.min)...Int(UInt8.max) ~= i
    case 16: return Int(Int16.min)...Int(UInt16.max) ~= i
    default: return PropertyValue.integers ~= i
    }
  }

  /// Whether `profile save` writes it: one the user can change (not immutable, not what the
  /// monitor reports: `EDID`, `non-desktop`) and of enum or range kind, holding one value.
  public var isSaved: Bool {
    guard name != "EDID", name != "non-desktop", !immutable, !allowed.isEmpty, value.count == 1 else { return false }
    switch type {
    case .atom, .integer: return accepts(value[0])
    case .other: return false
    }
  }
}

/// One property to write: its name, type and format as the server has them, and the value.
public struct PropertyWrite: Hashable, Sendable {
  public var name: String
  public var type: OutputProperty.ValueType
  public var format: Int
  public var value: PropertyValue
  /// The property only takes effect at the next mode set.
  public var pending: Bool
}

/// Why a wanted output property is not written; `description` is the log's line.
public enum PropertyWarning: Hashable, Sendable, CustomStringConvertible {
  /// The output has no property of that name.
  case missing(output: String, property: String, value: PropertyValue)
  /// The property cannot be changed; it holds `holds`.
  case immutable(output: String, property: String, value: PropertyValue, holds: [PropertyValue])
  /// The value is outside what the property takes (`allowed`, in words).
  case notAllowed(output: String, property: String, value: PropertyValue, allowed: String, holds: [PropertyValue])

  public var description: String {
    switch self {
    case .missing(let output, let property, let value):
      return "\(output): property '\(property)' \(value): the output has no such property; not set"
    case .immutable(let output, let property, let value, let holds):
      return
        "\(output): property '\(property)' \(value): the property is immutable; left at \(PropertyCheck.shown(holds))"
    case .notAllowed(let output, let property, let value, let allowed, let holds):
      return "\(output): property '\(property)' \(value) is not allowed (expected \(allowed)); "
        + "left at \(PropertyCheck.shown(holds))"
    }
  }
}

/// Which of an output's wanted properties to write: those it has, that take the value and do
/// not hold it already. Each one left out gets a warning naming the output, the property,
/// the value and what is allowed; the others are written regardless (one unsupported property
/// never fails a profile: autorandr#381). Pure.
public enum PropertyCheck {
  public static func writes(
    output: String, wanted: [String: PropertyValue], have: [String: OutputProperty]
  ) -> (writes: [PropertyWrite], warnings: [PropertyWarning]) {
    var writes: [PropertyWrite] = []
    var warnings: [PropertyWarning] = []
    for (name, value) in wanted.sorted(by: { $0.key < $1.key }) {
      guard let property = have[name] else {
        warnings.append(.missing(output: output, property: name, value: value))
        continue
      }
      if property.value == [value] { continue }
      if property.immutable {
        warnings.append(.immutable(output: output, property: name, value: value, holds: property.value))
        continue
      }
      guard property.accepts(value) else {
        warnings.append(
          .notAllowed(
            output: output, property: name, value: value, allowed: property.allowedText, holds: property.value))
        continue
      }
      writes.append(
        PropertyWrite(
          name: name, type: property.type, format: property.format, value: value, pending: property.pending))
    }
    return (writes, warnings)
  }

  static func shown(_ value: [PropertyValue]) -> String {
    value.isEmpty ? "nothing" : value.map(\.description).joined(separator: ", ")
  }
}

extension ProfileSave {
  /// `properties: { … }` with the properties the user can change, by name; none when there
  /// are none.
  static func propertyFields(_ properties: [String: OutputProperty]) -> [String] {
    let saved = properties.values.filter(\.isSaved).sorted { $0.name < $1.name }
    return propertiesField(saved.map { ($0.name, $0.value[0]) })
  }

  /// `properties: { "NAME": VALUE, ... }` in the order given (a saved profile's and an
  /// imported one's alike); none when there are no properties.
  static func propertiesField(_ properties: [(name: String, value: PropertyValue)]) -> [String] {
    guard !properties.isEmpty else { return [] }
    let items = properties.map { p -> String in
      switch p.value {
      case .text(let s): return quoted(p.name) + ": " + quoted(s)
      case .integer(let i): return quoted(p.name) + ": \(i)"
      }
    }
    return ["properties: { " + items.joined(separator: ", ") + " }"]
  }
}
