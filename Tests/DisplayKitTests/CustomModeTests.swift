import DisplayKit
import DisplayModel
import Foundation
import Testing

/// Modes the monitor does not list: CVT timings equal to the `cvt` program's, modelines in
/// xrandr's syntax, the config keys, and how the planners ask for a mode displayd makes.
@Suite struct CustomModeTests {
  /// `cvt W H R` and `cvt -r W H R` (xcvt 0.1.2), as printed: clock in MHz, h and v timings,
  /// and whether it is reduced blanking.
  static let captured: [(w: Int, h: Int, r: Double, reduced: Bool, line: String)] = [
    (640, 480, 60, false, "23.75  640 664 720 800  480 483 487 500 -hsync +vsync"),
    (640, 480, 60, true, "23.50  640 688 720 800  480 483 487 494 +hsync -vsync"),
    (800, 600, 60, false, "38.25  800 832 912 1024  600 603 607 624 -hsync +vsync"),
    (1024, 768, 60, false, "63.50  1024 1072 1176 1328  768 771 775 798 -hsync +vsync"),
    (1024, 768, 60, true, "56.00  1024 1072 1104 1184  768 771 775 790 +hsync -vsync"),
    (1280, 720, 60, false, "74.50  1280 1344 1472 1664  720 723 728 748 -hsync +vsync"),
    (1366, 768, 60, false, "85.25  1368 1440 1576 1784  768 771 781 798 -hsync +vsync"),
    (1366, 768, 60, true, "72.25  1368 1416 1448 1528  768 771 781 790 +hsync -vsync"),
    (1600, 700, 60, false, "90.50  1600 1680 1840 2080  700 703 713 727 -hsync +vsync"),
    (1600, 700, 60, true, "76.00  1600 1648 1680 1760  700 703 713 720 +hsync -vsync"),
    (1920, 1080, 60, false, "173.00  1920 2048 2248 2576  1080 1083 1088 1120 -hsync +vsync"),
    (1920, 1080, 60, true, "138.50  1920 1968 2000 2080  1080 1083 1088 1111 +hsync -vsync"),
    (1920, 1200, 50, false, "158.25  1920 2040 2240 2560  1200 1203 1209 1238 -hsync +vsync"),
    (2560, 1440, 75, false, "397.25  2560 2760 3040 3520  1440 1443 1448 1506 -hsync +vsync"),
    (2560, 1440, 120, true, "497.25  2560 2608 2640 2720  1440 1443 1448 1525 +hsync -vsync"),
    (3440, 1440, 100, false, "728.00  3440 3728 4104 4768  1440 1443 1453 1527 -hsync +vsync"),
    (1280, 1024, 85, false, "159.50  1280 1376 1512 1744  1024 1027 1034 1078 -hsync +vsync"),
    (720, 576, 50, false, "26.50  720 744 808 896  576 579 586 596 -hsync +vsync"),
    (3840, 2160, 30, false, "338.75  3840 4080 4488 5136  2160 2163 2168 2200 -hsync +vsync"),
    (3840, 2160, 60, true, "533.00  3840 3888 3920 4000  2160 2163 2168 2222 +hsync -vsync"),
    (1920, 1080, 144, false, "452.50  1920 2088 2296 2672  1080 1083 1088 1177 -hsync +vsync"),
    (1000, 500, 47.5, false, "30.25  1000 1024 1120 1240  500 503 513 517 -hsync +vsync"),
    (1004, 500, 60, true, "36.00  1008 1056 1088 1168  500 503 513 519 +hsync -vsync"),
    (1280, 800, 59.9, false, "83.50  1280 1352 1480 1680  800 803 809 831 -hsync +vsync"),
    (7680, 4320, 60, false, "2892.50  7680 8376 9232 10784  4320 4323 4328 4471 -hsync +vsync"),
  ]

  @Test(arguments: captured.indices) func cvtTimingsEqualTheCvtProgram(_ i: Int) throws {
    let c = Self.captured[i]
    let expected = try #require(try? ModeLine.parse(c.line).get())
    let line = try #require(CVT.modeLine(width: c.w, height: c.h, refresh: c.r, reduced: c.reduced))
    #expect(line == expected, "cvt \(c.reduced ? "-r " : "")\(c.w) \(c.h) \(c.r): \(line) vs \(c.line)")
  }

