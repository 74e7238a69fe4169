/// One D-Bus value as a message carries it, whatever its type: what a reply is read into
/// and a call's arguments are written from. A compositor's reply is untrusted: the readers
/// below answer nil for anything of another shape, never trap.
public indirect enum BusValue: Sendable {
  case byte(UInt8)
  case bool(Bool)
  case int16(Int16)
  case uint16(UInt16)
  case int32(Int32)
  case uint32(UInt32)
  case int64(Int64)
  case uint64(UInt64)
  case double(Double)
  case string(String)
  case objectPath(String)
  case signature(String)
  /// An array of values of one type, `element` its signature (what an empty array needs).
  case array(element: String, [BusValue])
  /// An `a{..}` array: its entries in order, `key` and `value` the signatures.
  case dictionary(key: String, value: String, [(BusValue, BusValue)])
  case structure([BusValue])
  case variant(BusValue)

  /// The value's D-Bus signature (`s`, `a{sv}`, `(iiduba(ssa{sv}))`).
  public var signature: String {
    switch self {
    case .byte: "y"
    case .bool: "b"
    case .int16: "n"
    case .uint16: "q"
    case .int32: "i"
    case .uint32: "u"
    case .int64: "x"
    case .uint64: "t"
    case .double: "d"
    case .string: "s"
    case .objectPath: "o"
    case .signature: "g"
    case .array(let element, _): "a" + element
    case .dictionary(let key, let value, _): "a{" + key + value + "}"
    case .structure(let members): "(" + members.map(\.signature).joined() + ")"
    case .variant: "v"
    }
  }

  /// An `a{sv}` from names and values.
  public static func properties(_ entries: [(String, BusValue)]) -> BusValue {
    .dictionary(key: "s", value: "v", entries.map { (.string($0.0), .variant($0.1)) })
  }

  // MARK: Reading

  /// The value inside a variant, else the value itself.
  public var unwrapped: BusValue {
    if case .variant(let inner) = self { return inner.unwrapped }
    return self
  }

  public var string: String? {
    switch unwrapped {
    case .string(let s), .objectPath(let s), .signature(let s): s
    default: nil
    }
  }

  public var bool: Bool? {
    if case .bool(let b) = unwrapped { return b }
    return nil
  }

  public var double: Double? {
    if case .double(let d) = unwrapped { return d }
    return nil
  }

  /// Any integer type as an `Int` (every D-Bus integer fits one).
  public var int: Int? {
    switch unwrapped {
    case .byte(let v): Int(v)
    case .int16(let v): Int(v)
    case .uint16(let v): Int(v)
    case .int32(let v): Int(v)
    case .uint32(let v): Int(v)
    case .int64(let v): Int(v)
    case .uint64(let v): Int(exactly: v)
    default: nil
    }
  }

  /// The members of a structure, the elements of an array, or the entries of a dictionary
  /// as two-member structures.
  public var elements: [BusValue]? {
    switch unwrapped {
    case .structure(let members): members
    case .array(_, let values): values
    case .dictionary(_, _, let entries): entries.map { .structure([$0.0, $0.1]) }
    default: nil
    }
  }

  /// An `a{s..}` as names and values (a later duplicate wins); nil for another shape.
  public var namedValues: [String: BusValue]? {
    guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
    var named: [String: BusValue] = [:]
    for (key, value) in entries {
      guard let name = key.string else { return nil }
      named[name] = value.unwrapped
    }
    return named
  }
}
