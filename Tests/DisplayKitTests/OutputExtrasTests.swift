import DisplayKit
import DisplayModel
import DisplayRender
import DisplaySupport
import DisplayX11
import Foundation
import Testing

/// The pure parts of output properties and touch mapping: the config keys, which properties
/// are written and which warned about, and the matrices.
@Suite struct OutputExtrasTests {
  func parse(_ text: String) throws(ConfigError) -> Config { try Config.parse(Array(text.utf8), file: "test.json5") }

  @Test func rulesAndProfileEntriesTakePropertiesAndTouch() throws {
    let config = try parse(
      """
      { monitors: [ { match: { output: 'eDP-1' }, properties: { 'Broadcast RGB': 'Full', 'max bpc': 8 },
                      touch: ['ELAN*', 'Wacom*'] } ],
        profiles: [ { name: 'desk', outputs: [ { match: { output: 'HDMI-1' }, properties: { underscan: 'off' },
                      touch: ['Pen*'] } ] } ] }
      """)
    #expect(config.monitors[0].extras.properties == ["Broadcast RGB": .text("Full"), "max bpc": .integer(8)])
    #expect(config.monitors[0].extras.touch == ["ELAN*", "Wacom*"])
    #expect(config.profiles[0].outputs[0].extras.properties == ["underscan": .text("off")])
    #expect(config.profiles[0].outputs[0].extras.touch == ["Pen*"])
    #expect(config.usesTouch)
  }

