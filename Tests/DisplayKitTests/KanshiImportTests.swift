import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayService
import Foundation
import Testing
import XRig

/// `profile import kanshi`: fixtures in kanshi's documented syntax, each checked with kanshi
/// itself, and the import's result as values.
@Suite struct KanshiImportTests {
  static let folder: String = {
    var url = URL(fileURLWithPath: #filePath)
    url.deleteLastPathComponent()
    return url.appendingPathComponent("Fixtures/kanshi").path
  }()
  static let fixtures = ["desk.conf", "turned.conf", "description.conf"]
  static let broken = ["broken/command.conf", "broken/brace.conf", "broken/mode.conf"]
  /// What a compositor names a few makes (hwdata's pnp.ids).
  static let vendors = ["Dell Inc.": "DEL", "LG Electronics": "GSM", "Goldstar Company Ltd": "GSM"]

  static func read(_ name: String) throws -> ImportResult {
    let path = folder + "/" + name
    return KanshiImport.read(try String(contentsOfFile: path, encoding: .utf8), file: name, vendors: vendors)
  }

  /// kanshi 1.3.1 reads its whole config before it connects to a compositor: with no
  /// Wayland display, a config it accepts ends with "failed to connect to display", one it
  /// refuses with "failed to parse config file: error on line N".
  static func kanshi(_ name: String) throws -> String {
    let runtime = try makeTempDirectory("displayd-kanshi")
    let r = try runCommand(
      ["kanshi", "-c", folder + "/" + name], environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime])
    #expect(r.status != 0, "kanshi cannot run without a compositor")
    return r.err
  }

  @Test(arguments: fixtures) func kanshiAcceptsEachFixture(_ name: String) throws {
    let err = try Self.kanshi(name)
    #expect(err.contains("failed to connect to display") && !err.contains("failed to parse"), "\(name): \(err)")
  }

  @Test(arguments: broken) func kanshiAndTheImportBothRefuseEachBrokenFixture(_ name: String) throws {
    let err = try Self.kanshi(name)
    #expect(err.contains("failed to parse config file: error on line "), "\(name): \(err)")
    let result = try Self.read(name)
    #expect(result.profiles.isEmpty && result.broken.count == 1, "\(result.profiles.map(\.text))")
    #expect(result.broken.first?.line != nil, "the error names its line")
  }

