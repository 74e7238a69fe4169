import DisplayModel
import DisplayService
import DisplaySupport

/// Text and JSON renderings of a decoded EDID for `displayd edid` and `displayd outputs`.
public enum EDIDReport {
  /// `DEL "DELL U2720Q" serial 12345`, for one-line listings.
  public static func identityLine(_ e: EDID) -> String {
    var words = [e.manufacturer]
    if let name = e.productName { words.append("\"\(name.text)\"") }
    if let serial = e.serial {
      words.append("serial \(serial)")
    }
    return printable(words.joined(separator: " "))
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
    return printableLines(lines)
  }
}
