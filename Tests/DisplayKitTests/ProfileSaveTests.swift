import DisplayKit
import DisplayModel
import DisplayX11
import Foundation
import Testing

/// A saved profile read back as a config's only profile, matched on the heads it was saved
/// from and planned there: whether it changes nothing (the desk's physical size aside,
/// which heads do not say).
func changesNothingOverHeads(_ text: String, on heads: HeadSnapshot, vendors: PNPVendors = .none) throws -> Bool {
  let config = try Config.parse(Array("{profiles: [\(text)]}".utf8), file: "saved.json5")
  let profile = try #require(config.profiles.first)
  let assignment = try ProfileMatcher.match(profile, snapshot: heads, lid: .open, vendors: vendors).get()
  let plan = try ProfilePlanner(snapshot: heads, config: config).plan(profile, assignment: assignment)
  return plan.configuration.heads.isEmpty && plan.configuration.primary == nil
}

/// `profile save`: the layout as one JSON5 object, the round trip, and `--write`'s edit.
@Suite struct ProfileSaveTests {
  typealias F = ProfileFixtures
  typealias B = TopologyBuilder

  /// The saved text as a config's only profile, matched and planned on the same topology.
  func replan(_ text: String, on t: Topology) throws -> XPlan {
    try planProfile(text.replacingOccurrences(of: "\n", with: " "), on: t)
  }

  /// A desk with everything save must keep: EDID identities, a monitor without EDID, one
  /// that is off, one turned and mirrored, one scaled, two identical monitors, and a clone.
  func busyDesk(_ edids: [[UInt8]]) -> Topology {
    let names = ["eDP-1", "DP-1", "DP-2", "DP-3", "HDMI-1", "HDMI-2", "DP-4"]
    var t = F.desk(names, primary: "DP-1")
    for (i, name) in names.enumerated() where i < edids.count { t.outputs[i].edid = edids[i] }
    t.outputs[5].edid = t.outputs[4].edid  // HDMI-2: the same monitor as HDMI-1
    t.outputs[6].edid = nil
    t.crtcs[0].mode = nil  // eDP-1 off
    t.outputs[0].crtc = nil
    t.crtcs[1].x = 0
    t.crtcs[2] = Crtc(
      id: t.crtcs[2].id, x: 1920, y: 0, width: 1080, height: 1920, mode: B.m1080.id, rotation: [.left, .reflectY],
      outputs: t.crtcs[2].outputs, possibleOutputs: t.crtcs[2].possibleOutputs, rotations: [.normal, .left, .reflectY])
    (t.crtcs[3].x, t.crtcs[3].width, t.crtcs[3].height) = (3000, 2400, 1350)  // DP-3 at scale 1.25
    t.crtcs[3].mode = B.m1080.id
    // As the server holds a scaled CRTC: its transform is the scale, its area the mode's times it.
    t.crtcs[3].transform = CrtcTransform(matrix: [1.25, 0, 0, 0, 1.25, 0, 0, 0, 1])
    for i in 4...6 { t.crtcs[i].x = 5400 + 1920 * (i - 4) }
    // DP-4 shows what HDMI-2 shows, on HDMI-2's CRTC.
    t.crtcs[5].outputs.append(t.outputs[6].id)
    t.crtcs[5].possibleOutputs.append(t.outputs[6].id)
    t.outputs[6].possibleCrtcs.append(t.crtcs[5].id)
    t.outputs[6].crtc = t.crtcs[5].id
    (t.crtcs[6].mode, t.crtcs[6].outputs) = (nil, [])
    (t.screen.width, t.screen.height) = (9240, 1920)
    return t
  }

  /// What `profile save` writes of the heads the RandR backend reports of the desk.
  func saved(_ name: String, _ t: Topology) throws -> String {
    ProfileSave.text(name: name, snapshot: try t.randrHeads())
  }

  /// The saved text planned again over the heads it was saved from changes nothing.
  func expectSavedTextChangesNothingOverHeads(_ t: Topology, name: String = "desk") throws {
    let heads = try t.randrHeads()
    let text = ProfileSave.text(name: name, snapshot: heads)
    #expect(try changesNothingOverHeads(text, on: heads), "\(text)")
  }

  /// Names and atoms come from any client: a C1 CSI or DEL written raw would reach the
  /// terminal `profile save` prints to; escaped, the text is still the same JSON5 string.
  @Test func controlCharactersFromTheServerAreWrittenEscaped() {
    #expect(ProfileSave.quoted("a\u{9b}2J\u{7f}b\u{1b}") == #""a\u009b2J\u007fb\u001b""#)
  }

