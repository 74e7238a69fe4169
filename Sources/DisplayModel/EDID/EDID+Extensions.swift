extension EDID {
  /// Structural checks of extension blocks: enough to flag a block that would send a naive
  /// parser out of bounds. The blocks' contents are not decoded.
  static func checkExtensions(_ bytes: [UInt8], _ warnings: inout [EDIDWarning]) {
    let size = EDIDLayout.blockSize
    for start in stride(from: size, to: bytes.count, by: size) {
      let block = Array(bytes[start..<start + size])
      let index = start / size
      switch EDIDBlockKind(tag: block[EDIDLayout.extensionTag]) {
      case .cta861: checkCTA(block, index, &warnings)
      case .displayID: checkDisplayID(block, index, &warnings)
      case .other(let tag): warnings.append(.unknownExtension(block: index, tag: tag))
      default: break
      }
    }
  }

  /// CTA-861: byte 2 is the offset of the first DTD (0: none); data blocks fill 4..<offset.
  static func checkCTA(_ block: [UInt8], _ index: Int, _ warnings: inout [EDIDWarning]) {
    let offset = Int(block[2])
    guard offset != 0 else { return }
    guard offset >= 4, offset <= 127 else {
      warnings.append(.ctaLayout(block: index, "DTD offset \(offset) lies outside the block"))
      return
    }
    guard block[1] >= 3 else { return }  // revisions 1 and 2 have no data blocks
    var i = 4
    while i < offset {
      let length = Int(block[i] & 0x1F)
      i += 1 + length
    }
    if i != offset {
      warnings.append(.ctaLayout(block: index, "data blocks end at \(i), but the DTD offset is \(offset)"))
    }
  }

  /// DisplayID: byte 2 is the section's payload length, at most 121 in one block, followed
  /// by a checksum over the section.
  static func checkDisplayID(_ block: [UInt8], _ index: Int, _ warnings: inout [EDIDWarning]) {
    let length = Int(block[2])
    guard length <= 121 else {
      warnings.append(.displayIDLayout(block: index, "section length \(length) is greater than 121"))
      return
    }
    if block[1..<(1 + 5 + length)].reduce(UInt8(0), &+) != 0 {
      warnings.append(.displayIDLayout(block: index, "section checksum is wrong"))
    }
  }
}
