import DisplayKit
import DisplayModel
import DisplayService
import DisplaySupport
import Testing
import XRig

@Suite struct ConfigTests {
  func parse(_ text: String) throws(ConfigError) -> Config { try Config.parse(Array(text.utf8), file: "test.json5") }

  @Test func mainDefaultsPlaceholderAndMonitorRulesParseTogether() throws {
    let config = try parse(
      """
      {
        main: "eDP-1",                    // optional: the main output
        defaults: {
          mode: "preferred", position: "right-of main", content: "placeholder", level: "normal",
        },
        placeholder: { text: "<no content>", background: "#ffffff", foreground: "#000000",
                       image: null /* PNG path */, details: true },
        monitors: [
          { match: { output: "HDMI-*" }, mode: "1920x1080@60" },
          { match: { manufacturer: "DEL", product_name: "DELL U2720Q" }, position: "left-of main" },
          { match: { output: "DP-3" }, ignore: true },
        ],
      }
      """)
    #expect(config.main == "eDP-1")
    #expect(config.monitors.count == 3)
    #expect(config.monitors[0].mode == .sizeRate(width: 1920, height: 1080, refresh: 60))
    #expect(config.monitors[1].position == .relative(.leftOf, target: "main"))
    #expect(config.monitors[2].ignore)
    #expect(config.placeholder.background == RGBColor(red: 255, green: 255, blue: 255))
  }

  @Test func emptyConfigIsTheDefaults() throws {
    #expect(try parse("{}") == Config())
    #expect(Config().defaults.mode == .preferred && Config().placeholder.text == "<no content>")
  }

  @Test func syntaxErrorNamesFileAndLine() {
    let text = "{\n  defaults: {\n    mode: \"preferred\"\n    level: \"above\",\n  },\n}\n"
    #expect(throws: ConfigError.self) { try parse(text) }
    do {
      _ = try parse(text)
    } catch {
      #expect(error.file == "test.json5")
      #expect(error.line == 4, "\(error)")
      #expect(error.description.hasPrefix("test.json5:4: syntax error"))
    }
    for (bad, line) in [
      ("{\n a: 'x\n}", 2), ("{\n\n monitors: [ {match: {output: x}} ]}", 3), ("{\n /* open", 2),
      ("{ main: 'x',\n defaults: @ }", 2),
    ] {
      do {
        _ = try parse(bad)
        Issue.record("accepted: \(bad)")
      } catch {
        #expect(error.line == line, "\(bad): \(error)")
      }
    }
  }

  @Test func wrongValuesNameTheKeyPathAndWhatWasExpected() {
    let cases: [(String, String, String)] = [
      ("{monitors: [{match: {}}, {match: {output: 'x'}, mode: 5}]}", "monitors[1].mode", "expected a string"),
      ("{defaults: {mode: 'huge'}}", "defaults.mode", "'huge' is not valid: expected preferred | highest"),
      ("{placeholder: {background: '#12345'}}", "placeholder.background", "expected #rgb, #rrggbb"),
      ("{placeholder: {foreground: 'mauve-ish'}}", "placeholder.foreground", "not valid"),
      ("{defaults: {mdoe: 'keep'}}", "defaults.mdoe", "unknown key 'mdoe'"),
      ("{defaults: {level: 'top'}}", "defaults.level", "expected normal | above | overlay"),
      ("{monitors: [{mode: 'keep'}]}", "monitors[0]", "missing key 'match'"),
      ("{defaults: {position: 'beside main'}}", "defaults.position", "right-of | left-of"),
      ("{monitors: {}}", "monitors", "expected a list"),
    ]
    for (text, path, words) in cases {
      do {
        _ = try parse(text)
        Issue.record("accepted: \(text)")
      } catch {
        #expect(error.keyPath == path, "\(text): \(error)")
        #expect(error.description.contains(words), "\(text): \(error)")
      }
    }
  }

  @Test func modeAndPositionStrings() {
    #expect(ModeRequest("1024x768") == .size(width: 1024, height: 768))
    #expect(ModeRequest("1920x1080@59.94") == .sizeRate(width: 1920, height: 1080, refresh: 59.94))
    for bad in ["1024", "x768", "1024x768@", "1024x768@fast", "0x0", "-1x5"] {
      #expect(ModeRequest(bad) == nil, "\(bad)")
    }
    #expect(PositionRequest("below DP-2") == .relative(.below, target: "DP-2"))
    #expect(PositionRequest("100, 200") == .absolute(x: 100, y: 200))
    #expect(PositionRequest("-5,0") == nil)
    #expect(RGBColor("#0f8") == RGBColor(red: 0, green: 0xff, blue: 0x88))
  }

  @Test func firstMatchingRuleWinsAndFillsFromDefaults() throws {
    let config = try parse(
      """
      { defaults: { level: 'above' },
        monitors: [ { match: { output: 'HDMI-*' }, mode: '1024x768' },
                    { match: { output: '*' }, content: 'none' },
                    { match: { output: 'DP-3' }, ignore: true } ] }
      """)
    let t = TopologyBuilder.topology(
      ["eDP-1", "HDMI-1", "DP-3"],
      on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024, "DP-3": TopologyBuilder.m768])
    let hdmi = try #require(config.settings(for: HeadSnapshot(topology: t).heads[1]))
    #expect(hdmi.mode == .size(width: 1024, height: 768) && hdmi.level == .above && hdmi.content == .placeholder)
    #expect(
      config.settings(for: HeadSnapshot(topology: t).heads[2])?.content == ContentKind.none,
      "the earlier catch-all wins over the later ignore")
  }

  @Test func identityFieldsMatchTheEDID() throws {
    let bytes = Array(try readFile(fixtureFolder + "/acer_acr001a_34cdf6327a45.bin").get())
    let t = TopologyBuilder.topology(
      ["eDP-1", "DP-1"], on: ["eDP-1": TopologyBuilder.m1080, "DP-1": TopologyBuilder.m1024], edid: ["DP-1": bytes])
    let edid = try EDID(bytes: bytes)
    let config = try parse(
      "{monitors: [{match: {manufacturer: 'ACR', product_name: 'V193W', serial: 'LBP0C0034000'}, ignore: true}]}")
    #expect(config.settings(for: HeadSnapshot(topology: t).heads[1]) == nil)
    let other = try parse("{monitors: [{match: {manufacturer: 'DEL'}, ignore: true}]}")
    #expect(other.settings(for: HeadSnapshot(topology: t).heads[1]) != nil)
    #expect(
      other.settings(for: HeadSnapshot(topology: t).heads[0]) != nil,
      "identity rules never match a monitor without EDID")
  }
}
