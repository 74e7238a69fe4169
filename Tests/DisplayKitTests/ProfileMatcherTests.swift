import DisplayKit
import DisplayModel
import DisplaySupport
import DisplayX11
import Testing
import XRig

/// Topologies and configs for the profile tests.
enum ProfileFixtures {
  static func edid(_ file: String) -> [UInt8] {
    (try? readFile(fixtureFolder + "/" + file).get()).map(Array.init) ?? []
  }
  static let acer = edid("acer_acr001a_34cdf6327a45.bin")  // ACR V193W, serial LBP0C0034000
  static let asus = edid("asus_aus27d1_0d64f5ca0b43.bin")  // AUS VA279, serial N6LMQS126401
  static let panel = edid("au-optronics_auo159d_3760476adef1.bin")  // AUO, no name, no serial
  static let apple = edid("apple_app9227_32caff098cb2.bin")
  static let boe = edid("boe_boe0aa8_d44a47a3a0d0.bin")

  /// Every named output connected and lit at 1080p in a row, with the EDIDs given.
  static func desk(_ names: [String], edid: [String: [UInt8]] = [:], primary: String? = nil) -> Topology {
    TopologyBuilder.topology(
      names, on: Dictionary(uniqueKeysWithValues: names.map { ($0, TopologyBuilder.m1080) }), primary: primary,
      edid: edid)
  }

  static func profiles(_ text: String) throws -> [Profile] {
    try Config.parse(Array("{profiles: [\(text)]}".utf8), file: "test.json5").profiles
  }

  static func profile(_ text: String) throws -> Profile {
    try #require(try profiles(text).first)
  }
}

@Suite struct ProfileMatcherTests {
  typealias F = ProfileFixtures
  let office = F.desk(["eDP-1", "DP-1", "HDMI-1"], edid: ["eDP-1": F.panel, "DP-1": F.asus, "HDMI-1": F.acer])

  func names(_ p: Profile, _ t: Topology, lid: LidState = .open) -> [String]? {
    guard case .success(let a) = ProfileMatcher.match(p, snapshot: HeadSnapshot(topology: t), lid: lid) else {
      return nil
    }
    return a.heads
  }

  func reason(_ p: Profile, _ t: Topology, lid: LidState = .open) -> String? {
    guard case .failure(let why) = ProfileMatcher.match(p, snapshot: HeadSnapshot(topology: t), lid: lid) else {
      return nil
    }
    return why.description
  }

  @Test func aProfileMatchesWhenEveryEntryTakesItsOwnOutputAndNoneIsLeftOver() throws {
    let p = try F.profile(
      """
      {name: 'desk', outputs: [{match: {output: 'eDP-*'}}, {match: {manufacturer: 'AUS', product_name: 'VA279'}},
        {match: {manufacturer: 'ACR', serial: 'LBP0C0034000'}}]}
      """)
    #expect(names(p, office) == ["eDP-1", "DP-1", "HDMI-1"])
  }

  @Test func anOutputNoEntryMatchesIsLeftOver() throws {
    let p = try F.profile("{name: 'two', outputs: [{match: {output: 'eDP-1'}}, {match: {manufacturer: 'AUS'}}]}")
    #expect(reason(p, office) == "HDMI-1 is left over")
  }

  @Test func anEntryNothingMatchesSaysWhichAndWhatItWanted() throws {
    let p = try F.profile(
      "{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {manufacturer: 'DEL', serial: '7MT0186F0X1L'}}]}")
    #expect(reason(p, office) == "no connected output matches entry 2 (manufacturer DEL, serial 7MT0186F0X1L)")
  }

  @Test func theLidConditionMustHold() throws {
    let p = try F.profile("{name: 'p', lid: 'open', outputs: [{match: {}}, {match: {}}, {match: {}}]}")
    #expect(reason(p, office, lid: .closed) == "lid is closed")
    #expect(names(p, office, lid: .open) != nil)
    let any = try F.profile("{name: 'p', outputs: [{match: {}}, {match: {}}, {match: {}}]}")
    #expect(names(any, office, lid: .closed) != nil, "lid: any is the default")
  }

  @Test func exactEntriesAreMatchedBeforeWildcardsWhateverTheirOrder() throws {
    // The catch-all comes first in the config, but the exact entries take their monitors first.
    let p = try F.profile(
      """
      {name: 'p', outputs: [{match: {output: '*'}, alias: 'rest'}, {match: {output: 'HDMI-1'}},
        {match: {manufacturer: 'AUS'}}]}
      """)
    #expect(names(p, office) == ["eDP-1", "HDMI-1", "DP-1"])
  }

