import DisplayCLI
import DisplayModel
import DisplayPorts
import Foundation
import Testing

@testable import DisplayX11

/// `check-config` and `apply --dry-run` print their report from the heads the daemon reads,
/// and its bytes are those the report over RandR's topology (`CheckReportReference`) gives on
/// random RandR and Wayland desks, with random rules or a profile, the lid open or closed
/// (seeded: the first differing seed is printed and replays).
@Suite struct CheckReportOverHeads {
  /// Desks a run draws; `DISPLAYD_CHECKREPORT_DESKS` draws more.
  static let desks = UInt64(ProcessInfo.processInfo.environment["DISPLAYD_CHECKREPORT_DESKS"] ?? "") ?? 3000

  /// The desks the reports agree on, those left out (by reason), and those they differ on,
  /// with the first one's texts.
  struct Tally {
    var same = 0
    var profiles = 0
    var excluded: [String: Int] = [:]
    var differ: [UInt64] = []
    var first = ""

    mutating func add(_ old: String, _ new: String, seed: UInt64, config: String, excluding why: String?) {
      profiles += old.hasPrefix("lid: ") ? 1 : 0
      if old == new {
        same += 1
      } else if let why {
        excluded[why, default: 0] += 1
      } else {
        if differ.isEmpty { first = "seed \(seed): \(config)\n--- topology\n\(old)--- heads\n\(new)" }
        differ.append(seed)
      }
    }

    func expectAgreement(_ what: String) {
      #expect(differ.isEmpty, "\(differ.count) of \(desks) \(what) differ, seeds \(differ.prefix(8))\n\(first)")
      #expect(profiles > Int(desks) / 4, "profiles were explained")
      #expect(same > Int(desks) * 3 / 4, "most desks print alike")
      let left = excluded.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: "; ")
      print(
        "check-config over heads: \(same) of \(desks) \(what) print alike, \(profiles) with profiles; "
          + "left out where the planners differ: \(left.isEmpty ? "none" : left)")
    }
  }

  /// Why the plans behind the two reports may differ on this desk (the planner
  /// differentials' reasons: RandR's CRTCs and screen, documented differences; and
  /// transform warnings, which each planner words for its backend), nil when they agree.
  static func planDifference(_ t: Topology, _ config: Config, _ heads: HeadSnapshot, lid: LidState) -> String? {
    typealias D = HeadPlanDifferential
    let verdict: D.Verdict
    var warnings: [PlanWarning]
    if config.profiles.isEmpty {
      verdict = D.verdict(t, config, heads: heads)
      warnings = Planner(topology: t, config: config).plan(settled: []).warnings
      warnings += HeadPlanner(snapshot: heads, config: config).plan().warnings
    } else {
      let chosen = config.profiles.lazy.compactMap { profile in
        if case .success(let a) = ProfileMatcher.match(profile, topology: t, lid: lid) { (profile, a) } else { nil }
      }.first
      guard let (profile, assignment) = chosen else { return nil }
      verdict = HeadProfileDifferential.verdict(t, config, profile, lid: lid, heads: heads)
      let planner = ProfilePlanner(topology: t, config: config, lid: lid)
      warnings = (try? planner.plan(profile, assignment: assignment))?.warnings ?? []
      let headPlanner = HeadProfilePlanner(snapshot: heads, config: config, lid: lid)
      if case .success(let b) = HeadProfileMatcher.match(profile, snapshot: heads, lid: lid) {
        warnings += (try? headPlanner.plan(profile, assignment: b))?.warnings ?? []
      }
    }
    switch verdict {
    case .excluded(let why), .deliberate(let why): return why
    case .differs(let problems): return "the planners differ (\(problems.first ?? ""))"
    case .same, .refusedAlike:
      return warnings.contains(where: D.isTransformWarning) ? "a transform warning, worded per backend" : nil
    }
  }

  @Test func theRandRBackendsHeadsPrintTheTopologysReportOnRandomDesks() throws {
    var tally = Tally()
    for seed in 1...Self.desks {
      var draw = HeadLayoutDraw(seed: seed)
      var (t, _, text) = try draw.randrDesk()
      for i in t.outputs.indices where draw.random.chance(30) { t.outputs[i].edid = draw.random.pick(DeskDraw.edids) }
      text = Self.profiled(text, t, &draw.random)
      let config = try Config.parse(Array(text.utf8), file: "check.json5")
      let lid: LidState = draw.random.chance(50) ? .closed : .open
      let heads = try RandROutputManager(server: FakeRandRServer(t)).heads(probe: false)
      let old = CheckReportReference.text(config: config, topology: t, lid: lid)
      let new = CheckReport.text(config: config, snapshot: heads, lid: lid)
      let why = Self.planDifference(t, config, heads, lid: lid)
      tally.add(old, new, seed: seed, config: text, excluding: why)
    }
    tally.expectAgreement("desks")
  }

  @Test func waylandHeadsPrintTheirTopologysReportOnRandomDesks() throws {
    var tally = Tally()
    for seed in 1...Self.desks {
      var draw = HeadLayoutDraw(seed: seed)
      let (snapshot, _, rules) = try draw.waylandDesk()
      // As the Wayland daemon reads the desk: the bridge's topology and the heads it kept.
      let layout = OutputManagerLayout(FakeOutputManager(snapshot.heads), desk: PortDisplayServer.desk)
      let t = try layout.snapshot(ReadOptions())
      let heads = layout.heads(holding: .none)
      let text = Self.profiled(rules, t, &draw.random)
      let config = try Config.parse(Array(text.utf8), file: "check.json5")
      let lid: LidState = draw.random.chance(50) ? .closed : .open
      let old = CheckReportReference.text(config: config, topology: t, lid: lid)
      let new = CheckReport.text(config: config, snapshot: heads, lid: lid, vendors: layout.vendors(of: heads))
      tally.add(old, new, seed: seed, config: text, excluding: Self.planDifference(t, config, heads, lid: lid))
    }
    tally.expectAgreement("Wayland desks")
  }

  /// Half the configs: a profile over the connected outputs (now and then one that cannot
  /// match, before it), with a `main` or a `panel` now and then.
  static func profiled(_ rules: String, _ t: Topology, _ r: inout SimRandom) -> String {
    guard r.chance(50) else { return rules }
    var text = RandomDesk.profile(t, &r)
    if r.chance(25) {
      text = text.replacingOccurrences(
        of: "profiles: [", with: "profiles: [{name: 'none', outputs: [{match: {output: 'VGA-9'}}]}, ")
    }
    if r.chance(20), let name = t.outputs.randomName(&r) { text = "{main: '\(name)', " + text.dropFirst() }
    if r.chance(20), let name = t.outputs.randomName(&r) { text = "{panel: '\(name)', " + text.dropFirst() }
    return text
  }
}

extension [Output] {
  fileprivate func randomName(_ r: inout SimRandom) -> String? { isEmpty ? nil : self[r.below(count)].name }
}
