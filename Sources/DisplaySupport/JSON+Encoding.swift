/// Encodes an `Encodable` into a `JSON` value the way this project writes JSON: object keys
/// in the order they are encoded (for a synthesized conformance, its `CodingKeys` order), and a nil
/// optional written as `null`, never left out. The wire types of the control socket are
/// written with it, so their bytes are those the hand-built objects had.
extension JSON {
  public init<T: Encodable>(encoding value: T) throws {
    let slot = JSONSlot()
    try JSONSlot.put(value, in: slot, path: [])
    self = slot.json
  }

  /// A record of this project's (whose encoding cannot fail) as JSON; null if it did.
  public static func record<T: Encodable>(_ value: T) -> JSON { (try? JSON(encoding: value)) ?? .null }

  /// The members of an object (empty for any other value), to splice into another object.
  public var members: [(String, JSON)] {
    guard case .object(let members) = self else { return [] }
    return members
  }
}

/// One value being encoded: filled in by the containers, read once at the end.
final class JSONSlot {
  enum Kind {
    case empty
    case value(JSON)
    case object([(String, JSONSlot)])
    case array([JSONSlot])
  }
  var kind = Kind.empty

  var json: JSON {
    switch kind {
    case .empty: return .null
    case .value(let v): return v
    case .object(let members): return .object(members.map { ($0.0, $0.1.json) })
    case .array(let items): return .array(items.map(\.json))
    }
  }

  /// The slot of `key`, made at the end of the object the first time it is named.
  func member(_ key: String) -> JSONSlot {
    var members: [(String, JSONSlot)] = []
    if case .object(let m) = kind { members = m }
    if let existing = members.first(where: { $0.0 == key }) { return existing.1 }
    let slot = JSONSlot()
    kind = .object(members + [(key, slot)])
    return slot
  }

  func element() -> JSONSlot {
    var items: [JSONSlot] = []
    if case .array(let a) = kind { items = a }
    let slot = JSONSlot()
    kind = .array(items + [slot])
    return slot
  }

  func becomeObject() { if case .object = kind {} else { kind = .object([]) } }
  func becomeArray() { if case .array = kind {} else { kind = .array([]) } }

  static func put<T: Encodable>(_ value: T, in slot: JSONSlot, path: [any CodingKey]) throws {
    if let v = value as? any BinaryInteger, !(value is Bool) {
      slot.kind = .value(.int(Int(clamping: v)))
    } else {
      try value.encode(to: JSONSlotEncoder(slot: slot, codingPath: path))
    }
  }

  static func primitive<T: Encodable>(_ value: T) throws -> JSON {
    switch value {
    case let v as Bool: return .bool(v)
    case let v as String: return .string(v)
    case let v as Double: return .double(v)
    case let v as Float: return .double(Double(v))
    case let v as any BinaryInteger: return .int(Int(clamping: v))
    default:
      let slot = JSONSlot()
      try put(value, in: slot, path: [])
      return slot.json
    }
  }
}

struct JSONSlotEncoder: Encoder {
  let slot: JSONSlot
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    slot.becomeObject()
    return KeyedEncodingContainer(JSONKeyedContainer<Key>(slot: slot, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    slot.becomeArray()
    return JSONUnkeyedContainer(slot: slot, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    JSONSingleContainer(slot: slot, codingPath: codingPath)
  }
}

struct JSONKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let slot: JSONSlot
  var codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { slot.member(key.stringValue).kind = .value(.null) }
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try JSONSlot.put(value, in: slot.member(key.stringValue), path: codingPath + [key])
  }
  // A nil optional is written as null: the synthesized conformances call these for optionals.
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws { try encode(value as Bool?, forKey: key) }
  mutating func encode(_ value: String, forKey key: Key) throws { try encode(value as String?, forKey: key) }
  mutating func encode(_ value: Double, forKey key: Key) throws { try encode(value as Double?, forKey: key) }
  mutating func encode(_ value: Float, forKey key: Key) throws { try encode(value as Float?, forKey: key) }
  mutating func encode(_ value: Int, forKey key: Key) throws { try encode(value as Int?, forKey: key) }
  mutating func encode(_ value: Int8, forKey key: Key) throws { try encode(value as Int8?, forKey: key) }
  mutating func encode(_ value: Int16, forKey key: Key) throws { try encode(value as Int16?, forKey: key) }
  mutating func encode(_ value: Int32, forKey key: Key) throws { try encode(value as Int32?, forKey: key) }
  mutating func encode(_ value: Int64, forKey key: Key) throws { try encode(value as Int64?, forKey: key) }
  mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(value as UInt?, forKey: key) }
  mutating func encode(_ value: UInt8, forKey key: Key) throws { try encode(value as UInt8?, forKey: key) }
  mutating func encode(_ value: UInt16, forKey key: Key) throws { try encode(value as UInt16?, forKey: key) }
  mutating func encode(_ value: UInt32, forKey key: Key) throws { try encode(value as UInt32?, forKey: key) }
  mutating func encode(_ value: UInt64, forKey key: Key) throws { try encode(value as UInt64?, forKey: key) }
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encode(value, forKey: key) }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encode(value, forKey: key) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    JSONSlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    JSONSlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder { JSONSlotEncoder(slot: slot, codingPath: codingPath) }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    JSONSlotEncoder(slot: slot.member(key.stringValue), codingPath: codingPath + [key])
  }
}

