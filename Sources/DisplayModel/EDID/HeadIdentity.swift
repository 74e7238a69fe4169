/// hwdata's `pnp.ids`: the three-letter PNP ids an EDID names its manufacturer by, and the
/// company names a compositor shows instead (wlroots' `make` is the name of the EDID's id
/// from this table, or the id itself where it has no name for it). Pure: the service reads
/// the file.
public struct PNPVendors: Hashable, Sendable {
  /// Every id of each company name (a few companies have several).
  public private(set) var idsByName: [String: [String]] = [:]
  /// The company name of each id.
  public private(set) var nameByID: [String: String] = [:]

  /// No table: a make matches only as it is written, or as the id it is.
  public static let none = PNPVendors()

  public init() {}

  /// `ID<tab>Company name` lines; others are skipped. At most `limit` lines are read.
  public init(pnpIDs text: String, limit: Int = 100_000) {
    self.init(pnpIDs: text, only: nil, limit: limit)
  }

  /// The same, keeping only the companies `names` (makes as a compositor writes them): the
  /// table a daemon needs for the monitors it sees, a few entries instead of some 2500.
  public init(pnpIDs text: String, names: Set<String>, limit: Int = 100_000) {
    self.init(pnpIDs: text, only: Set(names.map(\.trimmingSpaces)), limit: limit)
  }

  private init(pnpIDs text: String, only names: Set<String>?, limit: Int) {
    // Line by line, without an array of every line: reading the table for one make costs
    // no memory beyond what it keeps.
    var (start, read) = (text.startIndex, 0)
    while start < text.endIndex, read < limit {
      let end = text.utf8[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.endIndex
      let line = text[start..<end]
      (start, read) = (end < text.endIndex ? text.index(after: end) : end, read + 1)
      guard let tab = line.firstIndex(of: "\t"), PNPVendors.isID(line[..<tab]) else { continue }
      let name = line[line.index(after: tab)...].trimmingSpaces
      guard !name.isEmpty, names.map({ $0.contains(name) }) ?? true else { continue }
      let id = String(line[..<tab])
      idsByName[name, default: []].append(id)
      if nameByID[id] == nil { nameByID[id] = name }
    }
  }

  /// This table with `other`'s entries added (an id already named keeps its name).
  public func merging(_ other: PNPVendors) -> PNPVendors {
    var merged = self
    for (name, ids) in other.idsByName {
      merged.idsByName[name, default: []] += ids.filter { !(merged.idsByName[name] ?? []).contains($0) }
    }
    merged.nameByID.merge(other.nameByID) { kept, _ in kept }
    return merged
  }

  /// Whether `make` is an id itself (`DEL`, `PNP(DEL)`) or nothing: no table is needed for it.
  public static func needsNoTable(_ make: String) -> Bool { ownIDs(make.trimmingSpaces) != nil }

  /// The ids a compositor's `make` stands for: the id itself (`DEL`, or libdisplay-info's
  /// `PNP(DEL)`), else every id the table lists under that company name; none for a make
  /// that is neither (`The X.Org Foundation`, a virtual output's).
  public func ids(make: String) -> [String] {
    let make = make.trimmingSpaces
    return Self.ownIDs(make) ?? idsByName[make] ?? []
  }

  /// The ids a trimmed make that needs no table says: itself, the id inside `PNP(…)` (none
  /// for a malformed one), none for an empty make; nil for a company name.
  static func ownIDs(_ make: String) -> [String]? {
    if make.isEmpty { return [] }
    if make.hasPrefix("PNP("), make.hasSuffix(")"), make.count == 8 {
      let id = make.dropFirst(4).dropLast()
      return PNPVendors.isID(id) ? [String(id)] : []
    }
    return PNPVendors.isID(Substring(make)) ? [make] : nil
  }

  /// Three capital letters, as an EDID's manufacturer field holds them.
  static func isID(_ text: Substring) -> Bool {
    text.count == 3 && text.unicodeScalars.allSatisfy { $0.value >= 65 && $0.value <= 90 }
  }
}

/// What a monitor without EDID bytes says about itself, as the profile matcher reads it:
/// wlroots' `make`, `model` and `serial` (from the EDID the compositor read, through
/// libdisplay-info). The mapping onto a profile's EDID keys:
///
/// - `manufacturer` matches the PNP id the make stands for (`DEL` for `Dell Inc.`, by
///   `pnp.ids`), or the make as written;
/// - `product_name` matches the model, unless the model is libdisplay-info's `0xHHHH` for a
///   monitor without a name, which is its `product_code`;
/// - `serial` matches the serial as written, and libdisplay-info's `0xHHHHHHHH` for a
///   serial number also in decimal (as an EDID's serial number matches on X).
public struct HeadIdentity: Hashable, Sendable {
  public var make: String
  public var model: String
  public var serial: String
  /// The PNP ids the make stands for (usually one, none for a make `pnp.ids` lacks).
  public var vendorIDs: [String]