  @Test func theDeskBecomesProfilesMatchedByIdentityWithTheInverseScale() throws {
    let result = try Self.read("desk.conf")
    #expect(
      result.profiles.map(\.text) == [
        """
        {
          name: "desk",
          outputs: [
            { match: { output: "eDP-1" }, enabled: false },
            { match: { manufacturer: "DEL", product_name: "DELL U2415", serial: "7MT0167B2YNL" }, mode: "1920x1200@59.950", position: "0,0" },
            { match: { manufacturer: "GSM", product_name: "LG HDR 4K", serial: "46577" }, mode: "3840x2160", position: "1920,0", scale: 0.5 },
          ],
        },
        """,
        """
        {
          name: "nomad",
          outputs: [
            { match: { output: "eDP-1" }, mode: "2560x1440@60", scale: 0.8 },
          ],
        },
        """,
      ])
    #expect(
      result.notes.map(\.description) == ["desk.conf:6: `exec` not imported: put it in the profile's hooks.applied"])
    let config = "{ profiles: [\n" + result.profiles.map(\.text).joined(separator: "\n") + "\n] }"
    #expect(try Config.parse(Array(config.utf8), file: "pasted").profiles.map(\.name) == ["desk", "nomad"])
  }

  /// kanshi's transforms are the Wayland protocol's, counter-clockwise: `90` is xrandr's
  /// `left` (as sway and Xwayland show it, `KanshiImportOnSway`).
  @Test func transformsAreRotationsAndReflections() throws {
    let result = try Self.read("turned.conf")
    let turned = try #require(result.profiles.first).outputs.map { "\($0.rotate.rawValue) \($0.reflect.rawValue)" }
    #expect(turned == ["left none", "inverted none", "right none", "normal x", "left x", "normal none"])
    #expect(result.profiles.last?.name == "kanshi line 10")
    #expect(result.profiles.last?.outputs.map(\.text) == [#"{ match: { output: "*" } }"#])
    #expect(result.notes.map(\.description) == ["turned.conf:10: a profile without a name: 'kanshi line 10'"])
  }

  /// Each of the protocol's eight transforms: a quarter counter-clockwise is `left`, and a
  /// flip mirrors left to right before the turn (`flipped-270` is `right` with `x`).
  @Test(arguments: [
    ("normal", "normal none"), ("90", "left none"), ("180", "inverted none"), ("270", "right none"),
    ("flipped", "normal x"), ("flipped-90", "left x"), ("flipped-180", "inverted x"), ("flipped-270", "right x"),
  ])
  func eachTransformTurnsCounterClockwise(_ transform: String, _ turn: String) throws {
    let result = KanshiImport.read("profile a {\n output DP-1 transform \(transform)\n}\n", file: "k")
    let entry = try #require(result.profiles.first?.outputs.first, "\(result.broken)")
    #expect("\(entry.rotate.rawValue) \(entry.reflect.rawValue)" == turn)
  }

  @Test func descriptionsWithAnUnknownMakeOrCodesAreMatchedByWhatTheyTell() throws {
    let result = try Self.read("description.conf")
    #expect(
      result.profiles.map { $0.outputs.map(\.match) } == [
        [#"{ output: "LVDS-1" }"#, #"{ serial: "4242" }"#],
        [
          #"{ manufacturer: "BOE", product_code: 2718 }"#,
          #"{ manufacturer: "GSM", product_code: 23304, serial: "316129" }"#,
        ],
      ])
    #expect(result.notes.contains { $0.line == 4 && $0.message.contains("\"Some Company ASDF 4242\"") })
  }

  /// A model or serial is a code only as `0x` and exactly its hex digits (4, 8): a sign
  /// would give a negative `product_code` the config refuses, more digits one beyond 0xFFFF.
  @Test func onlyExactlyTheHexDigitsAreAProductCodeOrSerialNumber() throws {
    let text = """
      profile {
        output "GSM 0x-0FF 0x-0004D2E" position 0,0
        output "GSM 0x15B08 0x0004D2E1" position 1920,0
        output "Some Company 0x-0FF Unknown" position 3840,0
        output "Some Company 0x+5B0 Unknown" position 5760,0
        output "GSM 0x5B08 0x0004D2E1" position 7680,0
      }
      """
    let result = KanshiImport.read(text, file: "k", vendors: Self.vendors)
    #expect(
      result.profiles.first?.outputs.map(\.match) == [
        #"{ manufacturer: "GSM", product_name: "0x-0FF", serial: "0x-0004D2E" }"#,
        #"{ manufacturer: "GSM", product_name: "0x15B08", serial: "316129" }"#,
        #"{ manufacturer: "Some*", product_name: "*0x-0FF" }"#,
        #"{ manufacturer: "Some*", product_name: "*0x+5B0" }"#,
        #"{ manufacturer: "GSM", product_code: 23304, serial: "316129" }"#,
      ])
  }

  /// Newer kanshi's syntax (kanshi 1.3.1 refuses it): top-level outputs with an alias and
  /// output blocks in braces, as defaults the profiles' outputs take.
  @Test func topLevelOutputsAndBlocksGiveDefaults() {
    let text = """
      output "Dell Inc. DELL U2415 7MT0167B2YNL" alias $left {
        mode 1920x1200
        scale 1
      }
      output DP-9 mode 640x480
      profile two {
        output $left position 0,0
        output HDMI-A-1 {
          mode 1920x1080@60Hz
          position 1920,0
          adaptive_sync on
        }
        frobnicate
      }
      """
    let result = KanshiImport.read(text, file: "k", vendors: Self.vendors)
    #expect(
      result.profiles.first?.outputs.map(\.text) == [
        #"{ match: { manufacturer: "DEL", product_name: "DELL U2415", serial: "7MT0167B2YNL" }, mode: "1920x1200", position: "0,0" }"#,
        #"{ match: { output: "HDMI-A-1" }, mode: "1920x1080@60", position: "1920,0" }"#,
      ])
    #expect(
      result.notes.map(\.description) == [
        "k:5: top-level `output DP-9` is used by no profile: ignored",
        "k:11: `adaptive_sync on` ignored: X has no such output setting",
        "k:13: unknown profile directive `frobnicate`: ignored",
      ])
  }

  /// Hostile files: a position of Int.min (abs() trapped on it), blocks nested too deep (a
  /// block inside an output block was dropped in silence; 100,000 of them overflowed the
  /// stack), each an error with its line.
  @Test func hostileFilesAreErrorsNotCrashes() {
    let far = KanshiImport.read("profile a {\n output A position -9223372036854775808,0\n}\n", file: "k")
    #expect(far.profiles.isEmpty && far.broken.count == 1, "\(far.broken)")
    let nested = KanshiImport.read("profile a {\n output A {\n mode 1x1 {\n position 0,0\n }\n }\n}\n", file: "k")
    #expect(nested.profiles.isEmpty && nested.broken.map(\.description) == ["k:3: blocks nested too deep"])
    let deep = KanshiImport.read(String(repeating: "a{", count: 100_000), file: "k")
    #expect(deep.profiles.isEmpty && deep.broken.map(\.description) == ["k:1: blocks nested too deep"])
  }

  @Test func aSecondProfileOfTheSameNameIsAnError() {
    let result = KanshiImport.read("profile a {\n output A enable\n}\nprofile a {\n output B enable\n}\n", file: "k")
    #expect(result.profiles.map(\.name) == ["a"])
    #expect(result.broken.map(\.description) == ["k:4: a second profile named 'a'"])
  }

  @Test func theVendorTableIsReadFromPnpIDs() {
    let table = KanshiImport.vendors(pnpIDs: "DEL\tDell Inc.\nDLL\tDell Inc.\nGSM\tLG Electronics\nbad line\n")
    #expect(table == ["Dell Inc.": "DEL", "LG Electronics": "GSM"])
  }

  /// The command: the default file, profiles alone on stdout, notes on stderr; hwdata's
  /// table names the makes; a broken file exits 1 and `--write` then writes nothing.
  @Test func theCommandPrintsOnlyProfilesAndWritesNothingFromABrokenFile() throws {
    let home = try makeTempDirectory("displayd-kanshi")
    try FileManager.default.createDirectory(atPath: home + "/kanshi", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.folder + "/desk.conf", toPath: home + "/kanshi/config")
    let env = ["PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": home, "HOME": "/nonexistent", "XDG_RUNTIME_DIR": home]
    let r = try runCommand([displaydPath, "profile", "import", "kanshi"], environment: env)
    #expect(r.status == 0, "\(r.err)")
    #expect(r.out == (try Self.read("desk.conf")).profiles.map { $0.text + "\n" }.joined(), "\(r.out)")
    #expect(
      r.err == "displayd: note: \(home)/kanshi/config:6: `exec` not imported: put it in the profile's hooks.applied\n")

    let config = home + "/displayd/config.json5"
    try FileManager.default.createDirectory(atPath: home + "/displayd", withIntermediateDirectories: true)
    try "{}\n".write(toFile: config, atomically: true, encoding: .utf8)
    let bad = Self.folder + "/broken/command.conf"
    let refused = try runCommand([displaydPath, "profile", "import", "kanshi", bad, "--write"], environment: env)
    #expect(refused.status == 1 && refused.out.isEmpty)
    #expect(refused.err.contains("cannot import: \(bad):3: unknown output command `bogus`"), "\(refused.err)")
    #expect(try String(contentsOfFile: config, encoding: .utf8) == "{}\n")
    let written = try runCommand([displaydPath, "profile", "import", "kanshi", "--write"], environment: env)
    #expect(written.status == 0 && written.out == "appended profiles 'desk', 'nomad' to \(config)\n", "\(written.err)")
    #expect(try Config.load(path: config).profiles.map(\.name) == ["desk", "nomad"])
    let hostile = home + "/hostile.conf"
    try "profile x {\n  output DP-1 enable\n  frob\u{1b}[2J\n}\n".write(
      toFile: hostile, atomically: true, encoding: .utf8)
    let escaped = try runCommand([displaydPath, "profile", "import", "kanshi", hostile], environment: env)
    #expect(escaped.status == 0 && !escaped.err.contains("\u{1b}"), "\(escaped.err)")
    #expect(escaped.err.contains(#"unknown profile directive `frob\u{1b}[2J`"#), "\(escaped.err)")
    let usage = try runCommand([displaydPath, "profile", "import", "xrandr"], environment: env)
    #expect(usage.status == 64 && usage.err.contains("cannot import from 'xrandr' (autorandr, kanshi)"))
  }
}

/// `profile import`'s command line, pure.
@Suite struct ProfileImportCommandLineTests {
  func action(_ words: [String]) throws -> ProfileAction {
    try ProfileCommandLine.action(try Arguments(words, spec: ProfileCommandLine.spec))
  }

  @Test func theToolThePathAndWrite() throws {
    #expect(try action(["import", "autorandr"]) == .importFrom(.autorandr, path: nil, write: false))
    #expect(try action(["import", "kanshi", "/k", "--write"]) == .importFrom(.kanshi, path: "/k", write: true))
  }

  @Test(arguments: [
    (["import"], "profile import needs autorandr or kanshi"), (["import", "x"], "cannot import from 'x'"),
    (["import", "kanshi", ""], "the PATH is empty"), (["import", "kanshi", "a", "b"], "unexpected argument 'b'"),
    (["import", "kanshi", "--json"], "--json goes with profile list"),
  ])
  func aWrongLineIsAUsageError(_ words: [String], _ message: String) throws {
    let error = #expect(throws: UsageError.self) { _ = try action(words) }
    #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
  }
}
