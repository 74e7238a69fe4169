import Foundation
import Testing
import XRig

/// Compares one decoded record (from `displayd edid --json`) with a reference record of the
/// shared corpus; returns the mismatches, skipping fields the reference marks ambiguous.
func mismatches(_ ours: [String: Any], _ expected: [String: Any], ambiguous: Set<String>) -> [String] {
  let fields = [
    "manufacturer", "product_code", "serial_number", "product_name", "serial_string", "edid_version",
    "extension_count", "checksum_ok", "max_image_size_cm", "manufacture_year", "manufacture_week",
    "model_year", "input_type", "block_count", "extension_block_types", "extension_checksums_ok",
  ]
  var result: [String] = []
  for field in fields where !ambiguous.contains(field) {
    let a = ours[field] ?? NSNull()
    let b = expected[field] ?? NSNull()
    if !jsonEqual(a, b) { result.append("\(field): ours \(a), expected \(b)") }
  }
  guard !ambiguous.contains("preferred_mode") else { return result }
  switch (ours["preferred_mode"] as? [String: Any], expected["preferred_mode"] as? [String: Any]) {
  case (nil, nil): break
  case (let a?, let b?):
    for key in ["width", "height", "pixel_clock_khz", "interlaced"]
    where !jsonEqual(a[key] ?? NSNull(), b[key] ?? NSNull()) {
      result.append("preferred_mode.\(key): ours \(a[key] ?? "nil"), expected \(b[key] ?? "nil")")
    }
    if !ambiguous.contains("preferred_mode.refresh_hz"),
      let x = a["refresh_hz"] as? Double, let y = b["refresh_hz"] as? Double, abs(x - y) > 0.001
    {
      result.append("preferred_mode.refresh_hz: ours \(x), expected \(y)")
    }
  case (let a, let b): result.append("preferred_mode: ours \(String(describing: a)), expected \(String(describing: b))")
  }
  return result
}

private func jsonEqual(_ a: Any, _ b: Any) -> Bool {
  if let x = a as? [Any], let y = b as? [Any] { return x.count == y.count && zip(x, y).allSatisfy(jsonEqual) }
  if a is NSNull || b is NSNull { return a is NSNull && b is NSNull }
  if let x = a as? String, let y = b as? String { return x == y }
  if let x = a as? NSNumber, let y = b as? NSNumber { return x == y }
  return false
}

/// The records of an `expected.json`: a JSON list of objects.
func referenceRecords(_ path: String) throws -> [[String: Any]] {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
}

/// Runs `displayd edid --json` on every file at once; returns the records by file path.
func decodeWithCLI(_ paths: [String]) throws -> (status: Int32, records: [String: [String: Any]]) {
  let r = try displayd(["edid", "--json"] + paths, timeout: 30)
  var records: [String: [String: Any]] = [:]
  for line in r.out.split(separator: "\n") {
    let obj = try jsonObject(String(line))
    records[obj["file"] as? String ?? ""] = obj
  }
  return (r.status, records)
}