  /// From a head's strings, each cut to `limit` characters; nil when the head says nothing
  /// (a headless or nested compositor's outputs).
  public init?(make: String, model: String, serial: String, vendors: PNPVendors, limit: Int = 256) {
    let cut = { (s: String) in String(s.trimmingSpaces.prefix(max(0, limit))) }
    (self.make, self.model, self.serial) = (cut(make), cut(model), cut(serial))
    guard !self.make.isEmpty || !self.model.isEmpty || !self.serial.isEmpty else { return nil }
    vendorIDs = vendors.ids(make: self.make)
  }

  /// What a `manufacturer` glob is tried against: the ids, then the make.
  public var manufacturers: [String] { (vendorIDs + [make]).filter { !$0.isEmpty } }

  /// The EDID product code, where the model is libdisplay-info's `0xHHHH` for it.
  public var productCode: Int? { Self.hexNumber(model, digits: 4).map(Int.init) }

  /// The monitor's name (the EDID's product name descriptor), nil when the model is a code.
  public var productName: String? { model.isEmpty || productCode != nil ? nil : model }

  /// What a `serial` glob is tried against: the serial, and a `0x` serial number in decimal.
  public var serials: [String] {
    guard !serial.isEmpty else { return [] }
    return [serial] + (serialNumber.map { [String($0)] } ?? [])
  }

  /// libdisplay-info's `0xHHHHHHHH` for an EDID serial number (no serial string).
  public var serialNumber: UInt32? { Self.hexNumber(serial, digits: 8) }

  /// The number `text` writes as `0x` and exactly `digits` (at most 8) hex digits, as
  /// libdisplay-info writes a code; nil for anything else. `Int(_:radix:)` alone takes a
  /// sign (`0x-0FF`), which would make a product code no config accepts.
  static func hexNumber<S: StringProtocol>(_ text: S, digits: Int) -> UInt32? {
    let bytes = Array(text.utf8)
    guard digits <= 8, bytes.count == digits + 2, bytes[0] == UInt8(ascii: "0"), bytes[1] == UInt8(ascii: "x")
    else { return nil }
    var value: UInt32 = 0
    for byte in bytes.dropFirst(2) {
      guard let digit = hexDigit(byte) else { return nil }
      value = value << 4 | digit
    }
    return value
  }

  private static func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  /// What `profile save` writes, so that the profile matches here and, for a monitor
  /// `pnp.ids` knows, on X: the PNP id when the make stands for one, else the make.
  public var savedManufacturer: String? {
    vendorIDs.count == 1 ? vendorIDs[0] : make.isEmpty ? nil : make
  }

  /// The serial as `profile save` writes it: a serial number in decimal, as X saves it.
  public var savedSerial: String? { serialNumber.map { String($0) } ?? (serial.isEmpty ? nil : serial) }

  /// Whether a match's identity keys (not `output`) all hold; true when it has none.
  public func matches(_ m: MonitorMatch) -> Bool {
    if let glob = m.manufacturer, !manufacturers.contains(where: { globMatch(glob, $0) }) { return false }
    if let glob = m.productName, !(productName.map { globMatch(glob, $0) } ?? false) { return false }
    if let code = m.productCode, code != productCode { return false }
    if let glob = m.serial, !serials.contains(where: { globMatch(glob, $0) }) { return false }
    return true
  }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
    return String(self[first...last])
  }
}
