import DisplayModel
import DisplayPorts
import Foundation
import Testing

@testable import DisplayX11

/// `profile save` prints from heads: on random X desks (the heads the RandR backend
/// reports, now and then two CRTCs showing one picture) and random Wayland desks (a
/// compositor's heads, some saying alike) the text is the one a person reviewed once
/// (`Fixtures/golden/save-x.txt`, `save-wayland.txt`; lines joined by `\n`). The text
/// saved, read back as a profile, matches the desk it was saved from.
@Suite struct ProfileSaveGoldenTests {
  static let vendors = ExtrasDeskDraw.vendors

  /// The saved text read back as the config's only profile, matched on the heads it came
  /// from, and planned there: a desk a planner laid out (at 0,0, nothing overlapping) is
  /// left as it is; a random one may be moved.
  struct RoundTrips {
    var matched = 0
    var nothing = 0
    var unmatched: [UInt64] = []
    var note = ""

    mutating func add(_ text: String, _ heads: HeadSnapshot, vendors: PNPVendors, seed: UInt64) throws {
      let config = try Config.parse(Array("{profiles: [\(text)]}".utf8), file: "saved.json5")
      let profile = try #require(config.profiles.first)
      guard case .success(let a) = ProfileMatcher.match(profile, snapshot: heads, lid: .open, vendors: vendors)
      else {
        if unmatched.isEmpty { note = "seed \(seed): \(text)" }
        unmatched.append(seed)
        return
      }
      matched += 1
      let plan = try? ProfilePlanner(snapshot: heads, config: config).plan(profile, assignment: a)
      if let plan, plan.configuration.heads.isEmpty && plan.configuration.primary == nil { nothing += 1 }
    }

    func expectMatches(_ desks: UInt64) {
      #expect(unmatched.isEmpty, "\(unmatched.count) saved profiles do not match their desk: \(note)")
      #expect(matched == Int(desks) && desks > 0)
      #expect(nothing > Int(desks) / 5, "planned again, \(nothing) saved profiles change nothing")
    }

    var summary: String {
      "read back: \(matched) match their desk, \(nothing) planned again change nothing"
    }
  }

  @Test func theRandRBackendsHeadsSaveOnRandomDesks() throws {
    var trips = RoundTrips()
    let seeds = try GoldenDesks.golden("save-x").map(\.seed)
    try GoldenDesks.expectGolden("save-x", minimum: 150) { seed in
      let (heads, text) = Self.savedOnX(seed)
      try trips.add(text, heads, vendors: .none, seed: seed)
      return CheckReportGoldenTests.escaped(text)
    }
    trips.expectMatches(UInt64(seeds.count))
  }

  @Test func waylandHeadsSaveOnRandomDesks() throws {
    var trips = RoundTrips()
    let seeds = try GoldenDesks.golden("save-wayland").map(\.seed)
    try GoldenDesks.expectGolden("save-wayland", minimum: 150) { seed in
      let heads = try Self.waylandDesk(seed: seed)
      let text = ProfileSave.text(name: "desk", snapshot: heads, vendors: Self.vendors)
      try trips.add(text, heads, vendors: Self.vendors, seed: seed)
      return CheckReportGoldenTests.escaped(text)
    }
    trips.expectMatches(UInt64(seeds.count))
  }

  /// A random X desk (now and then two CRTCs aligned), its heads and the profile saved
  /// from them with some output properties.
  static func savedOnX(_ seed: UInt64) -> (HeadSnapshot, String) {
    var r = SimRandom(seed: seed &* 0x2545_F491 &+ 3)
    var (t, _) = ExtrasDeskDraw.xDesk(&r)
    Self.sync(&t)
    if r.chance(15) { Self.alignCrtcs(&t, &r) }
    let heads = RandROutputManager(server: FakeRandRServer(t)).snapshot(t)
    let properties = Self.properties(t.outputs.map(\.name), &r)
    return (heads, ProfileSave.text(name: "desk", snapshot: heads, properties: properties))
  }

