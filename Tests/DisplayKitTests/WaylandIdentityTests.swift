import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayService
import DisplayX11
import Foundation
import Testing
import XRig

@testable import DisplayWayland

/// A head's make, model and serial as the identity a profile's EDID keys match on Wayland
/// (wlroots gives no EDID bytes), with values: the make's PNP id from hwdata's `pnp.ids` (the
/// system's file, read at run time), libdisplay-info's `0x` forms for a product code and a
/// serial number, `profile save` writing keys that match again, and an imported kanshi
/// description matching the head it names.
@Suite struct WaylandIdentityTests {
  static let vendors = PNPVendors(pnpIDs: "DEL\tDell Inc.\nDLL\tDell Inc\nSAM\tSamsung Electric Company\nBOE\tBOE\n")

  static func head(_ name: String, make: String, model: String, serial: String, x: Int = 0) -> Head {
    Head(
      name: name, make: make, model: model, serial: serial, enabled: true,
      modes: [HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true)], currentMode: 0, x: x,
      capabilities: HeadCapabilities(customModes: true, anySize: true))
  }

  static let dell = head("DP-2", make: "Dell Inc.", model: "DELL U2720Q", serial: "ABC123")
  /// What wlroots makes of a panel whose EDID has no name or serial string.
  static let panel = head("eDP-1", make: "BOE", model: "0x095F", serial: "0x0001E240", x: 1920)
  /// A headless or nested compositor's output: no make, model or serial.
  static let headless = head("HEADLESS-1", make: "", model: "", serial: "")

  static func matches(_ match: String, _ head: Head) throws -> Bool {
    let config = try Config.parse(
      Array("{ profiles: [{ name: 'p', outputs: [{ match: \(match) }] }] }".utf8), file: "t")
    let profile = try #require(config.profiles.first)
    return
      (try? ProfileMatcher.match(profile, snapshot: HeadSnapshot(heads: [head]), lid: .open, vendors: vendors).get())
      != nil
  }

  @Test func aMakeStandsForItsPNPIdOrIsOneAndAnUnknownMakeForNone() {
    let v = Self.vendors
    #expect(v.ids(make: "Dell Inc.") == ["DEL"])
    #expect(v.ids(make: "  Dell Inc. ") == ["DEL"])
    // wlroots writes the id where hwdata has no name; libdisplay-info writes PNP(ID).
    #expect(v.ids(make: "XYZ") == ["XYZ"] && v.ids(make: "PNP(XYZ)") == ["XYZ"])
    #expect(v.ids(make: "The X.Org Foundation").isEmpty && v.ids(make: "").isEmpty)
    #expect(v.ids(make: "PNP(xyz)").isEmpty && v.ids(make: "Dell").isEmpty)
  }

  /// Debian 12's hwdata ships the table wlroots' names come from; the service reads it.
  @Test func theSystemsPnpIdsNamesDellAsDEL() {
    #expect(FileManager.default.fileExists(atPath: PNPVendors.systemPath))
    let table = PNPVendorTable()
    #expect(table.vendors(for: ["Dell Inc."]).ids(make: "Dell Inc.") == ["DEL"])
    #expect(table.vendors(for: ["Samsung Electric Company"]).nameByID["SAM"] == "Samsung Electric Company")
    #expect(table.vendors.ids(make: "Dell Inc.") == ["DEL"], "a make looked up stays")
  }

  /// The daemon keeps the entries of the makes its heads show, not the whole table (about
  /// 0.5 MB of heap for some 2500 companies), and reads the file once per new make: never
  /// for a make that is an id itself or empty, never again for one asked, found or not.
  @Test func theDaemonsTableHoldsOnlyTheMakesItsHeadsShowAndReadsOncePerMake() throws {
    let path = try Self.temporaryFile("pnp.ids", "DEL\tDell Inc.\nDLL\tDell Inc\nSAM\tSamsung Electric Company\n")
    let table = PNPVendorTable(path: path)
    #expect(table.vendors(for: ["", "DEL", "PNP(BOE)"]) == .none && table.reads == 0)
    let dell = table.vendors(for: ["Dell Inc.", "Dell Inc."])
    #expect(
      dell.ids(make: "Dell Inc.") == ["DEL"] && dell.idsByName.count == 1 && dell.nameByID == ["DEL": "Dell Inc."])
    #expect(table.reads == 1)
    _ = table.vendors(for: ["Dell Inc.", "Nobody Corp"])
    _ = table.vendors(for: ["Nobody Corp", "Dell Inc."])
    #expect(table.reads == 2 && table.vendors.idsByName.keys.sorted() == ["Dell Inc."])
    let both = table.vendors(for: ["Samsung Electric Company"])
    #expect(both.ids(make: "Dell Inc.") == ["DEL"] && both.ids(make: "Samsung Electric Company") == ["SAM"])
  }

  /// A compositor naming a new make at every event has the file read a bounded number of times.
  @Test func aFloodOfNewMakesReadsTheTableABoundedNumberOfTimes() throws {
    let table = PNPVendorTable(path: try Self.temporaryFile("pnp.ids", "DEL\tDell Inc.\n"))
    for i in 0..<(PNPVendorTable.maxMakes * 4) { _ = table.vendors(for: ["Make \(i)"]) }
    #expect(table.reads == PNPVendorTable.maxMakes)
  }

  /// The filtered table is the whole table's entries for those names.
  @Test func aTableForSomeNamesHasTheWholeTablesEntriesForThem() {
    let text = "DEL\tDell Inc.\nDLL\tDell Inc\n\nSAM\t Samsung Electric Company \r\nXX\tbad\n"
    let whole = PNPVendors(pnpIDs: text)
    let some = PNPVendors(pnpIDs: text, names: ["Samsung Electric Company", "Dell Inc"])
    #expect(some.idsByName == whole.idsByName.filter { ["Samsung Electric Company", "Dell Inc"].contains($0.key) })
    #expect(some.nameByID == ["SAM": "Samsung Electric Company", "DLL": "Dell Inc"])
    #expect(whole.idsByName.count == 3 && whole.merging(some) == whole)
  }

  /// A profile written on X (`manufacturer` is the EDID's three letters) matches the head.
  @Test func anXProfilesEdidKeysMatchTheHeadsMakeModelAndSerial() throws {
    #expect(try Self.matches("{ manufacturer: 'DEL', product_name: 'DELL U2720Q', serial: 'ABC123' }", Self.dell))
    #expect(try Self.matches("{ manufacturer: 'Dell*', product_name: 'DELL U27*' }", Self.dell))
    #expect(try Self.matches("{ output: 'DP-*', manufacturer: 'DEL' }", Self.dell))
    #expect(!(try Self.matches("{ manufacturer: 'SAM' }", Self.dell)))
    #expect(!(try Self.matches("{ manufacturer: 'DEL', serial: 'OTHER' }", Self.dell)))
    #expect(!(try Self.matches("{ manufacturer: 'DEL', product_code: 1 }", Self.dell)))
  }

  /// libdisplay-info's `0xHHHH` model is the product code and `0xHHHHHHHH` serial the
  /// serial number, which X matches in decimal.
  @Test func hexModelAndSerialAreTheProductCodeAndTheSerialNumber() throws {
    #expect(try Self.matches("{ manufacturer: 'BOE', product_code: 2399, serial: '123456' }", Self.panel))
    #expect(try Self.matches("{ serial: '0x0001E240' }", Self.panel))
    #expect(!(try Self.matches("{ product_name: '0x095F' }", Self.panel)))
    let panel = Self.panel
    let identity = try #require(
      HeadIdentity(make: panel.make, model: panel.model, serial: panel.serial, vendors: Self.vendors))
    #expect(identity.productCode == 0x095F && identity.productName == nil && identity.serialNumber == 123_456)
  }

  /// Only `0x` and exactly the digits (4 for a code, 8 for a serial number) are a number:
  /// a sign (`0x-0FF` is -255 to `Int(_:radix:)`) would make a product code the config
  /// refuses; such a model is a product name, such a serial a string.
  @Test(arguments: [
    ("0x095F", 0x095F), ("0x-0FF", nil), ("0x+0FF", nil), ("0x 0FF", nil), ("0x95F", nil), ("0x0095F", nil),
    ("0X095F", nil), ("0x09g5", nil),
  ])
  func aModelIsAProductCodeOnlyWithExactlyFourHexDigits(_ model: String, _ code: Int?) throws {
    let identity = try #require(HeadIdentity(make: "BOE", model: model, serial: "", vendors: Self.vendors))
    #expect(identity.productCode == code)
    #expect(identity.productName == (code == nil ? model : nil))
  }

  @Test(arguments: [
    ("0x0001E240", UInt32(123_456)), ("0xFFFFFFFF", UInt32.max), ("0x-001E240", nil), ("0x+001E240", nil),
    ("0x1E240", nil), ("0x00001E240", nil),
  ])
  func aSerialIsASerialNumberOnlyWithExactlyEightHexDigits(_ serial: String, _ number: UInt32?) throws {
    let identity = try #require(HeadIdentity(make: "BOE", model: "M", serial: serial, vendors: Self.vendors))
    #expect(identity.serialNumber == number)
    #expect(identity.savedSerial == number.map { String($0) } ?? serial)
  }

  /// Headless heads say nothing: identity keys match nothing, `output` globs still match.
  @Test func aHeadWithoutMakeModelOrSerialMatchesOnlyByConnector() throws {
    #expect(!(try Self.matches("{ manufacturer: '*' }", Self.headless)))
    #expect(try Self.matches("{ output: 'HEADLESS-*' }", Self.headless))
  }

  /// `profile save` on Wayland writes the EDID keys the head's strings stand for (the PNP
  /// id, the serial number in decimal), and that profile matches the same heads again.
  @Test func aProfileSavedFromHeadsWritesKeysThatMatchThemAgain() throws {
    let heads = HeadSnapshot(heads: [Self.dell, Self.panel])
    let text = ProfileSave.text(name: "desk", snapshot: heads, vendors: Self.vendors)
    #expect(
      text.contains(#"{ match: { manufacturer: "DEL", product_name: "DELL U2720Q", serial: "ABC123" }"#), "\(text)")
    #expect(text.contains(#"{ match: { manufacturer: "BOE", product_code: 2399, serial: "123456" }"#), "\(text)")
    #expect(try changesNothingOverHeads(text, on: heads, vendors: Self.vendors))
  }

  /// Two monitors alike: the connector tells them apart; a make pnp.ids lacks is saved as is.
  @Test func identicalHeadsAreSavedWithTheirConnectorAndAnUnknownMakeAsWritten() throws {
    let a = Self.head("X11-1", make: "The X.Org Foundation", model: "11.0", serial: "")
    let b = Self.head("X11-2", make: "The X.Org Foundation", model: "11.0", serial: "", x: 1920)
    let heads = HeadSnapshot(heads: [a, b])
    let text = ProfileSave.text(name: "two", snapshot: heads, vendors: Self.vendors)
    #expect(
      text.contains(#"{ match: { output: "X11-1", manufacturer: "The X.Org Foundation", product_name: "11.0" }"#),
      "\(text)")
    #expect(try changesNothingOverHeads(text, on: heads, vendors: Self.vendors))
  }

  /// kanshi names an output `Make Model Serial`; the import splits it by pnp.ids' names, and
  /// the profile it writes matches the head that description came from.
  @Test func anImportedKanshiDescriptionMatchesTheHeadItNames() throws {
    let kanshi = """
      profile desk {
        output "Dell Inc. DELL U2720Q ABC123" position 0,0
        output "BOE 0x095F 0x0001E240" position 1920,0
      }
      """
    let vendors = KanshiImport.vendors(pnpIDs: "DEL\tDell Inc.\nBOE\tBOE\n")
    let imported = KanshiImport.read(kanshi, file: "kanshi", vendors: vendors)
    #expect(imported.broken.isEmpty, "\(imported.broken)")
    let profile = try #require(imported.profiles.first)
    let config = try Config.parse(Array("{ profiles: [\(profile.text)] }".utf8), file: "imported")
    let heads = HeadSnapshot(heads: [Self.dell, Self.panel])
    let assignment = try ProfileMatcher.match(
      try #require(config.profiles.first), snapshot: heads, lid: .open, vendors: Self.vendors
    ).get()
    #expect(assignment.heads == ["DP-2", "eDP-1"])
  }

  /// A make pnp.ids lacks and no serial: where the make ends is not known, so its first
  /// word and the model's last one (or its product code) are matched.
  @Test func anImportedDescriptionWithAnUnknownMakeAndNoSerialMatchesByItsFirstWordAndTheModel() throws {
    let kanshi = """
      profile x {
        output "The X.Org Foundation 11.0 Unknown" position 0,0
        output "Acme Display Co 0x1234 Unknown" position 1920,0
      }
      """
    let imported = KanshiImport.read(kanshi, file: "kanshi", vendors: [:])
    let profile = try #require(imported.profiles.first, "\(imported.broken)")
    #expect(profile.text.contains(#"{ manufacturer: "The*", product_name: "*11.0" }"#), "\(profile.text)")
    #expect(profile.text.contains(#"{ manufacturer: "Acme*", product_code: 4660 }"#), "\(profile.text)")
    let config = try Config.parse(Array("{ profiles: [\(profile.text)] }".utf8), file: "imported")
    let xorg = Self.head("X11-1", make: "The X.Org Foundation", model: "11.0", serial: "")
    let acme = Self.head("DP-1", make: "Acme Display Co", model: "0x1234", serial: "", x: 1920)
    let heads = HeadSnapshot(heads: [xorg, acme])
    let assignment = try ProfileMatcher.match(
      try #require(config.profiles.first), snapshot: heads, lid: .open, vendors: Self.vendors
    ).get()
    #expect(assignment.heads == ["X11-1", "DP-1"])
  }

  static func temporaryFile(_ name: String, _ text: String) throws -> String {
    let path = try makeTempDirectory("displayd-pnp") + "/" + name
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A company with two ids in pnp.ids: either matches, and save writes the make itself.
  @Test func aMakeWithSeveralIdsMatchesEachAndIsSavedAsWritten() throws {
    let vendors = PNPVendors(pnpIDs: "AAA\tTwin Corp\nBBB\tTwin Corp\n")
    #expect(vendors.ids(make: "Twin Corp") == ["AAA", "BBB"])
    let identity = try #require(HeadIdentity(make: "Twin Corp", model: "M", serial: "", vendors: vendors))
    #expect(identity.savedManufacturer == "Twin Corp")
    var m = MonitorMatch()
    m.manufacturer = "BBB"
    #expect(identity.matches(m))
  }

  /// Strings from the compositor are cut, so a glob never runs over a flood.
  @Test func anOverlongMakeIsCut() {
    let identity = HeadIdentity(
      make: String(repeating: "a", count: 5000), model: "m", serial: "", vendors: .none)
    #expect(identity?.make.count == 256)
  }
}
