import DisplayKit
import DisplayModel
import Foundation
import Testing
import XRig

/// `profile import kanshi` checked against a compositor: the rig's kanshi 1.5.1 applies each
/// fixture to the rig's sway 1.10, and every entry the import makes of the same file must be
/// what sway then shows (and, for the turn, what sway's Xwayland tells X clients). Skipped,
/// saying why, where the rig cannot be made.
@Suite(.serialized, .enabled(if: WaylandRig.isAvailable, noWaylandRig))
struct KanshiImportOnSway {
  static let folder = KanshiImportTests.folder + "/sway"

  /// sway's `transform` in get_outputs as displayd's `rotate` and `reflect`: sway names its
  /// turns clockwise (sway-output(5): "The rotation is performed clockwise"), as xrandr's
  /// `right` turns the picture; `flipped*` mirrors left to right before the turn, as RandR's
  /// reflection along the output's own axes does.
  static let swayTransforms: [String: String] = [
    "normal": "normal none", "90": "right none", "180": "inverted none", "270": "left none",
    "flipped": "normal x", "flipped-90": "right x", "flipped-180": "inverted x", "flipped-270": "left x",
  ]

  /// The rotation words of `xrandr --query` ("left X axis" → "left x") by each output's
  /// origin ("+1280+0"): Debian 12's Xwayland names its outputs XWAYLAND0, 1, ..., in the
  /// order it learnt of them, and places them where sway does.
  static func xrandrTurns(_ text: String) -> [String: String] {
    var turns: [String: String] = [:]
    for line in text.split(separator: "\n") where line.contains(" connected ") {
      let words = line.split(separator: " ").map(String.init)
      guard let at = words.firstIndex(where: { $0.contains("+") && $0.contains("x") }) else { continue }
      let said = words[(at + 1)...].prefix { !$0.hasPrefix("(") }
      let rotate = said.first.flatMap { ["left", "right", "inverted"].contains($0) ? $0 : nil } ?? "normal"
      let axes = said.filter { $0 == "X" || $0 == "Y" }.joined().lowercased()
      let origin = words[at].drop { $0 != "+" }
      turns[String(origin)] = rotate + " " + (axes.isEmpty ? "none" : axes)
    }
    return turns
  }

  /// The connector an entry matches (`{ output: "HEADLESS-2" }`).
  static func connector(_ entry: ImportedOutput) -> String? {
    let parts = entry.match.split(separator: "\"")
    return entry.match.hasPrefix("{ output: ") && parts.count == 3 ? String(parts[1]) : nil
  }

  /// Plugs the profile's other heads, lets kanshi apply `name` and returns sway's outputs.
  static func applied(_ name: String, outputs: Int, on sway: SwayCompositor) throws -> [SwayOutput] {
    for n in stride(from: 2, through: outputs, by: 1) { #expect(try sway.plug() == "HEADLESS-\(n)") }
    let before = try sway.outputs()
    let config = sway.outputDirectory + "/" + name
    try String(contentsOfFile: folder + "/" + name, encoding: .utf8).write(
      toFile: config, atomically: true, encoding: .utf8)
    let kanshi = try sway.startClient(["kanshi", "-c", config], name: "kanshi")
    defer { kanshi.stop() }
    let done = eventually(within: 15) { kanshi.log().contains("' applied") || kanshi.hasEnded }
    try #require(done && kanshi.log().contains("' applied"), "kanshi: \(kanshi.log())")
    var after = before
    _ = try eventually(within: 5) {
      after = try sway.outputs()
      return after != before
    }
    try #require(after != before, "sway's layout did not change: \(after)")
    return after
  }

  @Test(arguments: [("scaled.conf", 2), ("turned.conf", 3), ("disabled.conf", 3)])
  func theImportedEntriesAreWhatKanshiMadeSwayShow(_ name: String, _ count: Int) throws {
    let sway = try SwayCompositor(xwayland: true)
    let shown = try Self.applied(name, outputs: count, on: sway)
    let text = try String(contentsOfFile: Self.folder + "/" + name, encoding: .utf8)
    let result = KanshiImport.read(text, file: name)
    try #require(result.broken.isEmpty && result.profiles.count == 1, "\(result.broken)")
    let entries = result.profiles[0].outputs
    #expect(entries.count == count && shown.count == count, "\(shown)")
    // Xwayland, started now, learns of the outputs a moment after its first client.
    var turns: [String: String] = [:]
    _ = try eventually(within: 10) {
      turns = Self.xrandrTurns(try sway.xClient(["xrandr", "--query"]).out)
      return shown.filter(\.active).allSatisfy { turns["+\($0.rect.x)+\($0.rect.y)"] != nil }
    }
    for entry in entries {
      let output = try #require(Self.connector(entry).flatMap { c in shown.first { $0.name == c } }, "\(entry.text)")
      #expect(entry.enabled == output.active, "\(output.name)")
      guard output.active else { continue }
      let mode = try #require(output.currentMode, "\(output.name) has no mode")
      #expect(entry.x == output.rect.x && entry.y == output.rect.y, "\(output.name): \(output.rect)")
      #expect(entry.width == mode.width && entry.height == mode.height, "\(output.name): \(mode)")
      if let rate = entry.refresh.flatMap(Double.init) {
        #expect(Int((rate * 1000).rounded()) == mode.refresh, "\(output.name): \(mode)")
      }
      #expect(abs(entry.scale - 1 / output.scale) < 1e-6, "\(output.name): sway's scale \(output.scale)")
      // displayd's scale: the monitor shows an area scale × mode (turned a quarter, across).
      let quarter = entry.rotate == .left || entry.rotate == .right
      let (w, h) = quarter ? (mode.height, mode.width) : (mode.width, mode.height)
      #expect(output.rect.width == Int((Double(w) * entry.scale).rounded()), "\(output.name): \(output.rect)")
      #expect(output.rect.height == Int((Double(h) * entry.scale).rounded()), "\(output.name): \(output.rect)")
      let turn = "\(entry.rotate.rawValue) \(entry.reflect.rawValue)"
      #expect(Self.swayTransforms[output.transform] == turn, "\(output.name): sway says \(output.transform)")
      let x = turns["+\(output.rect.x)+\(output.rect.y)"]
      #expect(x == turn, "\(output.name): Xwayland's RandR says \(x ?? "nothing")")
    }
  }
}