  /// Syncs inside the blanking of every mode that has none, as a server's modes have them:
  /// a mode displayd made is saved as its modeline, which must read back.
  static func sync(_ t: inout Topology) {
    for (id, var mode) in t.modes where mode.hSyncStart == 0 && mode.hTotal > mode.width && mode.vTotal > mode.height {
      let (h, v) = ((mode.hTotal - mode.width) / 3, (mode.vTotal - mode.height) / 3)
      (mode.hSyncStart, mode.hSyncEnd) = (mode.width + h, mode.width + 2 * h)
      (mode.vSyncStart, mode.vSyncEnd) = (mode.height + v, mode.height + 2 * v)
      t.modes[id] = mode
    }
  }

  /// A lit CRTC moved onto another's place, in its mode, turn and scale, where its outputs
  /// list that mode: two CRTCs showing one picture.
  static func alignCrtcs(_ t: inout Topology, _ r: inout SimRandom) {
    let lit = t.crtcs.indices.filter { t.crtcs[$0].isActive }
    guard lit.count >= 2 else { return }
    let a = lit[r.below(lit.count)]
    let others = lit.filter { b in
      b != a
        && t.crtcs[b].outputs.allSatisfy { id in
          t.output(id)?.modes.contains(t.crtcs[a].mode ?? ModeID(rawValue: 0)) ?? false
        }
    }
    guard !others.isEmpty else { return }
    let b = r.pick(others)
    let source = t.crtcs[a]
    (t.crtcs[b].x, t.crtcs[b].y, t.crtcs[b].width, t.crtcs[b].height) = (
      source.x, source.y, source.width, source.height
    )
    (t.crtcs[b].mode, t.crtcs[b].rotation, t.crtcs[b].transform) = (source.mode, source.rotation, source.transform)
  }

  /// Properties of some outputs, by name: ones `profile save` writes (an enum, a range) and
  /// ones it does not (immutable, the EDID).
  static func properties(_ names: [String], _ r: inout SimRandom) -> [String: [String: OutputProperty]] {
    var result: [String: [String: OutputProperty]] = [:]
    for name in names where r.chance(30) {
      var set: [String: OutputProperty] = [:]
      if r.chance(70) {
        set["Broadcast RGB"] = OutputProperty(
          name: "Broadcast RGB", type: .atom, format: 32, value: [.text(r.pick(["Full", "Automatic"]))],
          allowed: [.text("Automatic"), .text("Full")])
      }
      if r.chance(50) {
        set["max bpc"] = OutputProperty(
          name: "max bpc", type: .integer, format: 32, value: [.integer(6 + r.below(11))], range: true,
          allowed: [.integer(6), .integer(16)])
      }
      if r.chance(30) {
        set["link-status"] = OutputProperty(
          name: "link-status", type: .atom, format: 32, value: [.text("Good")], allowed: [.text("Good")],
          immutable: true)
      }
      result[name] = set
    }
    return result
  }

  /// A `WireDesk` Wayland desk with makes, models and serials, now and then two heads that
  /// say the same (the connector tells them apart) and a head at another's place in its
  /// mode (a compositor's heads each show their own picture).
  static func waylandDesk(seed: UInt64) throws -> HeadSnapshot {
    var heads = try WireDesk.wayland(seed: seed)
    var r = SimRandom(seed: seed &* 0x9E37_79B9 &+ 5)
    guard heads.heads.count >= 2 else { return heads }
    if r.chance(30) {
      (heads.heads[1].make, heads.heads[1].model, heads.heads[1].serial) = (
        heads.heads[0].make, heads.heads[0].model, heads.heads[0].serial
      )
    }
    if r.chance(20), heads.heads[0].enabled, let mode = heads.heads[0].mode {
      var head = heads.heads[1]
      let alike = { (m: HeadMode) in
        (m.width, m.height, m.refreshMilliHz) == (mode.width, mode.height, mode.refreshMilliHz)
      }
      if !head.modes.contains(where: alike) { head.modes.append(mode) }
      let index = head.modes.firstIndex(where: alike)
      (head.enabled, head.currentMode, head.x, head.y) = (true, index, heads.heads[0].x, heads.heads[0].y)
      (head.transform, head.spelling, head.scale) = (
        heads.heads[0].transform, heads.heads[0].spelling, heads.heads[0].scale
      )
      heads.heads[1] = head
    }
    return heads
  }
}
