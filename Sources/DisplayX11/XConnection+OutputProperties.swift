import CXrandr
import DisplayModel

extension XConnection {
  /// The output's RandR properties, those named in `names` (nil: all), as the server
  /// describes them: type, format, value (the pending one), allowed values, flags. Empty when
  /// the output is gone. A few round trips each: only for outputs a config gives properties,
  /// and `profile save`.
  public func outputProperties(_ output: OutputID, names: Set<String>? = nil) -> [String: OutputProperty] {
    let serial = nextRequest
    defer { _ = try? syncErrors(since: serial) }
    var count: Int32 = 0
    guard let list = XRRListOutputProperties(display, RROutput(output.rawValue), &count) else { return [:] }
    defer { XFree(list) }
    let atoms = Array(buffer(list, count))
    var result: [String: OutputProperty] = [:]
    for (atom, name) in zip(atoms, atomNames(atoms)) where names?.contains(name) ?? true {
      if let property = readProperty(output, atom, name) { result[name] = property }
    }
    return result
  }

  /// The properties of the output named `head` (`outputProperties(_:names:)`); empty when
  /// the server has no output of that name.
  public func outputProperties(head: String, names: Set<String>?) -> [String: OutputProperty] {
    outputID(named: head).map { outputProperties($0, names: names) } ?? [:]
  }

  /// Writes one property of the output named `head` (`setOutputProperty(_:_:)`); an output
  /// gone meanwhile is a failed request.
  public func setOutputProperty(head: String, _ write: PropertyWrite) throws(DisplayError) {
    guard let output = outputID(named: head) else {
      throw .request(unknownFailure("XRRChangeOutputProperty (\(write.name): no output \(head))"))
    }
    try setOutputProperty(output, write)
  }

  /// The server's output of that name, from the screen resources and the outputs' info (two
  /// round trips, no properties read); nil when there is none or the read fails.
  func outputID(named name: String) -> OutputID? {
    (try? readPipelined(ReadOptions(probe: false, properties: false)))?.output(named: name)?.id
  }

  /// Writes one property (`XRRChangeOutputProperty`, replacing the value) and waits for the
  /// server's answer: a refused value (BadValue, BadMatch) throws.
  public func setOutputProperty(_ output: OutputID, _ write: PropertyWrite) throws(DisplayError) {
    let serial = nextRequest
    let property = atom(write.name)
    var item: Int
    let type: Atom
    switch (write.type, write.value) {
    case (.atom, .text(let name)):
      (item, type) = (Int(bitPattern: atom(name)), Atom(XA_ATOM))
    case (.integer, .integer(let i)):
      (item, type) = (i, Atom(XA_INTEGER))
    default:
      throw .request(unknownFailure("XRRChangeOutputProperty (\(write.name): type mismatch)"))
    }
    let format = write.format == 8 || write.format == 16 ? write.format : 32
    switch format {
    case 8:
      var byte = UInt8(truncatingIfNeeded: item)
      XRRChangeOutputProperty(display, RROutput(output.rawValue), property, type, 8, PropModeReplace, &byte, 1)
    case 16:
      var short = UInt16(truncatingIfNeeded: item)
      withUnsafeBytes(of: &short) { raw in
        XRRChangeOutputProperty(
          display, RROutput(output.rawValue), property, type, 16, PropModeReplace,
          raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
      }
    default:
      // Xlib takes format-32 items as C longs.
      withUnsafeBytes(of: &item) { raw in
        XRRChangeOutputProperty(
          display, RROutput(output.rawValue), property, type, 32, PropModeReplace,
          raw.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
      }
    }
    if let error = try syncErrors(since: serial).first { throw .request(error.failure) }
  }

  /// The names of `atoms`: from the atom cache (atoms live as long as the server), the rest
  /// in one round trip; "" for one the server does not know.
  func atomNames(_ atoms: [Atom]) -> [String] {
    var known: [Atom: String] = [:]
    for (name, atom) in atomCache { known[atom] = name }
    var ids = Array(Set(atoms.filter { known[$0] == nil }))
    if !ids.isEmpty {
      var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: ids.count)
      // On failure some names may still have come: each one returned is freed either way.
      _ = XGetAtomNames(display, &ids, Int32(ids.count), &names)
      for (atom, pointer) in zip(ids, names) {
        guard let pointer else { continue }
        let name = String(cString: pointer)
        XFree(pointer)
        known[atom] = name
        atomCache[name] = atom
      }
    }
    return atoms.map { known[$0] ?? "" }
  }

  /// One property's description and value; nil when the server answers none (gone meanwhile).
  private func readProperty(_ output: OutputID, _ atom: Atom, _ name: String) -> OutputProperty? {
    guard let info = XRRQueryOutputProperty(display, RROutput(output.rawValue), atom) else { return nil }
    defer { XFree(info) }
    var actualType: Atom = 0
    var format: Int32 = 0
    var items: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let status = XRRGetOutputProperty(
      display, RROutput(output.rawValue), atom, 0, 64, 0, 1, Atom(AnyPropertyType), &actualType, &format, &items,
      &after,
      &data)
    defer { if let data { XFree(data) } }
    guard status == Success, actualType != 0, let data else { return nil }
    let type: OutputProperty.ValueType =
      switch actualType {
      case Atom(XA_ATOM): .atom
      case Atom(XA_INTEGER), Atom(XA_CARDINAL): .integer
      default: .other(atomNames([actualType]).first ?? "?")
      }
    let count = Int(clamping: min(items, 64))
    let raw: [Int] =
      switch format {
      case 8: (0..<count).map { Int(data[$0]) }
      case 16: data.withMemoryRebound(to: Int16.self, capacity: count) { p in (0..<count).map { Int(p[$0]) } }
      default: data.withMemoryRebound(to: Int.self, capacity: count) { p in (0..<count).map { p[$0] } }
      }
    let infoValues = Array(buffer(info.pointee.values, info.pointee.num_values))
    return OutputProperty(
      name: name, type: type, format: Int(format), value: values(raw, type, format: Int(format)),
      range: info.pointee.range != 0, allowed: values(infoValues, type, format: 32),
      immutable: info.pointee.immutable != 0, pending: info.pointee.pending != 0)
  }

  /// Items as values: atoms by name, integers signed as the type is (INTEGER) at `format`.
  private func values(_ items: [Int], _ type: OutputProperty.ValueType, format: Int) -> [PropertyValue] {
    switch type {
    case .atom:
      return atomNames(items.map { Atom(truncatingIfNeeded: $0) }).map(PropertyValue.text)
    case .integer, .other:
      return items.map { i in
        switch format {
        case 8: .integer(Int(Int8(truncatingIfNeeded: i)))
        case 16: .integer(Int(Int16(truncatingIfNeeded: i)))
        default: .integer(Int(Int32(truncatingIfNeeded: i)))
        }
      }
    }
  }
}
