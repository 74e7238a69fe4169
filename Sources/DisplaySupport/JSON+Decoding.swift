import FoundationEssentials

extension JSON {
  /// Parses JSON text (through Foundation's decoder) into a `JSON` value.
  public static func parse(_ bytes: [UInt8]) throws -> JSON {
    try JSONDecoder().decode(JSON.self, from: Data(bytes))
  }
}

extension JSON: Decodable {
  public init(from decoder: Decoder) throws {
    if let c = try? decoder.container(keyedBy: MemberKey.self) {
      self = .object(try c.allKeys.map { ($0.stringValue, try c.decode(JSON.self, forKey: $0)) })
      return
    }
    if var c = try? decoder.unkeyedContainer() {
      var items: [JSON] = []
      while !c.isAtEnd { items.append(try c.decode(JSON.self)) }
      self = .array(items)
      return
    }
    let c = try decoder.singleValueContainer()
    if c.decodeNil() {
      self = .null
    } else if let b = try? c.decode(Bool.self) {
      self = .bool(b)
    } else if let i = try? c.decode(Int.self) {
      self = .int(i)
    } else if let d = try? c.decode(Double.self) {
      self = .double(d)
    } else {
      self = .string(try c.decode(String.self))
    }
  }
}

/// Any member name of an object: `JSON` keeps every member it is given.
private struct MemberKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
