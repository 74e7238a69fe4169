import CLinux

/// Reading and writing `BusValue`s on an sd-bus message, one value at a time: the only
/// code that walks a message. A reply of a shape sd-bus itself rejects ends the read with
/// nil; no depth or size a peer sends is trusted beyond sd-bus's own limits.
struct BusMessage {
  let bus: UnsafeMutablePointer<cl_dbus>
  let message: OpaquePointer

  /// Every value left at this level of the message, in order; nil when the message is
  /// malformed.
  func readAll() -> [BusValue]? {
    var values: [BusValue] = []
    while true {
      var type: CChar = 0
      var contents: UnsafePointer<CChar>?
      let r = bus.pointee.peek_type(message, &type, &contents)
      if r == 0 { return values }
      guard r > 0, let value = read(type: UInt8(bitPattern: type), contents: contents) else { return nil }
      values.append(value)
    }
  }

  private func read(type: UInt8, contents: UnsafePointer<CChar>?) -> BusValue? {
    switch type {
    case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "v"), UInt8(ascii: "e"):
      return readContainer(type: type, contents: contents)
    default:
      return readBasic(type)
    }
  }

  private func readContainer(type: UInt8, contents: UnsafePointer<CChar>?) -> BusValue? {
    // sd-bus keeps the peeked signature only until the message moves on: copied first.
    guard let contents else { return nil }
    let signature = String(cString: contents)
    guard bus.pointee.sd.enter(message, CChar(bitPattern: type), signature) > 0 else { return nil }
    guard let members = readAll(), bus.pointee.sd.exit(message) >= 0 else { return nil }
    switch type {
    case UInt8(ascii: "v"):
      return members.count == 1 ? .variant(members[0]) : nil
    case UInt8(ascii: "r"), UInt8(ascii: "e"):
      return .structure(members)
    default:
      guard signature.hasPrefix("{"), signature.hasSuffix("}") else { return .array(element: signature, members) }
      let inner = signature.dropFirst().dropLast()
      let key = String(inner.prefix(1))
      var entries: [(BusValue, BusValue)] = []
      for entry in members {
        guard case .structure(let pair) = entry, pair.count == 2 else { return nil }
        entries.append((pair[0], pair[1]))
      }
      return .dictionary(key: key, value: String(inner.dropFirst()), entries)
    }
  }

  private func readBasic(_ type: UInt8) -> BusValue? {
    var raw: UInt64 = 0
    let r = withUnsafeMutableBytes(of: &raw) {
      bus.pointee.sd.read_basic(message, CChar(bitPattern: type), $0.baseAddress)
    }
    guard r > 0 else { return nil }
    switch type {
    case UInt8(ascii: "y"): return .byte(UInt8(truncatingIfNeeded: raw))
    case UInt8(ascii: "b"): return .bool(Int32(truncatingIfNeeded: raw) != 0)
    case UInt8(ascii: "n"): return .int16(Int16(truncatingIfNeeded: raw))
    case UInt8(ascii: "q"): return .uint16(UInt16(truncatingIfNeeded: raw))
    case UInt8(ascii: "i"), UInt8(ascii: "h"): return .int32(Int32(truncatingIfNeeded: raw))
    case UInt8(ascii: "u"): return .uint32(UInt32(truncatingIfNeeded: raw))
    case UInt8(ascii: "x"): return .int64(Int64(bitPattern: raw))
    case UInt8(ascii: "t"): return .uint64(raw)
    case UInt8(ascii: "d"): return .double(Double(bitPattern: raw))
    case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
      guard let pointer = UnsafePointer<CChar>(bitPattern: UInt(raw)) else { return nil }
      let text = String(cString: pointer)
      return type == UInt8(ascii: "s")
        ? .string(text) : type == UInt8(ascii: "o") ? .objectPath(text) : .signature(text)
    default: return nil
    }
  }

  /// Appends `value`; false when sd-bus refuses it (a string with a NUL, a bad path).
  func append(_ value: BusValue) -> Bool {
    switch value {
    case .array(let element, let values): return container("a", element, values)
    case .dictionary(let key, let valueType, let entries):
      guard open("a", "{" + key + valueType + "}") else { return false }
      for (k, v) in entries where !container("e", key + valueType, [k, v]) { return false }
      return close()
    case .structure(let members): return container("r", members.map(\.signature).joined(), members)
    case .variant(let inner): return container("v", inner.signature, [inner])
    default: return appendBasic(value)
    }
  }

  private func container(_ type: Character, _ contents: String, _ values: [BusValue]) -> Bool {
    guard open(type, contents) else { return false }
    for value in values where !append(value) { return false }
    return close()
  }

  private func open(_ type: Character, _ contents: String) -> Bool {
    bus.pointee.open_container(message, CChar(bitPattern: type.asciiValue ?? 0), contents) >= 0
  }

  private func close() -> Bool { bus.pointee.close_container(message) >= 0 }

  private func appendBasic(_ value: BusValue) -> Bool {
    let code = CChar(bitPattern: value.signature.utf8.first ?? 0)
    func put<T>(_ v: T) -> Bool {
      var v = v
      return withUnsafeBytes(of: &v) { bus.pointee.append_basic(message, code, $0.baseAddress) } >= 0
    }
    switch value {
    case .byte(let v): return put(v)
    case .bool(let v): return put(Int32(v ? 1 : 0))
    case .int16(let v): return put(v)
    case .uint16(let v): return put(v)
    case .int32(let v): return put(v)
    case .uint32(let v): return put(v)
    case .int64(let v): return put(v)
    case .uint64(let v): return put(v)
    case .double(let v): return put(v)
    case .string(let s), .objectPath(let s), .signature(let s):
      // sd-bus takes a string's characters themselves, not a pointer to them.
      return s.withCString { bus.pointee.append_basic(message, code, $0) } >= 0
    default: return false
    }
  }
}
