import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

@Suite struct EDIDCorpusTests {
  func checkAgainstReference(folder: String) throws -> Int {
    let records = try referenceRecords(folder + "/expected.json")
    let paths = records.compactMap { $0["file"] as? String }.map { folder + "/" + $0 }
    let decoded = try decodeWithCLI(paths)
    #expect(decoded.status == 0)
    var matched = 0
    for record in records {
      let file = try #require(record["file"] as? String)
      let ours = try #require(decoded.records[folder + "/" + file], "no output for \(file)")
      let ambiguous = Set((record["ambiguous"] as? [String: Any] ?? [:]).keys)
      let diff = mismatches(ours, record, ambiguous: ambiguous)
      #expect(diff.isEmpty, "\(file): \(diff.joined(separator: "; "))")
      if diff.isEmpty { matched += 1 }
    }
    return matched
  }

  @Test(.enabled(if: sharedEDIDFolder != nil, "../shared/edid is absent: the 200-EDID corpus is not checked"))
  func all200SharedEDIDsMatchEdidDecode() throws {
    let folder = try #require(sharedEDIDFolder)
    #expect(try checkAgainstReference(folder: folder) == 200)
  }

  @Test func bundledFixturesMatchEdidDecode() throws {
    #expect(try checkAgainstReference(folder: fixtureFolder) == 6)
  }

  @Test func decodingIsFastForManyFiles() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: fixtureFolder).filter { $0.hasSuffix(".bin") }
    let blobs = try files.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/" + $0))) }
    var decoded = 0
    let start = now()
    for _ in 0..<500 { for blob in blobs where (try? EDID(bytes: blob)) != nil { decoded += 1 } }
    #expect(decoded == 3000)
    // A loose floor (thousands a second): the benchmark, not this test, holds the figure.
    #expect(Double(decoded) / (now() - start) > 2000)
  }
}

@Suite struct EDIDMalformedTests {
  /// edid-decode's failure text -> words one of our warnings must contain.
  let rules: [(String, [String])] = [
    // A DisplayID section whose length is out of range has its checksum read from a wrong
    // offset; the length warning names that cause.
    ("Invalid checksum", ["checksum", "DisplayID: section length"]),
    ("extension block(s), but found", ["extension block(s)"]),
    ("Manufacturer name field contains garbage", ["manufacturer"]),
    (
      "Display Product Name: Non-printable",
      ["Display Product Name: non-printable", "Display Product Name: padded with NUL"]
    ),
    ("Display Product Serial Number: Non-printable", ["Display Product Serial Number: non-printable"]),
    ("Non-space after newline", ["non-space after newline"]),
    ("Empty string", ["empty string"]),
    ("Invalid week", ["invalid week"]),
    ("Unknown EDID major version", ["unknown EDID version"]),
    ("Unknown EDID minor version", ["unknown EDID version"]),
    ("Pixelclock < 10 MHz", ["pixel clock below 10 MHz"]),
    ("0 values in the video timing", ["zero active or blanking"]),
    ("negative horizontal back porch", ["back porch"]),
    ("Unknown Extension Block", ["unknown extension block"]),
    ("is greater than 121", ["DisplayID: section length"]),
    ("Missing preferred timing", ["no preferred timing"]),
    ("Offset is", ["CTA-861: data blocks end"]),
  ]

  @Test(.enabled(if: sharedEDIDFolder != nil, "../shared/edid is absent"))
  func everyMalformedFileGetsWhatItsREADMESays() throws {
    let folder = try #require(sharedEDIDFolder) + "/malformed"
    let manifest = try referenceRecords(folder + "/manifest.json")
    #expect(manifest.count == 60)
    let decoded = try decodeWithCLI(manifest.compactMap { $0["file"] as? String }.map { folder + "/" + $0 })
    #expect(decoded.status == 1, "some inputs are not EDIDs")
    for entry in manifest {
      let file = try #require(entry["file"] as? String)
      let ours = try #require(decoded.records[folder + "/" + file], "\(file): no output (crash?)")
      if entry["expected"] as? String == "reject" {
        #expect(ours["error"] is String && ours["manufacturer"] == nil, "\(file) must be rejected")
        continue
      }
      let warnings = ours["warnings"] as? [String] ?? []
      #expect(!warnings.isEmpty, "\(file): decoded with no warning")
      let failures =
        (entry["new_failures"] as? [String] ?? []).joined(separator: "\n") + (entry["defect"] as? String ?? "")
      for (failure, words) in rules where failures.contains(failure) {
        #expect(
          warnings.contains { w in words.contains { w.contains($0) } },
          "\(file): no warning for '\(failure)': \(warnings)")
      }
      let reference = try #require(entry["reference"] as? [String: Any])
      let ambiguous = Set((entry["reference_ambiguous"] as? [String: Any] ?? [:]).keys)
      let diff = mismatches(ours, reference, ambiguous: ambiguous)
      #expect(diff.isEmpty, "\(file): \(diff.joined(separator: "; "))")
    }
  }

  @Test func namesWithBadBytesStayValidUTF8AndKeepTheRawBytes() throws {
    var blob = try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/acer_acr001a_34cdf6327a45.bin")))
    // Find the 0xFC descriptor and put Latin-1, a control byte and NUL padding in it.
    let start = try #require(stride(from: 54, to: 126, by: 18).first { blob[$0] == 0 && blob[$0 + 3] == 0xFC })
    let name: [UInt8] = [0x56, 0xE9, 0x07, 0x41, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    blob.replaceSubrange((start + 5)..<(start + 18), with: name)
    blob[127] = 0
    blob[127] = UInt8((256 - Int(blob[0..<128].reduce(UInt8(0), &+))) % 256)
    let edid = try EDID(bytes: blob)
    #expect(edid.checksumOK)
    #expect(edid.productName?.raw == [0x56, 0xE9, 0x07, 0x41])
    #expect(edid.productName?.text == "V\u{FFFD}\u{FFFD}A")
    #expect(edid.warnings.contains(.invalidText(descriptor: "Display Product Name", reason: "padded with NUL")))
    #expect(edid.warnings.contains(.invalidText(descriptor: "Display Product Name", reason: "non-printable character")))
  }

  @Test func notAnEDIDIsATypedError() {
    #expect(throws: EDIDError.empty) { try EDID(bytes: []) }
    #expect(throws: EDIDError.length(100)) { try EDID(bytes: [UInt8](repeating: 0, count: 100)) }
    #expect(throws: EDIDError.noHeader) { try EDID(bytes: [UInt8](repeating: 0xFF, count: 128)) }
    #expect(throws: EDIDError.tooLarge(257 * 128)) {
      try EDID(bytes: [0, 255, 255, 255, 255, 255, 255, 0] + [UInt8](repeating: 0, count: 257 * 128 - 8))
    }
  }
}