  /// A bad value is a config error naming the key, never a value passed on to the server.
  @Test(arguments: [
    ("{ monitors: [{ match: { output: 'x' }, properties: { 'max bpc': 8.5 } }] }", "monitors[0].properties.max bpc"),
    ("{ monitors: [{ match: { output: 'x' }, properties: { 'max bpc': 1e30 } }] }", "monitors[0].properties.max bpc"),
    ("{ monitors: [{ match: { output: 'x' }, properties: { 'a': true } }] }", "monitors[0].properties.a"),
    ("{ monitors: [{ match: { output: 'x' }, properties: 'Full' }] }", "monitors[0].properties"),
    ("{ monitors: [{ match: { output: 'x' }, touch: 'ELAN*' }] }", "monitors[0].touch"),
    ("{ monitors: [{ match: { output: 'x' }, touch: [''] }] }", "monitors[0].touch"),
    ("{ profiles: [{ name: 'p', outputs: [{ match: {}, touch: [3] }] }] }", "profiles[0].outputs[0].touch"),
  ])
  func badPropertiesAndTouchAreErrorsNamingTheKey(_ text: String, _ key: String) {
    #expect {
      _ = try parse(text)
    } throws: { error in
      "\(error)".contains("test.json5") && "\(error)".contains(key)
    }
  }

  static let rgb = OutputProperty(
    name: "Broadcast RGB", type: .atom, format: 32, value: [.text("Automatic")],
    allowed: [.text("Automatic"), .text("Full"), .text("Limited 16:235")])
  static let bpc = OutputProperty(
    name: "max bpc", type: .integer, format: 32, value: [.integer(12)], range: true,
    allowed: [.integer(6), .integer(16)])

  @Test func onlyPropertiesThatTakeTheValueAndDoNotHoldItAreWritten() {
    let have = ["Broadcast RGB": Self.rgb, "max bpc": Self.bpc]
    let (writes, warnings) = PropertyCheck.writes(
      output: "HDMI-1",
      wanted: ["Broadcast RGB": .text("Full"), "max bpc": .integer(12), "underscan": .text("off")], have: have)
    #expect(writes.map(\.name) == ["Broadcast RGB"], "max bpc holds already")
    #expect(writes.first?.value == .text("Full") && writes.first?.type == .atom)
    #expect(
      warnings.map(\.description) == ["HDMI-1: property 'underscan' 'off': the output has no such property; not set"])
    #expect(warnings == [.missing(output: "HDMI-1", property: "underscan", value: .text("off"))])
  }

  @Test func aValueOutsideTheEnumOrRangeOrOfTheWrongTypeIsAWarningSayingWhatIsAllowed() {
    let have = ["Broadcast RGB": Self.rgb, "max bpc": Self.bpc]
    let (writes, warnings) = PropertyCheck.writes(
      output: "DP-2", wanted: ["Broadcast RGB": .text("Limited"), "max bpc": .integer(17)], have: have)
    #expect(writes.isEmpty)
    #expect(
      warnings.map(\.description) == [
        "DP-2: property 'Broadcast RGB' 'Limited' is not allowed (expected one of Automatic, Full, Limited 16:235); left at 'Automatic'",
        "DP-2: property 'max bpc' 17 is not allowed (expected an integer 6...16); left at 12",
      ])
    let typed = PropertyCheck.writes(output: "DP-2", wanted: ["max bpc": .text("8")], have: have)
    #expect(typed.writes.isEmpty && typed.warnings.first?.description.contains("expected an integer 6...16") == true)
    var fixed = Self.bpc
    fixed.immutable = true
    let immutable = PropertyCheck.writes(output: "DP-2", wanted: ["max bpc": .integer(8)], have: ["max bpc": fixed])
    #expect(immutable.writes.isEmpty && immutable.warnings.first?.description.contains("immutable") == true)
  }

  @Test func profileSaveKeepsOnlyPropertiesTheUserCanChange() {
    var edid = OutputProperty(name: "EDID", type: .integer, format: 8, value: [.integer(0)], range: true, allowed: [])
    #expect(!edid.isSaved)
    edid.allowed = [.integer(0), .integer(255)]
    #expect(!edid.isSaved, "never the EDID")
    var fixed = Self.bpc
    fixed.immutable = true
    #expect(!fixed.isSaved)
    let free = OutputProperty(name: "CONNECTOR_ID", type: .integer, format: 32, value: [.integer(71)])
    #expect(!free.isSaved, "neither enum nor range")
    #expect(Self.rgb.isSaved && Self.bpc.isSaved)
  }

  static func close(_ a: [Double], _ b: [Double]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }
  }

  /// The matrices of one output covering the whole screen: the quarter turns as the
  /// XInput documentation gives them.
  @Test func aWholeScreenOutputGetsTheRotationAlone() {
    let rect = Rect(x: 0, y: 0, width: 1024, height: 768)
    let m = { (r: Rotation) in
      TouchMatrix.matrix(rect: rect, transform: r.transform, spelling: r.spelling, screenWidth: 1024, screenHeight: 768)
    }
    #expect(Self.close(m(.normal), [1, 0, 0, 0, 1, 0, 0, 0, 1]))
    #expect(Self.close(m(.left), [0, -1, 1, 1, 0, 0, 0, 0, 1]))
    #expect(Self.close(m(.inverted), [-1, 0, 1, 0, -1, 1, 0, 0, 1]))
    #expect(Self.close(m(.right), [0, 1, 0, -1, 0, 1, 0, 0, 1]))
    #expect(Self.close(m([.normal, .reflectX]), [-1, 0, 1, 0, 1, 0, 0, 0, 1]))
    #expect(Self.close(m([.left, .reflectX]), [0, 1, 0, 1, 0, 0, 0, 0, 1]), "mirrored after the turn")
    #expect(Self.close(m([.inverted, .reflectX, .reflectY]), m(.normal)), "both reflections undo the half turn")
  }

  @Test func anOutputRightOfMainGetsItsPartOfTheScreen() {
    let m = TouchMatrix.matrix(
      rect: Rect(x: 2048, y: 0, width: 1024, height: 768), transform: .normal, screenWidth: 3072, screenHeight: 1536)
    #expect(Self.close(m, [1.0 / 3, 0, 2.0 / 3, 0, 0.5, 0, 0, 0, 1]))
    #expect(
      TouchMatrix.matrix(
        rect: Rect(x: 0, y: 0, width: 1, height: 1), transform: .rotated90, screenWidth: 0, screenHeight: 0)
        == TouchMatrix.identity, "no screen, no division")
  }

  @Test func eachDeviceGoesOnTheFirstLitOutputItsGlobMatchesAndAGlobMatchingNothingIsReported() {
    let t = TopologyBuilder.topology(
      ["HDMI-1", "DP-1"], on: ["HDMI-1": TopologyBuilder.m1080, "DP-1": TopologyBuilder.m1024])
    var a = OutputExtras()
    a.touch = ["ELAN*", "Nothing*"]
    var b = OutputExtras()
    b.touch = ["*"]
    let devices = [InputDevice(id: 10, name: "ELAN Touchscreen"), InputDevice(id: 11, name: "Wacom Pen")]
    let heads = HeadSnapshot(topology: t)
    let wanted = [(heads.heads[0], a), (heads.heads[1], b)]
    let (mappings, unmatched) = OutputExtrasPlan.touch(wanted, devices: devices, heads: heads)
    #expect(mappings.map(\.device.id) == [10, 11])
    #expect(mappings.map(\.output) == ["HDMI-1", "DP-1"])
    #expect(unmatched == ["Nothing*"])
  }

  /// A rule naming a monitor by what it says matches the head whose EDID says it, or on a
  /// compositor the head whose make stands for that PNP id; a dark or gone head gets nothing.
  @Test func aRuleMatchingAMonitorGivesItsExtrasToThatHeadAlone() throws {
    let config = try parse("{ monitors: [ { match: { manufacturer: 'ACR' }, touch: ['ELAN*'] } ] }")
    let acer = Head(name: "DP-1", edid: ProfileFixtures.acer)
    let other = Head(name: "DP-2", edid: ProfileFixtures.asus)
    let gone = Head(name: "DP-3", edid: ProfileFixtures.acer, connected: false)
    let x = OutputExtrasPlan.wanted(HeadSnapshot(heads: [acer, other, gone]), config: config, profile: nil)
    #expect(x.map(\.head.name) == ["DP-1"])
    #expect(x.first?.extras.touch == ["ELAN*"])
    let said = HeadSnapshot(heads: [Head(name: "HDMI-A-1", make: "Acer Technologies", model: "V193W")])
    let vendors = PNPVendors(pnpIDs: "ACR\tAcer Technologies\n")
    #expect(
      OutputExtrasPlan.wanted(said, config: config, profile: nil, vendors: vendors).map(\.head.name) == ["HDMI-A-1"])
    #expect(
      OutputExtrasPlan.wanted(said, config: config, profile: nil).isEmpty, "without the PNP ids the make is no id")
  }

  /// In a profile the extras go with the heads its entries took, never to a head gone since.
  @Test func aProfilesExtrasGoToTheHeadsItsEntriesTook() throws {
    let config = try parse(
      """
      { profiles: [ { name: 'p', outputs: [ { match: { output: '*' }, touch: ['Pen*'] },
                                            { match: { output: '*' }, properties: { 'max bpc': 8 } } ] } ] }
      """)
    let heads = HeadSnapshot(heads: [Head(name: "eDP-1"), Head(name: "DP-1"), Head(name: "DP-2", connected: false)])
    let profile = try #require(config.profiles.first)
    let took = OutputExtrasPlan.wanted(
      heads, config: config, profile: (profile, ProfileAssignment(heads: ["DP-1", "eDP-1"])))
    #expect(took.map(\.head.name) == ["DP-1", "eDP-1"])
    #expect(took.map(\.extras.touch) == [["Pen*"], []])
    let gone = OutputExtrasPlan.wanted(
      heads, config: config, profile: (profile, ProfileAssignment(heads: ["DP-2", "eDP-1"])))
    #expect(gone.map(\.head.name) == ["eDP-1"])
  }

  /// A turned head right of another maps over its part of the screen: the snapshot's, else
  /// (a snapshot that has none) the lit heads' bounding box.
  @Test func aTurnedHeadMapsOverItsPartOfTheScreen() {
    let mode = HeadMode(width: 1024, height: 768, refreshMilliHz: 60000)
    let left = Head(name: "A", enabled: true, modes: [mode], currentMode: 0)
    let right = Head(name: "B", enabled: true, modes: [mode], currentMode: 0, x: 1024, transform: .rotated90)
    var extras = OutputExtras()
    extras.touch = ["*"]
    let device = InputDevice(id: 10, name: "ELAN Touchscreen")
    var heads = HeadSnapshot(heads: [left, right])
    #expect(heads.touchScreen.width == 1792 && heads.touchScreen.height == 1024)
    let bounded = OutputExtrasPlan.touch([(right, extras)], devices: [device], heads: heads).mappings
    let rect = Rect(x: 1024, y: 0, width: 768, height: 1024)
    #expect(bounded.map(\.rect) == [rect])
    let expected = TouchMatrix.matrix(rect: rect, transform: .rotated90, screenWidth: 1792, screenHeight: 1024)
    #expect(bounded.first.map { Self.close($0.matrix, expected) } == true)
    heads.screen = ScreenSize(width: 4000, height: 2000, minWidth: 0, minHeight: 0, maxWidth: 0, maxHeight: 0)
    let onScreen = OutputExtrasPlan.touch([(right, extras)], devices: [device], heads: heads).mappings
    let wide = TouchMatrix.matrix(rect: rect, transform: .rotated90, screenWidth: 4000, screenHeight: 2000)
    #expect(onScreen.first.map { Self.close($0.matrix, wide) } == true)
    let dark = OutputExtrasPlan.touch([(Head(name: "C"), extras)], devices: [device], heads: heads)
    #expect(dark.mappings.isEmpty && dark.unmatched.isEmpty, "a dark head maps nothing, the glob did match")
  }
}

