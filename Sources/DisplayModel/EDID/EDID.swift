/// A blob that is not an EDID at all: nothing in it can be trusted.
public enum EDIDError: Error, Equatable, Sendable, CustomStringConvertible {
  case empty
  /// The length is not a whole number of 128-byte blocks.
  case length(Int)
  /// More than 256 blocks.
  case tooLarge(Int)
  /// The 8-byte header `00 FF FF FF FF FF FF 00` is missing.
  case noHeader

  public var description: String {
    switch self {
    case .empty: return "empty EDID"
    case .length(let n): return "EDID length \(n) is not a multiple of 128"
    case .tooLarge(let n): return "EDID length \(n) is more than 256 blocks (32768 bytes)"
    case .noHeader: return "no EDID header"
    }
  }
}

/// A defect that still leaves the EDID decodable.
public enum EDIDWarning: Hashable, Sendable, CustomStringConvertible {
  case checksum(block: Int)
  case extensionCount(declared: Int, present: Int)
  case manufacturerGarbage
  case unknownVersion(Int, Int)
  case invalidWeek(Int)
  case invalidText(descriptor: String, reason: String)
  case repeatedDescriptor(String)
  case pixelClockTooLow(descriptor: Int)
  case zeroTiming(descriptor: Int)
  case negativeBackPorch(descriptor: Int)
  case noPreferredTiming
  case unknownExtension(block: Int, tag: UInt8)
  case ctaLayout(block: Int, String)
  case displayIDLayout(block: Int, String)

  public var description: String {
    switch self {
    case .checksum(let b): return "block \(b): invalid checksum"
    case .extensionCount(let d, let p): return "EDID declares \(d) extension block(s), but \(p) are present"
    case .manufacturerGarbage: return "manufacturer name field contains garbage"
    case .unknownVersion(let a, let b): return "unknown EDID version \(a).\(b)"
    case .invalidWeek(let w): return "invalid week \(w) of manufacture"
    case .invalidText(let d, let r): return "\(d): \(r)"
    case .repeatedDescriptor(let d): return "more than one \(d) descriptor"
    case .pixelClockTooLow(let n): return "descriptor \(n): pixel clock below 10 MHz, taken as invalid"
    case .zeroTiming(let n): return "descriptor \(n): zero active or blanking size"
    case .negativeBackPorch(let n):
      return "descriptor \(n): sync pulse extends past the blanking (0 or negative back porch)"
    case .noPreferredTiming: return "no preferred timing: block 0 has no detailed timing descriptor"
    case .unknownExtension(let b, let t): return "block \(b): unknown extension block tag 0x" + String(t, radix: 16)
    case .ctaLayout(let b, let what): return "block \(b): CTA-861: \(what)"
    case .displayIDLayout(let b, let what): return "block \(b): DisplayID: \(what)"
    }
  }
}

/// A detailed timing: the monitor's preferred mode when it is the first one of block 0.
public struct DetailedTiming: Hashable, Sendable {
  public var width: Int
  /// Frame height: twice the field lines for an interlaced mode.
  public var height: Int
  /// Field rate for an interlaced mode.
  public var refreshHz: Double
  public var pixelClockKHz: Int
  public var interlaced: Bool
}

/// The kind of an extension block, by its tag byte.
public enum EDIDBlockKind: Hashable, Sendable {
  case cta861, displayID, blockMap, videoTiming, displayInformation, localizedString
  case manufacturerSpecific
  case other(UInt8)

  init(tag: UInt8) {
    switch tag {
    case 0x02: self = .cta861
    case 0x70: self = .displayID
    case 0xF0: self = .blockMap
    case 0x10: self = .videoTiming
    case 0x40: self = .displayInformation
    case 0x50: self = .localizedString
    case 0xFF: self = .manufacturerSpecific
    default: self = .other(tag)
    }
  }

  /// edid-decode's name for the block.
  public var name: String {
    switch self {
    case .cta861: return "CTA-861 Extension Block"
    case .displayID: return "DisplayID Extension Block"
    case .blockMap: return "Block Map Extension Block"
    case .videoTiming: return "Video Timing Extension Block"
    case .displayInformation: return "Display Information Extension Block"
    case .localizedString: return "Localized String Extension Block"
    case .manufacturerSpecific: return "Manufacturer-Specific Extension Block"
    case .other(let t):
      let hex = String(t, radix: 16)
      return "Unknown EDID Extension Block 0x" + (hex.count < 2 ? "0" : "") + hex
    }
  }
}

/// One extension block present in the blob.
public struct EDIDExtension: Hashable, Sendable {
  public var kind: EDIDBlockKind
  public var checksumOK: Bool
}

