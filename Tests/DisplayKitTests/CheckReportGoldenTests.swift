import DisplayCLI
import DisplayModel
import DisplayPorts
import Foundation
import Testing

@testable import DisplayX11

/// `check-config` and `apply --dry-run` print their report from the heads the daemon reads:
/// on random RandR desks (as the X backend reports their heads) and wlroots desks, with random
/// rules or a profile, the lid open or closed, the report is the one a person reviewed once
/// (`Fixtures/golden/check-x.txt`, `check-wayland.txt`; the report's lines joined by `\n`).
@Suite struct CheckReportGoldenTests {
  @Test func theReportOverRandRDesksHeads() throws {
    try GoldenDesks.expectGolden("check-x", minimum: 150) { try Self.escaped(Self.reportOnX($0)) }
  }

  @Test func theReportOverWaylandDesksHeads() throws {
    try GoldenDesks.expectGolden("check-wayland", minimum: 150) { try Self.escaped(Self.reportOnWayland($0)) }
  }

  /// A RandR desk, now and then with EDIDs, as `RandROutputManager` reads its heads.
  static func reportOnX(_ seed: UInt64) throws -> String {
    var draw = HeadLayoutDraw(seed: seed)
    var (t, _, text) = try draw.randrDesk()
    for i in t.outputs.indices where draw.random.chance(30) { t.outputs[i].edid = draw.random.pick(DeskDraw.edids) }
    text = profiled(text, t.connectedOutputs.map(\.name), &draw.random)
    let config = try Config.parse(Array(text.utf8), file: "check.json5")
    let lid: LidState = draw.random.chance(50) ? .closed : .open
    let heads = try RandROutputManager(server: FakeRandRServer(t)).heads(probe: false)
    return CheckReport.text(config: config, snapshot: heads, lid: lid)
  }

  /// A wlroots desk as the output-manager layout reads its heads (bounded, on a screen), makes standing for vendors.
  static func reportOnWayland(_ seed: UInt64) throws -> String {
    var draw = HeadLayoutDraw(seed: seed)
    let (snapshot, _, rules) = try draw.waylandDesk()
    let layout = OutputManagerLayout(FakeOutputManager(snapshot.heads), desk: PortDisplayServer.desk)
    let heads = try layout.read()
    let text = profiled(rules, heads.heads.map(\.name), &draw.random)
    let config = try Config.parse(Array(text.utf8), file: "check.json5")
    let lid: LidState = draw.random.chance(50) ? .closed : .open
    return CheckReport.text(config: config, snapshot: heads, lid: lid, vendors: layout.vendors(of: heads))
  }

  /// A multi-line report as one golden line.
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
  }

  /// Half the configs: a profile over the connected monitors (now and then one that cannot
  /// match, before it), with a `main` or a `panel` now and then.
  static func profiled(_ rules: String, _ names: [String], _ r: inout SimRandom) -> String {
    guard r.chance(50) else { return rules }
    var text = profile(names, &r)
    if r.chance(25) {
      text = text.replacingOccurrences(
        of: "profiles: [", with: "profiles: [{name: 'none', outputs: [{match: {output: 'VGA-9'}}]}, ")
    }
    if r.chance(20), !names.isEmpty { text = "{main: '\(names[r.below(names.count)])', " + text.dropFirst() }
    if r.chance(20), !names.isEmpty { text = "{panel: '\(names[r.below(names.count)])', " + text.dropFirst() }
    return text
  }

  /// One profile over `names`: modes, positions after earlier entries, rotations, scales,
  /// entries off, a primary, a DPI and the lid's default now and then.
  static func profile(_ names: [String], _ r: inout SimRandom) -> String {
    var entries: [String] = []
    var primary = false
    for (i, name) in names.enumerated() {
      var keys = ["match: {output: '\(name)'}"]
      if r.chance(25) { keys.append("mode: '\(r.pick(["1280x1024", "1024x768", "1920x1080@50", "1280x720"]))'") }
      if i > 0 && r.chance(50) {
        let position = r.pick(["same-as", "same-as", "right-of", "below", "left-of"]) + " " + names[r.below(i)]
        keys.append("position: '\(r.chance(15) ? "0,0" : position)'")
      }
      if r.chance(15) { keys.append("rotate: '\(r.pick(["left", "inverted"]))'") }
      if r.chance(15) { keys.append("scale: \(r.pick(["0.5", "1.5", "2"]))") }
      if r.chance(10) { keys.append("enabled: false") }
      if !primary && r.chance(15) {
        keys.append("primary: true")
        primary = true
      }
      entries.append("{" + keys.joined(separator: ", ") + "}")
    }
    let dpi = r.chance(25) ? ", dpi: \(r.pick(["96", "144", "'auto'"]))" : ""
    let lid = r.chance(30) ? "defaults: {lid_closed: 'disable'}, " : ""
    return "{\(lid)profiles: [{name: 'p'\(dpi), outputs: [" + entries.joined(separator: ", ") + "]}]}"
  }
}