  /// The table above was captured from cvt; when cvt is installed, compare with it afresh
  /// over more sizes (reduced blanking only at multiples of 60 Hz: cvt refuses others).
  @Test func cvtTimingsEqualTheInstalledCvt() throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cvt") else { return }
    let sizes = [
      (640, 480), (1152, 864), (1280, 960), (1440, 900), (1680, 1050), (2048, 1152), (2560, 1080), (3000, 2000),
    ]
    for (w, h) in sizes {
      for (rate, reduced) in [(50.0, false), (60.0, false), (75.0, false), (60.0, true), (120.0, true)] {
        let args = (reduced ? ["-r"] : []) + [String(w), String(h), String(rate)]
        let out = try runCvt(args)
        let words = try #require(out.split(separator: "\n").first { $0.hasPrefix("Modeline") }, "\(args): \(out)")
        let text = words.split(separator: " ", maxSplits: 2)[2]
        let expected = try ModeLine.parse(String(text)).get()
        #expect(CVT.modeLine(width: w, height: h, refresh: rate, reduced: reduced) == expected, "cvt \(args)")
      }
    }
  }

  func runCvt(_ args: [String]) throws -> String {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/cvt")
    p.arguments = args
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test func timingsRandRCannotCarryAreNone() {
    #expect(CVT.modeLine(width: 32760, height: 32760, refresh: 1000, reduced: false) == nil)
    #expect(CVT.modeLine(width: 0, height: 1080, refresh: 60, reduced: false) == nil)
    #expect(CVT.modeLine(width: 1920, height: 1080, refresh: .nan, reduced: true) == nil)
  }

  @Test func modelinesParseWithOrWithoutAName() throws {
    let plain = try ModeLine.parse("90.50 1600 1680 1840 2080 700 703 713 727 -hsync +vsync").get()
    #expect(plain.name == nil && plain.dotClock == 90_500_000 && plain.hTotal == 2080 && plain.vSyncEnd == 713)
    #expect(plain.flags == [.hSyncNegative, .vSyncPositive])
    #expect(plain.description == "90.50 1600 1680 1840 2080 700 703 713 727 -hsync +vsync")
    let named = try ModeLine.parse("\"1600x700_60.00\"  90.50  1600 1680 1840 2080  700 703 713 727 -HSync +VSync")
      .get()
    #expect(named.name == "1600x700_60.00" && named.hDisplay == 1600 && named.flags == plain.flags)
  }

  @Test(arguments: [
    "", "90.50 1600 1680", "x 1600 1680 1840 2080 700 703 713 727", "-5 1600 1680 1840 2080 700 703 713 727",
    "90.50 1600 1500 1840 2080 700 703 713 727", "90.50 1600 1680 1840 2080 700 703 713 600",
    "90.50 1600 1680 1840 2080 700 703 713 727 +wobble", "\"open 90.50 1600 1680 1840 2080 700 703 713 727",
    "99999 1600 1680 1840 2080 700 703 713 727", "0.001 1600 1680 1840 2080 700 703 713 727",
    "90.50 1600 1680 1840 99999 700 703 713 727", "inf 1600 1680 1840 2080 700 703 713 727",
  ])
  func nonsenseModelinesAreRefused(_ text: String) {
    if case .success(let line) = ModeLine.parse(text) { Issue.record("accepted '\(text)': \(line)") }
  }

  func parse(_ text: String) throws(ConfigError) -> Config { try Config.parse(Array(text.utf8), file: "test.json5") }

  @Test func rulesAndProfileEntriesTakeTheKeys() throws {
    let config = try parse(
      """
      { monitors: [{ match: { output: "VNC-1" }, mode: "1600x700@60", custom: true, reduced: true },
                   { match: { output: "VNC-2" }, modeline: "90.50 1600 1680 1840 2080 700 703 713 727 -hsync +vsync" }],
        profiles: [{ name: "p", outputs: [{ match: { output: "DUMMY1" }, mode: "1600x700", custom: true }] }] }
      """)
    #expect(config.monitors[0].custom == .cvt(reduced: true))
    guard case .modeline(let line) = config.monitors[1].custom else { throw Failure("no modeline") }
    #expect(line.hTotal == 2080)
    #expect(config.profiles[0].outputs[0].custom == .cvt(reduced: false))
  }

  static let bad: [(text: String, key: String)] = [
    ("{ monitors: [{ match: { output: 'x' },\n custom: true }] }", "monitors[0].custom"),
    ("{ monitors: [{ match: { output: 'x' }, mode: 'preferred',\n custom: true }] }", "monitors[0].custom"),
    ("{ monitors: [{ match: { output: 'x' }, mode: '32760x32760@1000',\n custom: true }] }", "monitors[0].custom"),
    ("{ monitors: [{ match: { output: 'x' }, mode: '1600x700',\n reduced: true }] }", "monitors[0].reduced"),
    ("{ monitors: [{ match: { output: 'x' },\n modeline: '90.50 1600 1680' }] }", "monitors[0].modeline"),
    (
      "{ monitors: [{ match: { output: 'x' }, custom: true, mode: '1x1',\n modeline: '90.50 1600 1680 1840 2080 700 703 713 727' }] }",
      "monitors[0].modeline"
    ),
    (
      "{ monitors: [{ match: { output: 'x' }, mode: '1024x768',\n modeline: '90.50 1600 1680 1840 2080 700 703 713 727' }] }",
      "monitors[0].modeline"
    ),
    (
      "{ profiles: [{ name: 'p', outputs: [{ match: { output: 'x' },\n mode: '16000x16000@200', custom: true }] }] }",
      "profiles[0].outputs[0].custom"
    ),
    (
      "{ profiles: [{ name: 'p', outputs: [{ match: { output: 'x' },\n modeline: '1 2 3 4 5 6 7 8 9 +x' }] }] }",
      "profiles[0].outputs[0].modeline"
    ),
  ]

  /// Each names the file, the line the key is on, and the key path.
  @Test(arguments: bad.indices) func badCustomModesAreConfigErrorsNamingFileLineAndKey(_ i: Int) {
    let (text, key) = Self.bad[i]
    do {
      _ = try parse(text)
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.keyPath == key && error.file == "test.json5" && error.line == 2, "\(text): \(error)")
    }
  }
}

