import DisplayModel
import Testing

/// Which head is main, which is the panel, and what each external head's surface shows:
/// pure, from a snapshot of heads and the config.
@Suite struct WindowWantedTests {
  static let full = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true)
  static let small = HeadMode(width: 1280, height: 1024, refreshMilliHz: 75020)

  /// A connected head, lit at `x`,0 in `mode` unless `lit` is false.
  static func head(
    _ name: String, x: Int = 0, mode: HeadMode = full, lit: Bool = true, transform: Transform = .normal,
    scale: Double = 1, edid: [UInt8]? = nil
  ) -> Head {
    Head(
      name: name, edid: edid, enabled: lit, modes: [mode], currentMode: lit ? 0 : nil, x: x, transform: transform,
      scale: scale, isInternalPanel: name.hasPrefix("eDP"))
  }

  /// eDP-1, HDMI-1 and DP-1 lit in a row.
  static let row = HeadSnapshot(heads: [
    head("eDP-1"), head("HDMI-1", x: 1920, mode: small), head("DP-1", x: 3200),
  ])

  static func config(_ text: String) throws -> Config {
    try Config.parse(Array(text.utf8), file: "test.json5")
  }

  @Test func mainIsTheBuiltInPanelUnlessMainNamesAnotherLitHead() throws {
    #expect(Config().mainOutput(in: Self.row)?.name == "eDP-1")
    #expect(try Self.config("{main: 'DP-1'}").mainOutput(in: Self.row)?.name == "DP-1")
    var snapshot = Self.row
    snapshot.primary = "HDMI-1"
    #expect(Config().mainOutput(in: snapshot)?.name == "HDMI-1", "the primary comes before the panel")
  }

  @Test func aHeadARuleMakesPrimaryIsArrangedAndThePanelStaysMain() throws {
    var snapshot = Self.row
    snapshot.primary = "HDMI-1"
    let config = try Self.config("{monitors: [{match: {output: 'HDMI-1'}, primary: true}]}")
    #expect(config.mainOutput(in: snapshot)?.name == "eDP-1")
  }

  @Test func aDarkMainGivesWayToTheFirstLitHead() throws {
    let snapshot = HeadSnapshot(heads: [Self.head("eDP-1", lit: false), Self.head("HDMI-1", x: 0)])
    #expect(try Self.config("{main: 'eDP-1'}").mainOutput(in: snapshot)?.name == "HDMI-1")
  }

  @Test func aRuleMatchesAHeadWithoutAnEDIDByTheMakeAndModelItSays() throws {
    var head = Self.head("HDMI-1")
    (head.make, head.model) = ("ACR", "V193W")
    let config = try Self.config("{monitors: [{match: {manufacturer: 'ACR', product_name: 'V193W'}, level: 'above'}]}")
    #expect(config.settings(for: head)?.level == .above)
    head.model = "other"
    #expect(config.settings(for: head)?.level == .normal)
  }

  @Test func thePanelIsTheConnectedHeadPanelNamesElseTheFirstBuiltInPanel() throws {
    #expect(LidPolicy.panel(in: Self.row, config: Config())?.name == "eDP-1")
    #expect(LidPolicy.panel(in: Self.row, config: try Self.config("{panel: 'DP-1'}"))?.name == "DP-1")
    var snapshot = Self.row
    snapshot.heads[2].connected = false
    #expect(LidPolicy.panel(in: snapshot, config: try Self.config("{panel: 'DP-1'}")) == nil)
  }

  @Test func withThePanelTurningOffMainIsThePrimaryElseTheProfilesFirstLitEntry() throws {
    var snapshot = Self.row
    #expect(LidPolicy.main(snapshot: snapshot, config: Config())?.name == "eDP-1")
    #expect(LidPolicy.main(snapshot: snapshot, config: Config(), without: "eDP-1")?.name == "HDMI-1")
    let profile = try ProfileFixtures.profile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'HDMI-1'}, enabled: false}, {match: {output: 'DP-1'}}]}"
    )
    let assignment = ProfileAssignment(heads: ["eDP-1", "HDMI-1", "DP-1"])
    let followed = LidPolicy.main(
      snapshot: snapshot, config: Config(), profile: profile, assignment: assignment, without: "eDP-1")
    #expect(followed?.name == "DP-1", "an entry the profile turns off is skipped")
    snapshot.primary = "DP-1"
    #expect(LidPolicy.main(snapshot: snapshot, config: Config(), without: "eDP-1")?.name == "DP-1")
  }

  @Test func theLayoutsMainIsThePanelEvenWhenDarkButNeverANonDesktopHead() throws {
    var snapshot = HeadSnapshot(heads: [Self.head("HDMI-1"), Self.head("eDP-1", lit: false)], primary: "HDMI-1")
    #expect(BuiltinLayouts.main(in: snapshot, config: Config())?.name == "eDP-1")
    snapshot.heads[1].nonDesktop = true
    #expect(BuiltinLayouts.main(in: snapshot, config: Config())?.name == "HDMI-1")
    #expect(BuiltinLayouts.main(in: HeadSnapshot(heads: []), config: Config()) == nil)
  }

  @Test func aHeadShowingHalfItsModesAreaHasTwoPixelsPerUnitTurnedOrNot() {
    #expect(PlaceholderContent.density(of: Self.head("DP-1", scale: 0.5)) == 2)
    #expect(PlaceholderContent.density(of: Self.head("DP-1", transform: .rotated90, scale: 0.5)) == 2)
    #expect(PlaceholderContent.density(of: Self.head("DP-1")) == 1)
    #expect(PlaceholderContent.density(of: Self.head("DP-1", lit: false)) == 1)
  }

  @Test func everyLitExternalHeadGetsASurfaceAtItsAreaAndMainNone() {
    let wanted = Config().wantedWindows(in: Self.row)
    #expect(wanted.map(\.head) == ["HDMI-1", "DP-1"])
    #expect(
      wanted.map(\.rect) == [
        Rect(x: 1920, y: 0, width: 1280, height: 1024), Rect(x: 3200, y: 0, width: 1920, height: 1080),
      ])
    #expect(wanted.map(\.refreshHz) == [75.02, 60])
    #expect(wanted.allSatisfy { $0.content == .placeholder && $0.mirror == nil && $0.refusal == nil })
  }

  @Test func theDetailsLineNamesTheHeadTheMonitorItsEDIDNamesAndTheMode() throws {
    var snapshot = Self.row
    snapshot.heads[1].edid = ProfileFixtures.asus
    let wanted = Config().wantedWindows(in: snapshot)
    #expect(wanted.map(\.picture.details) == ["HDMI-1  ·  VA279  ·  1280x1024@75.02", "DP-1  ·  1920x1080@60.00"])
    #expect(HeadMode(width: 1920, height: 1080, refreshMilliHz: 50000, interlaced: true).label == "1920x1080@50.00i")
    let quiet = try Self.config("{placeholder: {details: false}}").wantedWindows(in: snapshot)
    #expect(quiet.allSatisfy { $0.picture.details == nil })
  }

  @Test func noSurfaceForContentNoneAnIgnoredHeadADarkOneOrANonDesktopOne() throws {
    var snapshot = Self.row
    snapshot.heads.append(Self.head("DP-2", x: 5120, lit: false))
    var headset = Self.head("DP-3", x: 7040)
    headset.nonDesktop = true
    snapshot.heads.append(headset)
    let config = try Self.config(
      "{monitors: [{match: {output: 'HDMI-1'}, content: 'none'}, {match: {output: 'DP-1'}, ignore: true}]}")
    #expect(config.wantedWindows(in: snapshot).isEmpty)
  }

  /// The defaults' `none` leaves no surface unless a rule gives its head content.
  @Test func withContentNoneByDefaultOnlyTheHeadsARuleGivesContentGetASurface() throws {
    #expect(try Self.config("{defaults: {content: 'none'}}").wantedWindows(in: Self.row).isEmpty)
    let config = try Self.config(
      "{defaults: {content: 'none'}, monitors: [{match: {output: 'DP-1'}, content: 'placeholder'},"
        + " {match: {output: 'HDMI-1'}, content: 'none'}]}")
    #expect(config.wantedWindows(in: Self.row).map(\.head) == ["DP-1"])
    #expect(config.wantedWindows(in: Self.row, main: config.mainOutput(in: Self.row)).map(\.head) == ["DP-1"])
  }

  @Test func aMirrorOfMainShowsMainsAreaAndNamesItsSource() throws {
    let config = try Self.config(
      "{monitors: [{match: {output: 'HDMI-1'}, content: 'mirror', mirror: {source: 'main'}}]}")
    let hdmi = try #require(config.wantedWindows(in: Self.row).first)
    #expect(hdmi.content == .mirror && hdmi.mirrorSource == "eDP-1")
    #expect(hdmi.mirror?.source == Rect(x: 0, y: 0, width: 1920, height: 1080))
  }

  @Test func aMirrorOfADarkOrMissingHeadShowsThePlaceholder() throws {
    var snapshot = Self.row
    snapshot.heads[2].enabled = false
    for source in ["DP-1", "VGA-9"] {
      let config = try Self.config(
        "{monitors: [{match: {output: 'HDMI-1'}, content: 'mirror', mirror: {source: '\(source)'}}]}")
      let hdmi = try #require(config.wantedWindows(in: snapshot).first)
      #expect(hdmi.content == .placeholder && hdmi.mirror == nil && hdmi.mirrorSource == nil, "\(source)")
    }
  }

  @Test func twoHeadsMirroringEachOtherAreBothRefusedWithTheRingOnTheirSurfaces() throws {
    let config = try Self.config(
      "{monitors: [{match: {output: 'HDMI-1'}, content: 'mirror', mirror: {source: 'DP-1'}},"
        + " {match: {output: 'DP-1'}, content: 'mirror', mirror: {source: 'HDMI-1'}}]}")
    let wanted = config.wantedWindows(in: Self.row)
    #expect(wanted.allSatisfy { $0.content == .placeholder && $0.mirror == nil && $0.mirrorSource == nil })
    #expect(
      wanted.map(\.refusal) == [
        "mirror cycle refused: HDMI-1 → DP-1 → HDMI-1", "mirror cycle refused: DP-1 → HDMI-1 → DP-1",
      ])
    #expect(wanted.map(\.picture.details) == wanted.map(\.refusal))
  }

  @Test func aMirrorOverItsOwnSourceIsRefusedButAChainIsNot() throws {
    let config = try Self.config(
      "{monitors: [{match: {output: 'HDMI-1'}, content: 'mirror', mirror: {source: 'main'}},"
        + " {match: {output: 'DP-1'}, content: 'mirror', mirror: {source: 'HDMI-1'}}]}")
    #expect(config.wantedWindows(in: Self.row).allSatisfy { $0.content == .mirror })
    var overlapping = Self.row
    overlapping.heads[1].x = 100
    let hdmi = try #require(config.wantedWindows(in: overlapping).first)
    #expect(hdmi.refusal == "mirror of eDP-1 refused: HDMI-1 overlaps its source")
  }
}
