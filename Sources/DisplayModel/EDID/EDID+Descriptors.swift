/// Text from an EDID string descriptor: always valid UTF-8, with the raw bytes kept.
public struct EDIDText: Hashable, Sendable, CustomStringConvertible {
  /// The bytes as stored, up to (not including) the terminator.
  public var raw: [UInt8]
  /// Printable ASCII as is; any other byte becomes U+FFFD; surrounding spaces trimmed.
  public var text: String
  public var description: String { text }

  /// Decodes the 13 data bytes of a descriptor; the text ends at 0x0A (or a NUL pad).
  init(descriptorData data: ArraySlice<UInt8>, label: String, warnings: inout [EDIDWarning]) {
    let end = data.firstIndex { $0 == 0x0A || $0 == 0x00 } ?? data.endIndex
    raw = Array(data[data.startIndex..<end])
    if end < data.endIndex {
      let tail = data[(end + 1)...]
      if data[end] == 0x00 {
        warnings.append(.invalidText(descriptor: label, reason: "padded with NUL"))
      } else if tail.contains(where: { $0 != 0x20 && $0 != 0x0A }) {
        warnings.append(.invalidText(descriptor: label, reason: "non-space after newline"))
      }
    }
    if raw.contains(where: { $0 < 0x20 || $0 > 0x7E }) {
      warnings.append(.invalidText(descriptor: label, reason: "non-printable character"))
    }
    let scalars = raw.map { (0x20...0x7E).contains($0) ? Unicode.Scalar($0) : "\u{FFFD}" }
    var s = String(String.UnicodeScalarView(scalars))
    while s.hasSuffix(" ") { s.removeLast() }
    while s.hasPrefix(" ") { s.removeFirst() }
    text = s
    if text.isEmpty { warnings.append(.invalidText(descriptor: label, reason: "empty string")) }
  }
}

extension EDID {
  struct Descriptors {
    var name: EDIDText?
    var serial: EDIDText?
    var timing: DetailedTiming?
  }

  /// Reads the four 18-byte descriptors of block 0.
  static func decodeDescriptors(_ bytes: [UInt8], _ warnings: inout [EDIDWarning]) -> Descriptors {
    var result = Descriptors()
    for index in 0..<EDIDLayout.descriptorCount {
      let start = EDIDLayout.descriptors + index * EDIDLayout.descriptorSize
      let d = bytes[start..<start + EDIDLayout.descriptorSize]
      let clock = Int(d[start + EDIDLayout.Timing.pixelClock]) | Int(d[start + EDIDLayout.Timing.pixelClock + 1]) << 8
      if clock != 0 {
        // Every timing is checked; the first valid one is the preferred mode.
        if clock < 1000 {
          warnings.append(.pixelClockTooLow(descriptor: index + 1))
        } else {
          let timing = detailedTiming(d, clock10kHz: clock, index: index + 1, &warnings)
          if result.timing == nil { result.timing = timing }
        }
        continue
      }
      let data = d[(start + EDIDLayout.Display.data)..<(start + EDIDLayout.descriptorSize)]
      switch d[start + EDIDLayout.Display.tag] {
      case EDIDLayout.Display.productName: take(&result.name, data, "Display Product Name", &warnings)
      case EDIDLayout.Display.serialString: take(&result.serial, data, "Display Product Serial Number", &warnings)
      default: break
      }
    }
    return result
  }

  private static func take(
    _ slot: inout EDIDText?, _ data: ArraySlice<UInt8>, _ label: String, _ warnings: inout [EDIDWarning]
  ) {
    guard slot == nil else {
      warnings.append(.repeatedDescriptor(label))
      return
    }
    slot = EDIDText(descriptorData: data, label: label, warnings: &warnings)
  }

  /// Decodes an 18-byte detailed timing descriptor whose pixel clock is `clock10kHz`.
  static func detailedTiming(
    _ d: ArraySlice<UInt8>, clock10kHz: Int, index: Int, _ warnings: inout [EDIDWarning]
  ) -> DetailedTiming {
    typealias T = EDIDLayout.Timing
    let b = Array(d)
    let hActive = Int(b[T.hActiveLow]) | Int(b[T.hHigh] & 0xF0) << 4
    let hBlank = Int(b[T.hBlankLow]) | Int(b[T.hHigh] & 0x0F) << 8
    let vActive = Int(b[T.vActiveLow]) | Int(b[T.vHigh] & 0xF0) << 4
    let vBlank = Int(b[T.vBlankLow]) | Int(b[T.vHigh] & 0x0F) << 8
    let interlaced = b[T.flags] & 0x80 != 0
    if hActive == 0 || vActive == 0 || hBlank == 0 || vBlank == 0 {
      warnings.append(.zeroTiming(descriptor: index))
    }
    let hFront = Int(b[T.hFrontLow]) | Int(b[T.syncHigh] & 0xC0) << 2
    let hSync = Int(b[T.hSyncLow]) | Int(b[T.syncHigh] & 0x30) << 4
    let vFront = Int(b[T.vFrontSyncLow] >> 4) | Int(b[T.syncHigh] & 0x0C) << 2
    let vSync = Int(b[T.vFrontSyncLow] & 0x0F) | Int(b[T.syncHigh] & 0x03) << 4
    if hFront + hSync >= hBlank || vFront + vSync >= vBlank {
      warnings.append(.negativeBackPorch(descriptor: index))
    }
    let hz = Double(clock10kHz) * 10_000
    let hTotal = Double(hActive + hBlank)
    let vTotal = Double(vActive + vBlank)
    // An interlaced frame is two fields plus half a line each; the rate is per field.
    let refresh: Double
    if hTotal == 0 || vTotal == 0 {
      refresh = 0
    } else if interlaced {
      refresh = 2 * hz / (hTotal * (2 * vTotal + 1))
    } else {
      refresh = hz / (hTotal * vTotal)
    }
    return DetailedTiming(
      width: hActive, height: interlaced ? vActive * 2 : vActive, refreshHz: refresh,
      pixelClockKHz: clock10kHz * 10, interlaced: interlaced)
  }
}
