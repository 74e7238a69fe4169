import Foundation

/// An 8-bit RGB picture, as grim writes it with `-t ppm` (binary PPM, `P6`): no decoder
/// needed to read a screenshot's pixels.
public struct RGBImage {
  public let width: Int
  public let height: Int
  private let bytes: [UInt8]

  /// Reads a binary PPM (`P6 W H 255`, then width × height RGB triples).
  public init(ppm data: [UInt8]) throws {
    var fields: [Int] = []
    var i = 2
    guard data.starts(with: Array("P6".utf8)) else { throw RigError("not a binary PPM") }
    while fields.count < 3, i < data.count {
      while i < data.count, data[i] == 0x20 || data[i] == 0x0A || data[i] == 0x0D || data[i] == 0x09 { i += 1 }
      let start = i
      while i < data.count, (0x30...0x39).contains(data[i]) { i += 1 }
      guard let value = Int(String(decoding: data[start..<i], as: UTF8.self)) else { throw RigError("bad PPM header") }
      fields.append(value)
    }
    i += 1  // The one whitespace byte after the maximum value.
    guard fields.count == 3, fields[2] == 255, fields[0] > 0, fields[1] > 0,
      data.count - i >= fields[0].multipliedReportingOverflow(by: fields[1] * 3).partialValue
    else { throw RigError("PPM header \(fields) does not fit \(data.count) bytes") }
    width = fields[0]
    height = fields[1]
    bytes = Array(data[i...])
  }

  /// The pixel as 0xRRGGBB, or nil outside the picture.
  public func pixel(x: Int, y: Int) -> UInt32? {
    guard (0..<width).contains(x), (0..<height).contains(y) else { return nil }
    let o = (y * width + x) * 3
    return UInt32(bytes[o]) << 16 | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2])
  }
}

extension SwayCompositor {
  /// A screenshot of one output through screencopy (`grim -t ppm -o NAME`), with the
  /// pointer drawn in when `cursor` (`grim -c`: screencopy's `overlay_cursor`).
  public func screenshot(_ output: String, cursor: Bool = false) throws -> RGBImage {
    let file = outputDirectory + "/\(output).ppm"
    let r = try client(["grim", "-t", "ppm"] + (cursor ? ["-c"] : []) + ["-o", output, file])
    guard r.status == 0, let data = FileManager.default.contents(atPath: file) else {
      throw RigError("grim -o \(output) failed: \(r.err)")
    }
    try? FileManager.default.removeItem(atPath: file)
    return try RGBImage(ppm: Array(data))
  }
}

extension LabwcCompositor {
  /// A screenshot of one of labwc's outputs through its screencopy (`grim -t ppm -o NAME`),
  /// with the pointer drawn in when `cursor` (`grim -c`).
  public func screenshot(_ output: String, cursor: Bool = false) throws -> RGBImage {
    let file = host.outputDirectory + "/labwc-\(output).ppm"
    let r = try client(["grim", "-t", "ppm"] + (cursor ? ["-c"] : []) + ["-o", output, file])
    guard r.status == 0, let data = FileManager.default.contents(atPath: file) else {
      throw RigError("grim -o \(output) on labwc failed: \(r.err)")
    }
    try? FileManager.default.removeItem(atPath: file)
    return try RGBImage(ppm: Array(data))
  }
}
