import DisplayKit
import DisplayModel
import DisplaySupport
import DisplayX11
import Testing

/// `profiles`, `panel`, `defaults.lid_closed` and the per-output layout keys: read strictly,
/// every bad value a config error naming the key path.
@Suite struct ProfileConfigTests {
  func parse(_ text: String) throws(ConfigError) -> Config { try Config.parse(Array(text.utf8), file: "test.json5") }

  @Test func aDeskProfileWithEveryEntryKeyParses() throws {
    let config = try parse(
      """
      {
        panel: "DUMMY0",
        defaults: { lid_closed: "disable" },
        profiles: [                        // tried in order
          {
            name: "desk",
            lid: "any",
            outputs: [
              { match: { output: "eDP-*" }, enabled: false },
              { match: { manufacturer: "DEL", product_name: "DELL U2720Q" }, alias: "big",
                mode: "3840x2160@60", position: "0,0", primary: true },
              { match: { manufacturer: "DEL", serial: "7MT0186F0X1L" }, rotate: "left", reflect: "x",
                scale: 2, scale_filter: "nearest", position: "right-of big", level: "above" },
            ],
            arrange: "column", align: "center",
            dpi: 192,
            hooks: { applied: [["notify-send", "desk"]] },
          },
          { name: "sofa", lid: "open", outputs: [{ match: { output: "eDP-1" }, position: "same-as main" }], dpi: "auto" },
        ],
      }
      """)
    #expect(config.panel == "DUMMY0" && config.lidClosed == .disable)
    let desk = try #require(config.profiles.first)
    #expect(desk.name == "desk" && desk.lid == .any && desk.arrange == .column && desk.align == .center)
    #expect(desk.dpi == .fixed(192) && desk.appliedHooks == [["notify-send", "desk"]])
    #expect(desk.outputs[0].enabled == false && desk.outputs[0].match.hasWildcards)
    #expect(desk.outputs[1].mode == .sizeRate(width: 3840, height: 2160, refresh: 60) && desk.outputs[1].primary)
    let third = desk.outputs[2]
    #expect(third.position == .at(.relative(.rightOf, target: "big")))
    #expect(third.transform == .flipped90 && third.transformSpelling == .turned)
    #expect(third.scale == 2 && third.scaleFilter == .nearest)
    #expect(third.content == ContentKind.none, "a profile entry gets no window unless it asks")
    #expect(third.level == .above && desk.outputs[1].level == nil)
    #expect(config.profiles[1].outputs[0].position == .sameAs("main") && config.profiles[1].dpi == .auto)
    #expect(config.profiles[1].lid == .open)
  }

  @Test func aProfileEntryLeavesOutKeysToTheirDefaults() throws {
    let entry = try #require(try parse("{profiles: [{name: 'p', outputs: [{match: {}}]}]}").profiles.first?.outputs[0])
    #expect(entry.enabled == nil && entry.mode == .preferred && entry.position == nil)
    #expect(entry.transform == .normal && entry.transformSpelling == .turned)
    #expect(entry.scale == 1 && entry.scaleFilter == .bilinear && !entry.primary)
    #expect(try parse("{}").lidClosed == .ignore)
  }

  @Test func monitorsRulesTakeTheLayoutKeys() throws {
    let config = try parse(
      """
      { monitors: [ { match: { output: 'HDMI-*' }, enabled: false, rotate: 'inverted', reflect: 'y',
                      scale: 1.25, scale_filter: 'nearest', primary: true } ] }
      """)
    let rule = try #require(config.monitors.first)
    #expect(rule.enabled == false && rule.rotate == .inverted && rule.reflect == .y && rule.primary == true)
    #expect(rule.scale == 1.25 && rule.scaleFilter == .nearest)
    let t = TopologyBuilder.topology(["HDMI-1"], on: ["HDMI-1": TopologyBuilder.m1080])
    let settings = try #require(config.settings(for: HeadSnapshot(topology: t).heads[0]))
    #expect(!settings.enabled && settings.scale == 1.25)
    // A half turn and a flip in Y is a flip in X, kept as written for RandR.
    #expect(settings.transform == .flipped && settings.transformSpelling == .reflectedY)
    #expect(settings.transform.map { Rotation($0, settings.transformSpelling) } == [.inverted, .reflectY])
    #expect(settings.primary && settings.scaleFilter == .nearest)
  }