/// The daemon's side of properties against the fake server: written once, left alone while
/// they hold, and each warning given once per config.
@Suite struct OutputExtrasDaemonTests {
  final class Lines { var all: [String] = [] }

  @Test func propertiesAreWrittenOnceAndAWarningIsGivenOncePerConfig() throws {
    let lines = Lines()
    let log = Logger(level: .info) { lines.all.append($0) }
    let server = FakeDisplayServer(
      TopologyBuilder.topology(["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080]))
    let panel = server.topology.outputs[0].id
    server.properties[panel] = ["Broadcast RGB": OutputExtrasTests.rgb]
    let config = try Config.parse(
      Array("{ monitors: [ { match: { output: 'eDP-1' }, properties: { 'Broadcast RGB': 'Full', bogus: 1 } } ] }".utf8),
      file: "test.json5")
    let daemon = try Daemon(
      server: server, surfaces: FakeSurfaceHost(), painter: CairoPicturePainter(), config: config, log: log)
    try daemon.start()
    #expect(server.propertyWrites == 1)
    #expect(server.properties[panel]?["Broadcast RGB"]?.value == [.text("Full")])
    server.change { $0.outputs[1].connection = .connected }
    try daemon.handleServerEvents()
    #expect(server.propertyWrites == 1, "in force: not written again")
    let warning = "eDP-1: property 'bogus' 1: the output has no such property; not set"
    #expect(lines.all.filter { $0.contains(warning) }.count == 1, "\(lines.all)")
    try daemon.reload(config)
    #expect(lines.all.filter { $0.contains(warning) }.count == 1, "the same config: still once")
    var changed = config
    changed.monitors[0].extras.properties["bogus"] = .integer(2)
    try daemon.reload(changed)
    #expect(lines.all.contains { $0.contains("eDP-1: property 'bogus' 2: the output has no such property") })
  }
}

/// The configuration page's properties and touch example loads and says what the page says.
@Suite struct OutputExtrasPageTests {
  @Test func theConfigurationPagesExampleLoads() throws {
    let page = try repositoryFile("docs/configuration.md")
    let begin = try #require(page.range(of: "<!-- properties-touch-example:begin -->\n```json5\n"))
    let end = try #require(page.range(of: "```\n<!-- properties-touch-example:end -->"))
    let config = try Config.parse(Array(page[begin.upperBound..<end.lowerBound].utf8), file: "docs/configuration.md")
    #expect(config.monitors[0].extras.touch == ["ELAN*", "Wacom*"])
    #expect(config.monitors[1].extras.properties["max bpc"] == .integer(8))
    #expect(config.monitors[1].extras.properties["Broadcast RGB"] == .text("Full"))
  }
}