struct JSONUnkeyedContainer: UnkeyedEncodingContainer {
  let slot: JSONSlot
  var codingPath: [any CodingKey]
  var count: Int {
    guard case .array(let items) = slot.kind else { return 0 }
    return items.count
  }

  mutating func encodeNil() throws { slot.element().kind = .value(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws {
    try JSONSlot.put(value, in: slot.element(), path: codingPath)
  }
  mutating func encode(_ value: Bool) throws { try encode(value as Bool?) }
  mutating func encode(_ value: String) throws { try encode(value as String?) }
  mutating func encode(_ value: Double) throws { try encode(value as Double?) }
  mutating func encode(_ value: Float) throws { try encode(value as Float?) }
  mutating func encode(_ value: Int) throws { try encode(value as Int?) }
  mutating func encode(_ value: Int8) throws { try encode(value as Int8?) }
  mutating func encode(_ value: Int16) throws { try encode(value as Int16?) }
  mutating func encode(_ value: Int32) throws { try encode(value as Int32?) }
  mutating func encode(_ value: Int64) throws { try encode(value as Int64?) }
  mutating func encode(_ value: UInt) throws { try encode(value as UInt?) }
  mutating func encode(_ value: UInt8) throws { try encode(value as UInt8?) }
  mutating func encode(_ value: UInt16) throws { try encode(value as UInt16?) }
  mutating func encode(_ value: UInt32) throws { try encode(value as UInt32?) }
  mutating func encode(_ value: UInt64) throws { try encode(value as UInt64?) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    JSONSlotEncoder(slot: slot.element(), codingPath: codingPath).container(keyedBy: keyType)
  }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    JSONSlotEncoder(slot: slot.element(), codingPath: codingPath).unkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder { JSONSlotEncoder(slot: slot.element(), codingPath: codingPath) }
}

struct JSONSingleContainer: SingleValueEncodingContainer {
  let slot: JSONSlot
  var codingPath: [any CodingKey]

  mutating func encodeNil() throws { slot.kind = .value(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws { try JSONSlot.put(value, in: slot, path: codingPath) }
  mutating func encode(_ value: Bool) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: String) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: Double) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: Float) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: Int) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: Int8) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: Int16) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: Int32) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: Int64) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: UInt) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: UInt8) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: UInt16) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: UInt32) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
  mutating func encode(_ value: UInt64) throws { slot.kind = .value(try JSONSlot.primitive(value)) }
}

/// A record whose JSON is also built by hand, without the generic encoder: the records every
/// CLI query prints (`modes`, `outputs`, `edid` and `watch --json`). Instantiating the generic
/// containers of `JSON(encoding:)` for each record type, and its dynamic casts, took a sixth of
/// a whole `modes --json` process. The `Encodable` conformance stays the definition:
/// `json` names each key by the record's `CodingKeys`, and WireFormatTests check that it is
/// the value `JSON(encoding:)` makes.
public protocol JSONRecord: Encodable {
  /// The record as `JSON(encoding:)` writes it.
  var json: JSON { get }
}

extension JSON {
  /// A hand-encoded record as JSON, without the generic encoder.
  public static func record<T: JSONRecord>(_ value: T) -> JSON { value.json }
}