extension CustomModeTests {
  /// The line is found past comments, strings holding brackets and quotes, and earlier
  /// entries with the same keys.
  @Test func theLineOfAKeyDeepInAProfileIsFound() {
    let text = """
      // custom: true in a comment, { and [ too
      { main: "a}b]c\\"", /* modeline: x */ profiles: [
        { name: 'one', outputs: [{ match: { output: 'x' }, modeline: "90.50 1600 1680 1840 2080 700 703 713 727" }] },
        { name: "two", outputs: [
          { match: { output: "y" } }, { match: { output: 'z' }, "mode": '1x1', custom: true },
          { match: { output: "w" },
            modeline: "nonsense" },
        ] },
      ] }
      """
    do {
      _ = try parse(text)
      Issue.record("accepted")
    } catch {
      #expect(error.keyPath == "profiles[1].outputs[2].modeline" && error.line == 7, "\(error)")
    }
  }

  /// The configuration page's custom-mode example (between its markers) is a config the
  /// loader takes.
  @Test func theConfigurationPagesCustomModeExampleLoads() throws {
    let page = try repositoryFile("docs/configuration.md")
    let begin = try #require(page.range(of: "<!-- custom-modes-example:begin -->\n```json5\n"))
    let end = try #require(page.range(of: "```\n<!-- custom-modes-example:end -->"))
    let config = try parse(String(page[begin.upperBound..<end.lowerBound]))
    #expect(config.monitors[0].custom == .cvt(reduced: false))
    guard case .modeline(let line) = config.monitors[1].custom else { throw Failure("no modeline") }
    #expect(line.name == "proj" && line.dotClock == 63_500_000)
  }
}

struct Failure: Error, CustomStringConvertible {
  var description: String
  init(_ text: String) { description = text }
}