  @Test func wildcardEntriesTakeOutputsInConnectorNameOrder() throws {
    let p = try F.profile("{name: 'p', outputs: [{match: {}}, {match: {output: '*'}}, {match: {}}]}")
    #expect(names(p, office) == ["DP-1", "HDMI-1", "eDP-1"], "byte order: upper case before lower")
  }

  @Test func aChoiceThatWouldStarveALaterEntryIsUndone() throws {
    // The first wildcard could take DP-1 (first by name), but then the DP-only entry gets none.
    let p = try F.profile(
      "{name: 'p', outputs: [{match: {output: '*-1'}}, {match: {output: 'DP-*'}}, {match: {output: 'e*'}}]}")
    #expect(names(p, office) == ["HDMI-1", "DP-1", "eDP-1"])
  }

  @Test func twoIdenticalMonitorsAreToldApartByConnector() throws {
    let twins = F.desk(["DP-2", "DP-1"], edid: ["DP-1": F.asus, "DP-2": F.asus])
    let p = try F.profile(
      "{name: 'p', outputs: [{match: {manufacturer: 'AUS'}, alias: 'a'}, {match: {manufacturer: 'AUS'}, alias: 'b'}]}")
    #expect(names(p, twins) == ["DP-1", "DP-2"], "same identity: name order")
    let pinned = try F.profile(
      "{name: 'p', outputs: [{match: {manufacturer: 'AUS'}}, {match: {manufacturer: 'AUS', output: 'DP-1'}}]}")
    #expect(names(pinned, twins) == ["DP-2", "DP-1"], "an entry naming the connector gets it")
    for _ in 0..<20 { #expect(names(p, twins) == ["DP-1", "DP-2"], "the same every time") }
  }

  @Test func entriesThatCannotEachHaveTheirOwnOutputDoNotMatch() throws {
    let p = try F.profile(
      "{name: 'p', outputs: [{match: {output: 'DP-1'}}, {match: {manufacturer: 'AUS'}}, {match: {output: '*'}}]}")
    #expect(reason(p, office)?.contains("cannot each take their own output") == true)
    let four = try F.profile("{name: 'p', outputs: [{match: {}}, {match: {}}, {match: {}}, {match: {}}]}")
    #expect(reason(four, office)?.contains("the 4 entries") == true)
  }

  @Test func nonDesktopOutputsAndDisconnectedOnesAreNotPartOfTheDesk() throws {
    var t = office
    t.outputs[2].nonDesktop = true
    t.outputs.append(Output(id: OutputID(rawValue: 999), name: "DP-9", connection: .disconnected))
    let p = try F.profile("{name: 'p', outputs: [{match: {output: 'eDP-1'}}, {match: {output: 'DP-1'}}]}")
    #expect(names(p, t) == ["eDP-1", "DP-1"])
  }

  @Test func theFirstMatchingProfileIsChosen() throws {
    let ps = try F.profiles(
      """
      {name: 'closed', lid: 'closed', outputs: [{match: {}}, {match: {}}, {match: {}}]},
      {name: 'two', outputs: [{match: {}}, {match: {}}]},
      {name: 'office', outputs: [{match: {output: 'eDP-1'}}, {match: {}}, {match: {}}]},
      {name: 'later', outputs: [{match: {}}, {match: {}}, {match: {}}]}
      """)
    #expect(ProfileMatcher.choose(ps, snapshot: HeadSnapshot(topology: office), lid: .open)?.profile.name == "office")
    #expect(ProfileMatcher.choose(ps, snapshot: HeadSnapshot(topology: office), lid: .closed)?.profile.name == "closed")
    #expect(ProfileMatcher.choose(ps, snapshot: HeadSnapshot(topology: F.desk(["A", "B", "C", "D"])), lid: .open) == nil)
  }

  @Test func manyLookAlikeEntriesAreMatchedQuickly() throws {
    // 16 outputs; 15 entries take any, the last only DP-16, which the 8th would take first
    // (DP-1, DP-10 ... DP-16 in name order): a naive search would undo choices for ages.
    let t = F.desk((1...16).map { "DP-\($0)" })
    var p = Profile(name: "wall")
    for _ in 1...15 { p.outputs.append(ProfileOutput()) }
    var last = ProfileOutput()
    last.match.output = "DP-1[6]"
    p.outputs.append(last)
    let start = now()
    #expect(names(p, t)?.last == "DP-16")
    #expect(names(p, t)?[7] == "DP-2")
    p.outputs[0] = last
    #expect(reason(p, t)?.contains("cannot each take") == true, "two entries want only DP-16")
    #expect(now() - start < 1)
  }
}
