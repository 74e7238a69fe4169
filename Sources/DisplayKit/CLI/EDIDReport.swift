/// Text and JSON renderings of a decoded EDID for `displayd edid` and `displayd outputs`.
public enum EDIDReport {
  /// The record of one EDID, with keys named as in the shared corpus's `expected.json`.
  public static func fieldsJSON(_ e: EDID) -> [(String, JSON)] {
    [
      ("manufacturer", .string(e.manufacturer)),
      ("product_code", .int(e.productCode)),
      ("serial_number", JSON.optional(e.serialNumber) { .int(Int($0)) }),
      ("product_name", JSON.optional(e.productName) { .string($0.text) }),
      ("serial_string", JSON.optional(e.serialString) { .string($0.text) }),
      ("edid_version", .string(e.version)),
      ("extension_count", .int(e.extensionCount)),
      ("checksum_ok", .bool(e.checksumOK)),
      ("max_image_size_cm", JSON.optional(e.maxImageSizeCm) { .array([.int($0.width), .int($0.height)]) }),
      (
        "preferred_mode",
        JSON.optional(e.preferredTiming) {
          .object([
            ("width", .int($0.width)), ("height", .int($0.height)),
            ("refresh_hz", .double(rounded($0.refreshHz, places: 3))),
            ("pixel_clock_khz", .int($0.pixelClockKHz)), ("interlaced", .bool($0.interlaced)),
          ])
        }
      ),
      ("manufacture_year", JSON.optional(e.manufactureYear) { .int($0) }),
      ("manufacture_week", JSON.optional(e.manufactureWeek) { .int($0) }),
      ("model_year", JSON.optional(e.modelYear) { .int($0) }),
      ("input_type", .string(e.isDigital ? "digital" : "analog")),
      ("block_count", .int(e.blockCount)),
      ("extension_block_types", .array(e.extensions.map { .string($0.kind.name) })),
      ("extension_checksums_ok", .array(e.extensions.map { .bool($0.checksumOK) })),
      ("display_id", .string(DisplayID(edid: e).rawValue)),
      ("warnings", .array(e.warnings.map { .string($0.description) })),
    ]
  }

  /// The identity object of `outputs --json`.
  public static func identityJSON(_ e: EDID) -> JSON { .object(fieldsJSON(e)) }

  /// `DEL "DELL U2720Q" serial 12345`, for one-line listings.
  public static func identityLine(_ e: EDID) -> String {
    var words = [e.manufacturer]
    if let name = e.productName { words.append("\"\(name.text)\"") }
    if let serial = e.serial {
      words.append("serial \(serial)")
    }
    return words.joined(separator: " ")
  }

  /// A short, `edid-decode`-like description.
  public static func text(_ e: EDID) -> String {
    var lines: [String] = []
    lines.append("EDID Structure Version & Revision: \(e.version)")
    lines.append("Manufacturer: \(e.manufacturer)")
    lines.append("Model: \(e.productCode)")
    if let s = e.serialNumber { lines.append("Serial Number: \(s)") }
    if let y = e.modelYear {
      lines.append("Model year: \(y)")
    } else if let y = e.manufactureYear {
      lines.append(e.manufactureWeek.map { "Made in: week \($0) of \(y)" } ?? "Made in: \(y)")
    }
    lines.append(e.isDigital ? "Digital display" : "Analog display")
    if let size = e.maxImageSizeCm { lines.append("Maximum image size: \(size.width) cm x \(size.height) cm") }
    if let name = e.productName { lines.append("Display Product Name: '\(name.text)'") }
    if let serial = e.serialString { lines.append("Display Product Serial Number: '\(serial.text)'") }
    if let t = e.preferredTiming {
      lines.append(
        "Preferred mode: \(t.width)x\(t.height)\(t.interlaced ? "i" : "") "
          + fixed(t.refreshHz, places: 3) + " Hz, \(t.pixelClockKHz) kHz")
    }
    lines.append("Extension blocks: \(e.extensionCount) declared, \(e.extensions.count) present")
    for (i, ext) in e.extensions.enumerated() {
      lines.append("  Block \(i + 1): \(ext.kind.name)" + (ext.checksumOK ? "" : " (bad checksum)"))
    }
    lines.append("Checksum: " + (e.checksumOK ? "ok" : "bad"))
    lines.append("Identity: \(DisplayID(edid: e).rawValue)")
    for w in e.warnings { lines.append("Warning: \(w)") }
    return lines.joined(separator: "\n") + "\n"
  }
}