  /// Configs with one bad key each: the key path the error must name, and words it must say.
  static let bad: [(text: String, key: String, words: String)] = [
    ("{profiles: {}}", "profiles", "expected a list"),
    ("{profiles: [{outputs: []}]}", "profiles[0]", "missing key 'name'"),
    ("{profiles: [{name: 'p'}]}", "profiles[0]", "missing key 'outputs'"),
    ("{profiles: [{name: 5, outputs: []}]}", "profiles[0].name", "expected a string"),
    ("{profiles: [{name: 'p', outputs: [], nmae: 'q'}]}", "profiles[0].nmae", "unknown key"),
    ("{profiles: [{name: 'p', outputs: [], lid: 'shut'}]}", "profiles[0].lid", "expected open | closed | any"),
    ("{profiles: [{name: 'p', outputs: [], arrange: 'grid'}]}", "profiles[0].arrange", "expected row | column"),
    ("{profiles: [{name: 'p', outputs: [], align: 'middle'}]}", "profiles[0].align", "start | center | end"),
    ("{profiles: [{name: 'p', outputs: [], dpi: 'high'}]}", "profiles[0].dpi", "\"auto\" or a number"),
    ("{profiles: [{name: 'p', outputs: [], dpi: 0}]}", "profiles[0].dpi", "out of range"),
    ("{profiles: [{name: 'p', outputs: [], dpi: NaN}]}", "profiles[0].dpi", "out of range"),
    ("{profiles: [{name: 'p', outputs: [], dpi: true}]}", "profiles[0].dpi", "expected a number"),
    ("{profiles: [{name: 'p', outputs: [], hooks: {done: []}}]}", "profiles[0].hooks.done", "unknown key"),
    ("{profiles: [{name: 'p', outputs: [], hooks: {applied: [[]]}}]}", "profiles[0].hooks.applied", "a program"),
    ("{profiles: [{name: 'p', outputs: {}}]}", "profiles[0].outputs", "expected a list"),
    ("{profiles: [{name: 'p', outputs: [{}]}]}", "profiles[0].outputs[0]", "missing key 'match'"),
    (entry("enabled: 'no'"), "profiles[0].outputs[0].enabled", "expected true or false"),
    (entry("primary: 1"), "profiles[0].outputs[0].primary", "expected true or false"),
    (entry("mode: '4k'"), "profiles[0].outputs[0].mode", "expected preferred"),
    (entry("position: 'next-to main'"), "profiles[0].outputs[0].position", "same-as"),
    (entry("position: 'same-as'"), "profiles[0].outputs[0].position", "not valid"),
    (entry("rotate: 'sideways'"), "profiles[0].outputs[0].rotate", "normal | left | right | inverted"),
    (entry("rotate: 90"), "profiles[0].outputs[0].rotate", "expected a string"),
    (entry("reflect: 'z'"), "profiles[0].outputs[0].reflect", "none | x | y | xy"),
    (entry("scale: 0"), "profiles[0].outputs[0].scale", "0.25...8"),
    (entry("scale: 9"), "profiles[0].outputs[0].scale", "0.25...8"),
    (entry("scale: Infinity"), "profiles[0].outputs[0].scale", "out of range"),
    (entry("scale: '2'"), "profiles[0].outputs[0].scale", "expected a number"),
    (entry("scale_filter: 'cubic'"), "profiles[0].outputs[0].scale_filter", "bilinear | nearest"),
    (entry("content: 'video'"), "profiles[0].outputs[0].content", "placeholder | mirror | none"),
    (entry("alias: 7"), "profiles[0].outputs[0].alias", "expected a string"),
    (entry("ignore: true"), "profiles[0].outputs[0].ignore", "unknown key"),
    ("{panel: 3}", "panel", "expected a string"),
    ("{defaults: {lid_closed: 'sleep'}}", "defaults.lid_closed", "expected ignore | disable"),
    ("{monitors: [{match: {}, enabled: 0}]}", "monitors[0].enabled", "expected true or false"),
    ("{monitors: [{match: {}, rotate: 'up'}]}", "monitors[0].rotate", "normal | left"),
    ("{monitors: [{match: {}, reflect: 'yx'}]}", "monitors[0].reflect", "none | x"),
    ("{monitors: [{match: {}, scale: 0.1}]}", "monitors[0].scale", "0.25...8"),
    ("{monitors: [{match: {}, scale_filter: 'fast'}]}", "monitors[0].scale_filter", "bilinear"),
    ("{monitors: [{match: {}, primary: 'yes'}]}", "monitors[0].primary", "expected true or false"),
  ]

  static func entry(_ keys: String) -> String { "{profiles: [{name: 'p', outputs: [{match: {}, \(keys)}]}]}" }

  @Test(arguments: bad.indices) func aWrongTypeOrValueIsAConfigErrorNamingTheKeyPath(_ i: Int) {
    let (text, key, words) = Self.bad[i]
    do {
      _ = try parse(text)
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.keyPath == key, "\(text): \(error)")
      #expect(error.description.contains(words), "\(text): \(error)")
    }
  }
}

/// What no single key shows: names, aliases, position targets and cycles, primaries.
@Suite struct ProfileValidationTests {
  func error(_ text: String) -> ConfigError? {
    do {
      _ = try Config.parse(Array(text.utf8), file: "test.json5")
      return nil
    } catch {
      return error
    }
  }

  @Test func twoProfilesWithOneNameAreAnErrorNamingTheSecond() throws {
    let e = try #require(error("{profiles: [{name: 'desk', outputs: []}, {name: 'desk', outputs: []}]}"))
    #expect(e.keyPath == "profiles[1].name" && e.message == "profile 'desk': the name is taken by profiles[0]")
  }