/// A decoded EDID: what a monitor says about itself. Decoding never traps on any input.
public struct EDID: Hashable, Sendable {
  public var bytes: [UInt8]
  /// The 3-letter PNP id; letters outside A–Z are kept as read and flagged.
  public var manufacturer: String
  public var productCode: Int
  /// The 32-bit serial number, nil when zero.
  public var serialNumber: UInt32?
  public var productName: EDIDText?
  public var serialString: EDIDText?
  /// The serial as people and configs name it: the serial string, else the serial number in
  /// decimal; nil when the monitor gives neither.
  public var serial: String? { serialString?.text ?? serialNumber.map { String($0) } }
  public var versionMajor: Int
  public var versionMinor: Int
  public var isDigital: Bool
  /// Maximum image size in cm, nil when either byte is zero.
  public var maxImageSizeCm: (width: Int, height: Int)? {
    let (w, h) = (bytes[EDIDLayout.screenWidthCm], bytes[EDIDLayout.screenHeightCm])
    return w == 0 || h == 0 ? nil : (Int(w), Int(h))
  }
  public var manufactureWeek: Int?
  public var manufactureYear: Int?
  public var modelYear: Int?
  public var extensionCount: Int
  public var checksumOK: Bool
  public var extensions: [EDIDExtension]
  public var preferredTiming: DetailedTiming?
  public var warnings: [EDIDWarning]

  public var version: String { "\(versionMajor).\(versionMinor)" }
  public var blockCount: Int { bytes.count / EDIDLayout.blockSize }

  public static func == (a: EDID, b: EDID) -> Bool { a.bytes == b.bytes }
  public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

  /// Decodes `bytes`; throws only when they are not an EDID at all.
  public init(bytes: [UInt8]) throws(EDIDError) {
    guard !bytes.isEmpty else { throw .empty }
    let size = EDIDLayout.blockSize
    guard bytes.count % size == 0 else { throw .length(bytes.count) }
    guard bytes.count <= 256 * size else { throw .tooLarge(bytes.count) }
    guard bytes.starts(with: EDIDLayout.header) else { throw .noHeader }
    self.bytes = bytes
    var warnings: [EDIDWarning] = []
    let m = EDIDLayout.manufacturer
    manufacturer = EDID.decodeManufacturer(bytes[m], bytes[m + 1], &warnings)
    let p = EDIDLayout.productCode
    productCode = Int(bytes[p]) | Int(bytes[p + 1]) << 8
    let s = EDIDLayout.serialNumber
    let serial =
      UInt32(bytes[s]) | UInt32(bytes[s + 1]) << 8 | UInt32(bytes[s + 2]) << 16 | UInt32(bytes[s + 3]) << 24
    serialNumber = serial == 0 ? nil : serial
    versionMajor = Int(bytes[EDIDLayout.version])
    versionMinor = Int(bytes[EDIDLayout.revision])
    if versionMajor != 1 || versionMinor > 4 { warnings.append(.unknownVersion(versionMajor, versionMinor)) }
    isDigital = bytes[EDIDLayout.videoInput] & 0x80 != 0
    (manufactureWeek, manufactureYear, modelYear) = EDID.decodeDate(
      week: bytes[EDIDLayout.week], year: bytes[EDIDLayout.year], &warnings)
    extensionCount = Int(bytes[EDIDLayout.extensionCount])
    checksumOK = EDID.checksumOK(bytes[0..<size])
    if !checksumOK { warnings.append(.checksum(block: 0)) }
    extensions = stride(from: size, to: bytes.count, by: size).map { start in
      EDIDExtension(
        kind: EDIDBlockKind(tag: bytes[start + EDIDLayout.extensionTag]),
        checksumOK: EDID.checksumOK(bytes[start..<start + size]))
    }
    for (i, ext) in extensions.enumerated() where !ext.checksumOK { warnings.append(.checksum(block: i + 1)) }
    if extensionCount != extensions.count {
      warnings.append(.extensionCount(declared: extensionCount, present: extensions.count))
    }
    EDID.checkExtensions(bytes, &warnings)
    let descriptors = EDID.decodeDescriptors(bytes, &warnings)
    if descriptors.timing == nil { warnings.append(.noPreferredTiming) }
    productName = descriptors.name
    serialString = descriptors.serial
    preferredTiming = descriptors.timing
    self.warnings = warnings
  }

  /// 3.11 Checksum (7Fh of each block): the block's bytes sum to 0 modulo 256.
  static func checksumOK(_ block: ArraySlice<UInt8>) -> Bool {
    block.reduce(UInt8(0), &+) == 0
  }

  static func decodeManufacturer(_ hi: UInt8, _ lo: UInt8, _ warnings: inout [EDIDWarning]) -> String {
    let v = UInt16(hi) << 8 | UInt16(lo)
    let letters = [(v >> 10) & 0x1F, (v >> 5) & 0x1F, v & 0x1F]
    if v & 0x8000 != 0 || letters.contains(where: { $0 < 1 || $0 > 26 }) {
      warnings.append(.manufacturerGarbage)
    }
    return String(String.UnicodeScalarView(letters.compactMap { Unicode.Scalar(UInt8($0) + 0x40) }))
  }

  static func decodeDate(
    week: UInt8, year: UInt8, _ warnings: inout [EDIDWarning]
  ) -> (week: Int?, year: Int?, modelYear: Int?) {
    let y = 1990 + Int(year)
    switch week {
    case 0xFF: return (nil, nil, y)
    case 0: return (nil, y, nil)
    case 1...54: return (Int(week), y, nil)
    default:
      warnings.append(.invalidWeek(Int(week)))
      return (nil, y, nil)
    }
  }
}
