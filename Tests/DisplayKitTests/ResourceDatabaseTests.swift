import DisplayModel
import Testing

/// `Xft.dpi` merged into the root window's resource database as `xrdb -merge` merges one
/// entry: in place, every other byte kept.
@Suite struct ResourceDatabaseTests {
  func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }
  func text(_ b: [UInt8]) -> String { String(decoding: b, as: UTF8.self) }
  let dpi144 = ResourceDatabase.entry("Xft.dpi", "144")

  @Test func anEntryIsNameColonTabValue() {
    #expect(text(dpi144) == "Xft.dpi:\t144")
  }

  @Test func aMissingEntryIsAppendedAndEverythingElseKept() {
    let db = "Xft.antialias:\t1\n*background:\t#202020\nURxvt.font:\txft:DejaVu Sans Mono:size=10\n"
    let merged = ResourceDatabase.setting("Xft.dpi", to: dpi144, in: bytes(db))
    #expect(text(merged) == db + "Xft.dpi:\t144\n")
  }

  @Test func anExistingEntryIsReplacedWhereItIs() {
    let db = "Xft.antialias:\t1\nXft.dpi:\t96\nXft.hinting:\t1\n"
    let merged = ResourceDatabase.setting("Xft.dpi", to: dpi144, in: bytes(db))
    #expect(text(merged) == "Xft.antialias:\t1\nXft.dpi:\t144\nXft.hinting:\t1\n")
    #expect(ResourceDatabase.entry(of: "Xft.dpi", in: bytes(db)).map(text) == "Xft.dpi:\t96")
  }

  @Test func spacesAroundTheNameStillNameIt() {
    let db = "  Xft.dpi : 120\nXft.rgba:\trgb\n"
    #expect(ResourceDatabase.entry(of: "Xft.dpi", in: bytes(db)).map(text) == "  Xft.dpi : 120")
    #expect(text(ResourceDatabase.setting("Xft.dpi", to: dpi144, in: bytes(db))) == "Xft.dpi:\t144\nXft.rgba:\trgb\n")
  }

  @Test func similarNamesAndCommentsAreOtherEntries() {
    let db = "! Xft.dpi: 72\nXft.dpiScale:\t2\nXft*dpi:\t80\nfoo.Xft.dpi:\t90\n"
    #expect(ResourceDatabase.entry(of: "Xft.dpi", in: bytes(db)) == nil)
    #expect(text(ResourceDatabase.setting("Xft.dpi", to: dpi144, in: bytes(db))) == db + "Xft.dpi:\t144\n")
    #expect(ResourceDatabase.setting("Xft.dpi", to: nil, in: bytes(db)) == bytes(db), "nothing to remove")
  }

  @Test func aContinuedValueIsOneEntryAndItsNextLineIsNotAName() {
    // The second line of this value looks like an Xft.dpi entry but belongs to the first.
    let db = "XTerm*translations:\t#override \\n\\\nXft.dpi: 1\\n\\\n\tShift <Key>Up: scroll-back(1)\nXft.rgba:\trgb\n"
    #expect(ResourceDatabase.entry(of: "Xft.dpi", in: bytes(db)) == nil)
    #expect(text(ResourceDatabase.setting("Xft.dpi", to: dpi144, in: bytes(db))) == db + "Xft.dpi:\t144\n")
    // An escaped backslash at the end of a line does not continue it.
    let escaped = "a.b:\tends in \\\\\nXft.dpi:\t96\n"
    #expect(ResourceDatabase.entry(of: "Xft.dpi", in: bytes(escaped)).map(text) == "Xft.dpi:\t96")
  }

  @Test func removingTakesTheEntryAndItsNewlineOnly() {
    let db = "a:\t1\nXft.dpi:\t144\nb:\t2\n"
    #expect(text(ResourceDatabase.setting("Xft.dpi", to: nil, in: bytes(db))) == "a:\t1\nb:\t2\n")
    #expect(ResourceDatabase.setting("Xft.dpi", to: nil, in: bytes("Xft.dpi:\t144\n")).isEmpty)
  }

  @Test func duplicatesBecomeOneEntryWhereTheFirstWas() {
    let db = "Xft.dpi:\t96\na:\t1\nXft.dpi:\t110\n"
    #expect(ResourceDatabase.entry(of: "Xft.dpi", in: bytes(db)).map(text) == "Xft.dpi:\t110", "Xrm keeps the last")
    #expect(text(ResourceDatabase.setting("Xft.dpi", to: dpi144, in: bytes(db))) == "Xft.dpi:\t144\na:\t1\n")
  }

  @Test func aDatabaseWithoutAFinalNewlineOrEmpty() {
    #expect(text(ResourceDatabase.setting("Xft.dpi", to: dpi144, in: bytes("a:\t1"))) == "a:\t1\nXft.dpi:\t144\n")
    #expect(text(ResourceDatabase.setting("Xft.dpi", to: dpi144, in: [])) == "Xft.dpi:\t144\n")
    #expect(text(ResourceDatabase.setting("Xft.dpi", to: dpi144, in: bytes("Xft.dpi:\t96"))) == "Xft.dpi:\t144")
  }

  @Test func replacingAndRestoringGivesBackTheSameBytes() {
    let db = bytes("Xft.antialias:\t1\nXft.dpi:  96\n*.font:\tfixed\n")
    let old = ResourceDatabase.entry(of: "Xft.dpi", in: db)
    let set = ResourceDatabase.setting("Xft.dpi", to: dpi144, in: db)
    #expect(ResourceDatabase.setting("Xft.dpi", to: old, in: set) == db)
  }

  @Test func hostileBytesDoNotTrap() {
    let db: [UInt8] = [0xFF, 0x00, 0x3A, 0x5C, 0x5C, 0x5C, 0x0A, 0x5C]
    let merged = ResourceDatabase.setting("Xft.dpi", to: dpi144, in: db)
    #expect(merged.starts(with: db))
  }

  @Test func theValueIsWholeDotsPerInchInRange() {
    #expect(ResourceDatabase.value(dpi: 144) == "144")
    #expect(ResourceDatabase.value(dpi: 141.7) == "142")
    #expect(ResourceDatabase.value(dpi: 1e300) == "9999")
    #expect(ResourceDatabase.value(dpi: .nan) == "96")
  }
}