@Suite struct DisplayIdentityTests {
  func edid(_ name: String) throws -> [UInt8] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: fixtureFolder + "/\(name).bin")))
  }

  @Test func identityComesFromTheEDIDAndSurvivesAConnectorChange() throws {
    let bytes = try edid("acer_acr001a_34cdf6327a45")
    let id = DisplayID(edid: try EDID(bytes: bytes))
    #expect(id.rawValue.hasPrefix("ACR-1a-818181fb-"))
    var t = TopologyBuilder.topology(
      ["eDP-1", "DP-1", "DP-2-1"], on: ["eDP-1": TopologyBuilder.m1080, "DP-1": TopologyBuilder.m1024],
      edid: ["DP-1": bytes])
    #expect(DisplayID.assign(t.outputs)[t.outputs[1].id] == id)
    t = TopologyBuilder.topology(
      ["eDP-1", "DP-1", "DP-2-1"], on: ["eDP-1": TopologyBuilder.m1080, "DP-2-1": TopologyBuilder.m1024],
      edid: ["DP-2-1": bytes])
    #expect(DisplayID.assign(t.outputs)[t.outputs[2].id] == id)
  }

  @Test func identicalMonitorsAreToldApartByConnectorAndNoEDIDMeansConnector() throws {
    let bytes = try edid("boe_boe0aa8_d44a47a3a0d0")
    let t = TopologyBuilder.topology(
      ["eDP-1", "DP-1", "DP-2"],
      on: ["eDP-1": TopologyBuilder.m1080, "DP-1": TopologyBuilder.m1024, "DP-2": TopologyBuilder.m768],
      edid: ["DP-1": bytes, "DP-2": bytes])
    let ids = DisplayID.assign(t.outputs)
    let base = DisplayID(edid: try EDID(bytes: bytes)).rawValue
    #expect(ids[t.outputs[1].id]?.rawValue == base + "@DP-1")
    #expect(ids[t.outputs[2].id]?.rawValue == base + "@DP-2")
    #expect(ids[t.outputs[0].id]?.rawValue == "output:eDP-1")
  }

  @Test func sameVendorProductAndSerialButDifferentBlocksDiffer() throws {
    var a = try edid("acer_acr001a_34cdf6327a45")
    let original = DisplayID(edid: try EDID(bytes: a))
    a[54 + 18 * 3 + 5] ^= 0x01  // a byte of a descriptor, not of vendor/product/serial
    #expect(DisplayID(edid: try EDID(bytes: a)) != original)
  }
}

extension DisplayID {
  /// The identity of a monitor seen only by its connector.
  init(connector: String) { self.init(rawValue: "output:" + connector) }

  /// Identities for every connected RandR output, with the connector as tie-break between
  /// outputs whose EDIDs are identical.
  static func assign(_ outputs: [Output]) -> [OutputID: DisplayID] {
    var base: [OutputID: DisplayID] = [:]
    var counts: [DisplayID: Int] = [:]
    for output in outputs where output.isConnected {
      let id =
        output.identity.map(DisplayID.init(edid:))
        ?? DisplayID(connector: output.name)
      base[output.id] = id
      counts[id, default: 0] += 1
    }
    var result: [OutputID: DisplayID] = [:]
    for output in outputs where output.isConnected {
      guard let id = base[output.id] else { continue }
      let shared = (counts[id] ?? 0) > 1
      result[output.id] = shared ? DisplayID(rawValue: id.rawValue + "@" + output.name) : id
    }
    return result
  }
}