  @Test func twoEntriesWithOneAliasAreAnError() throws {
    let e = try #require(
      error("{profiles: [{name: 'desk', outputs: [{match: {}, alias: 'a'}, {match: {}, alias: 'a'}]}]}"))
    #expect(e.keyPath == "profiles[0].outputs[1].alias" && e.message.contains("profile 'desk': alias 'a'"), "\(e)")
    let main = try #require(error("{profiles: [{name: 'desk', outputs: [{match: {}, alias: 'main'}]}]}"))
    #expect(main.keyPath == "profiles[0].outputs[0].alias", "main is reserved: \(main)")
  }

  @Test func aPositionNamingNoAliasOrOutputOfTheProfileIsAnError() throws {
    let e = try #require(
      error(
        "{profiles: [{name: 'desk', outputs: [{match: {output: 'DP-1'}}, {match: {}, position: 'left-of HDMI-1'}]}]}"))
    #expect(e.keyPath == "profiles[0].outputs[1].position", "\(e)")
    #expect(e.message.contains("profile 'desk'") && e.message.contains("'HDMI-1'"), "\(e)")
    let glob = try #require(
      error("{profiles: [{name: 'd', outputs: [{match: {output: 'DP-*'}}, {match: {}, position: 'same-as DP-*'}]}]}"))
    #expect(glob.keyPath == "profiles[0].outputs[1].position", "a glob is no output name: \(glob)")
  }

  @Test func targetsMayBeAnAliasAnExactOutputOrMain() throws {
    let text = """
      {profiles: [{name: 'desk', outputs: [
        {match: {output: 'DP-1'}, alias: 'a'}, {match: {output: 'DP-2'}, position: 'right-of a'},
        {match: {}, position: 'below DP-2'}, {match: {}, position: 'same-as main'}]}]}
      """
    #expect(error(text) == nil)
  }

  @Test func positionsThatFormACycleAreAnErrorNamingTheProfileAndTheCycle() throws {
    let e = try #require(
      error(
        """
        {profiles: [{name: 'desk', outputs: [{match: {}, alias: 'a', position: 'right-of b'},
          {match: {}, alias: 'b', position: 'same-as a'}, {match: {}, position: 'below a'}]}]}
        """))
    #expect(e.keyPath == "profiles[0].outputs", "\(e)")
    #expect(e.message == "profile 'desk': positions form a cycle: a → b → a", "\(e)")
    let selfLoop = try #require(
      error("{profiles: [{name: 'p', outputs: [{match: {output: 'DP-1'}, position: 'left-of DP-1'}]}]}"))
    #expect(selfLoop.message.contains("cycle: output DP-1 → output DP-1"), "\(selfLoop)")
  }

  /// A long chain of positions (each entry right of the one before) is read in time linear in
  /// its length: the cycle check followed every chain from every entry again, cubic, so a
  /// 160 KB config held `check-config` or a daemon's reload for minutes, a 1 MiB one for hours.
  @Test func aLongChainOfPositionsIsCheckedInLinearTime() throws {
    var entries = ["{match: {}, alias: 'a0'}"]
    for i in 1..<3000 { entries.append("{match: {}, alias: 'a\(i)', position: 'right-of a\(i - 1)'}") }
    let text = "{profiles: [{name: 'p', outputs: [" + entries.joined(separator: ",") + "]}]}"
    let start = monotonicNanoseconds()
    #expect(error(text) == nil)
    let seconds = Double(monotonicNanoseconds() - start) / 1e9
    #expect(seconds < 5, "\(seconds) s for 3000 entries")
    // A cycle at the far end of the chain is still found and named.
    entries[0] = "{match: {}, alias: 'a0', position: 'below a2999'}"
    let cycle = try #require(error("{profiles: [{name: 'p', outputs: [" + entries.joined(separator: ",") + "]}]}"))
    #expect(
      cycle.message.hasPrefix("profile 'p': positions form a cycle: a0 → a2999 → a2998 → "),
      "\(cycle.message.prefix(80))")
    #expect(cycle.message.hasSuffix(" → a1 → a0"))
  }

  @Test func twoPrimaryEntriesAreAnError() throws {
    let e = try #require(
      error("{profiles: [{name: 'desk', outputs: [{match: {}, primary: true}, {match: {}, primary: true}]}]}"))
    #expect(e.keyPath == "profiles[0].outputs[1].primary" && e.message.contains("profile 'desk'"), "\(e)")
  }

  @Test func identityFieldsAreGlobs() throws {
    let bytes = Array(try readFile(fixtureFolder + "/acer_acr001a_34cdf6327a45.bin").get())
    let t = TopologyBuilder.topology(["DP-1"], on: ["DP-1": TopologyBuilder.m1080], edid: ["DP-1": bytes])
    var match = MonitorMatch()
    match.manufacturer = "AC?"
    match.productName = "V19*"
    match.serial = "LBP0C*"
    #expect(match.matches(name: "DP-1", t.outputs[0].identity, identity: nil))
    match.productName = "V20*"
    #expect(!match.matches(name: "DP-1", t.outputs[0].identity, identity: nil))
  }
}