  @Test func theSavedTextIsOneObjectListingEveryConnectedOutput() throws {
    let t = busyDesk([F.panel, F.asus, F.acer, F.asus, F.acer])
    let text = try saved("desk", t)
    #expect(
      text == """
        {
          name: "desk",
          outputs: [
            { match: { output: "DP-1", manufacturer: "AUS", product_name: "VA279", serial: "N6LMQS126401" }, mode: "1920x1080@60.00", position: "0,0", primary: true },
            { match: { output: "DP-2", manufacturer: "ACR", product_name: "V193W", serial: "LBP0C0034000" }, mode: "1920x1080@60.00", position: "1920,0", rotate: "left", reflect: "y" },
            { match: { output: "DP-3", manufacturer: "AUS", product_name: "VA279", serial: "N6LMQS126401" }, mode: "1920x1080@60.00", position: "3000,0", scale: 1.25 },
            { match: { output: "HDMI-1", manufacturer: "ACR", product_name: "V193W", serial: "LBP0C0034000" }, mode: "1920x1080@60.00", position: "5400,0" },
            { match: { output: "DP-4" }, alias: "DP-4", mode: "1920x1080@60.00", position: "7320,0" },
            { match: { output: "HDMI-2", manufacturer: "ACR", product_name: "V193W", serial: "LBP0C0034000" }, mode: "1920x1080@60.00", position: "same-as DP-4" },
            { match: { manufacturer: "AUO", product_code: 5533 }, enabled: false },
          ],
        }
        """)
  }

  @Test func savingThenApplyingTheSavedProfileChangesNothing() throws {
    let t = busyDesk([F.panel, F.asus, F.acer, F.apple, F.boe])
    let plan = try replan(try saved("desk", t), on: t)
    #expect(changesNothing(plan), "\(plan.changes) \(plan.warnings)")
    try expectSavedTextChangesNothingOverHeads(t)
  }

  @Test(.enabled(if: sharedEDIDFolder != nil, "../shared/edid is absent"))
  func theRoundTripHoldsForEveryEDIDOfTheSharedCorpus() throws {
    let folder = try #require(sharedEDIDFolder)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".bin") }.sorted()
    #expect(files.count == 200)
    for (i, file) in files.enumerated() {
      let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)))
      let other = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + files[(i + 1) % files.count])))
      let t = busyDesk([F.panel, bytes, other, bytes, other])
      let text = try saved("edid \(file) \"quoted\"", t)
      let plan = try replan(text, on: t)
      #expect(changesNothing(plan), "\(file): \(plan.changes) \(plan.warnings)")
      try expectSavedTextChangesNothingOverHeads(t, name: "edid \(file) \"quoted\"")
    }
  }

  /// The scale is the CRTC's, as the server holds it, not the ratio of the area it shows to
  /// the mode: 1366 pixels at 1.25 show 1708 (1.25036…), and 0.7 is held as 45875/65536.
  @Test(arguments: [(1.25, 1708, 960, "1.25"), (45875.0 / 65536, 957, 538, "0.7")])
  func aScaledOutputIsSavedAtItsCrtcsScaleWithFewDecimals(_ held: Double, width: Int, height: Int, said: String)
    throws
  {
    var t = F.desk(["DP-1"])
    let m1366 = RandRHeadAreaTests.m1366
    t.modes[m1366.id] = m1366
    t.outputs[0].modes.append(m1366.id)
    t.crtcs[0].mode = m1366.id
    (t.crtcs[0].width, t.crtcs[0].height) = (width, height)
    t.crtcs[0].transform = CrtcTransform(matrix: [held, 0, 0, 0, held, 0, 0, 0, 1])
    let text = try saved("p", t)
    #expect(text.contains("scale: \(said) }"), "\(text)")
    try expectSavedTextChangesNothingOverHeads(t, name: "p")
  }

  /// Two CRTCs showing one picture (the same mode at the same place): the second output is
  /// saved as a clone of the first, and the text planned again changes nothing.
  @Test func twoCrtcsShowingOnePictureAreSavedAsAClone() throws {
    var t = F.desk(["eDP-1", "DP-1"], primary: "eDP-1")
    t.crtcs[1].x = 0
    (t.screen.width, t.screen.height) = (1920, 1080)
    let text = try saved("p", t)
    #expect(text == Self.twoCrtcsOnePicture, "\(text)")
    #expect(changesNothing(try replan(text, on: t)))
    try expectSavedTextChangesNothingOverHeads(t, name: "p")
  }

  static let twoCrtcsOnePicture = """
    {
      name: "p",
      outputs: [
        { match: { output: "DP-1" }, alias: "DP-1", mode: "1920x1080@60.00", position: "0,0" },
        { match: { output: "eDP-1" }, mode: "1920x1080@60.00", position: "same-as DP-1", primary: true },
      ],
    }
    """

  @Test func aModeIsWrittenPreciselyEnoughToPickItAgain() throws {
    var t = F.desk(["DP-1"])
    let close = Mode(
      id: ModeID(rawValue: 9), name: "1920x1080", width: 1920, height: 1080, dotClock: 148_351_648, hTotal: 2200,
      vTotal: 1125)  // 59.9400 Hz beside 60.0000
    t.modes[close.id] = close
    t.outputs[0].modes.append(close.id)
    t.crtcs[0].mode = close.id
    #expect(try saved("p", t).contains("mode: \"1920x1080@59.94\""))
    #expect(changesNothing(try replan(try saved("p", t), on: t)))
    try expectSavedTextChangesNothingOverHeads(t, name: "p")
  }

  @Test func namesAndEDIDTextAreQuotedAndGlobCharactersEscaped() {
    #expect(ProfileSave.quoted("a \"b\" \\ c\n") == "\"a \\\"b\\\" \\\\ c\\n\"")
    #expect(ProfileSave.escaped("DELL U27*[x]?") == "DELL U27\\*\\[x]\\?")
    #expect(globMatch(ProfileSave.escaped("DELL U27*[x]?"), "DELL U27*[x]?"))
    #expect(!globMatch(ProfileSave.escaped("U27*"), "U2720Q"))
  }

  let saved =
    "{\n  name: \"new\",\n  outputs: [\n    { match: { output: \"DP-1\" }, mode: \"1920x1080@60.00\", position: \"0,0\" },\n  ],\n}"

  func write(_ config: String) throws(ConfigError) -> String {
    String(decoding: try ProfileSave.appending(saved, toConfig: Array(config.utf8), file: "c.json5"), as: UTF8.self)
  }

  @Test func writingAppendsToTheProfilesListKeepingCommentsAndFormatting() throws {
    let config = """
      // my desk
      {
        main: 'eDP-1', /* the laptop */
        profiles: [
          { name: 'old', outputs: [] },  // the first
          // more to come
        ],
        hooks: { connected: ['true'] },
      }

      """
    #expect(
      try write(config) == """
        // my desk
        {
          main: 'eDP-1', /* the laptop */
          profiles: [
            { name: 'old', outputs: [] },  // the first
            {
              name: "new",
              outputs: [
                { match: { output: "DP-1" }, mode: "1920x1080@60.00", position: "0,0" },
              ],
            },
            // more to come
          ],
          hooks: { connected: ['true'] },
        }

        """)
    let parsed = try Config.parse(Array(try write(config).utf8), file: "c.json5")
    #expect(parsed.profiles.map(\.name) == ["old", "new"] && parsed.main == "eDP-1")
  }

  @Test func writingAfterALastElementWithoutACommaAddsOne() throws {
    let result = try write("{ profiles: [\n    { name: 'old', outputs: [] }\n  ] }")
    #expect(
      result.hasPrefix("{ profiles: [\n    { name: 'old', outputs: [] },\n    {\n      name: \"new\","), "\(result)")
    #expect(try Config.parse(Array(result.utf8), file: "c").profiles.count == 2)
  }

  @Test func writingIntoAnEmptyListOrAConfigWithoutProfiles() throws {
    #expect(try write("{\n  profiles: [],\n}").hasPrefix("{\n  profiles: [\n    {\n      name: \"new\","))
    let noKey = try write("{\n  main: 'eDP-1' // laptop\n}\n")
    #expect(noKey.hasPrefix("{\n  main: 'eDP-1', // laptop\n  profiles: [\n    {\n      name: \"new\","), "\(noKey)")
    let empty = try write("{}")
    #expect(try Config.parse(Array(empty.utf8), file: "c").profiles.map(\.name) == ["new"], "\(empty)")
    let crlf = try write("{\r\n  main: 'x',\r\n}\r\n")
    #expect(!crlf.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "CR LF kept: \(crlf)")
  }

  /// The reader takes the first of two `profiles` keys: the edit goes there, and a key the
  /// scanner cannot name (written with escapes) is refused rather than shadowed by a second
  /// `profiles` that the reader ignores, while `--write` says "appended".
  @Test func writingGoesWhereTheReaderLooksOrIsRefused() throws {
    let twice = try write("{ profiles: [{ name: 'old', outputs: [] }],\n  profiles: [] }")
    #expect(try Config.parse(Array(twice.utf8), file: "c").profiles.map(\.name) == ["old", "new"], "\(twice)")
    do {
      let escaped = try write(#"{ "prof\u0069les": [{ name: 'old', outputs: [] }] }"#)
      Issue.record("written where the reader does not look: \(escaped)")
    } catch {
      #expect(error.message.contains("profiles"), "\(error)")
    }
  }

  @Test func writingRefusesABrokenConfigOrANameThatIsTaken() {
    #expect(throws: ConfigError.self) { try write("{ profiles: [ }") }
    do {
      _ = try write("{ profiles: [{ name: 'new', outputs: [] }] }")
      Issue.record("a second profile 'new' was written")
    } catch {
      #expect(error.message.contains("profile 'new': the name is taken"), "\(error)")
    }
  }
}
