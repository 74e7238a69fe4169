import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing

/// The profile planner over heads on random desks and random profiles (seeded: a failing
/// seed is printed and replays): what holds on every desk.
@Suite struct ProfilePlannerOverHeadsTests {
  /// Desks a run draws; `DISPLAYD_HEADPROFILE_DESKS` draws more (from `DISPLAYD_HEADPROFILE_SEED`).
  static let desks = Int(ProcessInfo.processInfo.environment["DISPLAYD_HEADPROFILE_DESKS"] ?? "") ?? 3000
  static let firstSeed = UInt64(ProcessInfo.processInfo.environment["DISPLAYD_HEADPROFILE_SEED"] ?? "") ?? 1
}

/// A random RandR desk (`RandomDesk`'s or `DeskDraw`'s, with EDIDs, non-desktop outputs,
/// shared CRTCs and small maximum screens) and a profile over its monitors: `RandomDesk`'s,
/// or one with aliases, wildcards, points, `main` as an anchor, reflections, scale filters,
/// `arrange` and `align`. From one seed.
struct ProfileDraw {
  var random: SimRandom
  let seed: UInt64
  var lid = LidState.open

  init(seed: UInt64) {
    self.seed = seed
    random = SimRandom(seed: seed &* 0x2545_F491 &+ 3)
  }

  mutating func desk() throws -> (Topology, String) {
    var topology: Topology
    if random.chance(50) {
      topology = RandomDesk.topology(&random)
    } else {
      var rules = DeskDraw(seed: seed)
      topology = try rules.desk().0
    }
    lid = random.chance(30) ? .closed : .open
    let text = random.chance(40) ? RandomDesk.profile(topology, &random) : profile(topology)
    return (topology, text)
  }

  /// CRTCs that refuse transforms, now and then.
  mutating func noTransform(_ t: Topology) -> Set<CrtcID> {
    guard random.chance(15) else { return [] }
    return Set(t.crtcs.filter { _ in random.chance(50) }.map(\.id))
  }

  mutating func profile(_ t: Topology) -> String {
    profile(
      desk: t.connectedOutputs.filter { !$0.nonDesktop }.map(\.name).sorted(), all: t.outputs.map(\.name))
  }

  /// A profile over a wlroots desk's heads, drawn as over a topology of the same outputs.
  mutating func profile(_ snapshot: HeadSnapshot) -> String {
    profile(
      desk: snapshot.heads.filter { $0.connected && !$0.nonDesktop }.map(\.name).sorted(),
      all: snapshot.heads.map(\.name))
  }

  /// `desk`: the connected desktop outputs by name, `all`: every output in order.
  mutating func profile(desk: [String], all: [String]) -> String {
    var entries: [String] = []
    var named: [String] = []
    var primary = false
    for (i, name) in desk.enumerated() {
      var keys: [String] = []
      if random.chance(88) {
        keys.append("match: {output: '\(name)'}")
        named.append(name)
      } else {
        keys.append("match: {output: '\(random.pick(["*", "*-?", String(name.prefix(2)) + "*"]))'}")
      }
      if random.chance(20) {
        keys.append("alias: 'a\(i)'")
        named.append("a\(i)")
      }
      keys += modeKeys()
      if let position = position(earlier: named.filter { $0 != name && $0 != "a\(i)" }) {
        keys.append("position: '\(position)'")
      }
      keys += transformKeys()
      if random.chance(10) { keys.append("enabled: \(random.chance(70) ? "false" : "true")") }
      if !primary && random.chance(15) {
        keys.append("primary: true")
        primary = true
      }
      entries.append("{" + keys.joined(separator: ", ") + "}")
    }
    var options = ""
    if random.chance(25) { options += ", arrange: 'column'" }
    if random.chance(30) { options += ", align: '\(random.pick(["center", "end"]))'" }
    if random.chance(25) { options += ", dpi: \(random.pick(["96", "144", "'auto'"]))" }
    var top: [String] = []
    if random.chance(30) { top.append("defaults: {lid_closed: 'disable'}") }
    if random.chance(10) { top.append("main: '\(random.pick(all))'") }
    if random.chance(5) { top.append("panel: '\(random.pick(all))'") }
    top.append("profiles: [{name: 'p'\(options), outputs: [" + entries.joined(separator: ", ") + "]}]")
    return "{" + top.joined(separator: ", ") + "}"
  }

  mutating func modeKeys() -> [String] {
    guard random.chance(35) else { return [] }
    let modes = ["1280x1024", "1024x768", "1920x1080@50", "1920x1080", "1280x720", "3840x2160", "1366x768"]
    if random.chance(10) { return ["mode: '1600x700'", "custom: true"] }
    return ["mode: '\(random.pick(modes + ["highest", "keep", "preferred"]))'"]
  }

  /// A point, or a side of (or the same as) an earlier entry or main; nil now and then.
  mutating func position(earlier: [String]) -> String? {
    guard random.chance(60) else { return nil }
    if random.chance(15) { return "\(random.below(30) * 100),\(random.below(20) * 100)" }
    let targets = earlier + ["main"]
    let relation = random.pick(["same-as", "same-as", "right-of", "left-of", "above", "below"])
    return relation + " " + (earlier.isEmpty || random.chance(20) ? "main" : random.pick(targets))
  }

  mutating func transformKeys() -> [String] {
    var keys: [String] = []
    if random.chance(18) { keys.append("rotate: '\(random.pick(["left", "right", "inverted", "normal"]))'") }
    if random.chance(8) { keys.append("reflect: '\(random.pick(["x", "y", "xy"]))'") }
    if random.chance(18) { keys.append("scale: \(random.pick(["0.5", "0.75", "1.5", "2", "1.25", "1"]))") }
    if random.chance(5) { keys.append("scale_filter: 'nearest'") }
    return keys
  }
}

extension ProfilePlannerOverHeadsTests {
  /// A Wayland desk, a profile over it, and the desk after the fake compositor applied the
  /// profile's configuration (nil where it is refused or cannot say it).
  static func applied(_ seed: UInt64) throws -> (HeadSnapshot, Config, Profile, LidState, String)? {
    var heads = HeadDeskDraw(seed: seed, scaledArea: .logical)
    let snapshot = try heads.desk().0
    var draw = ProfileDraw(seed: seed)
    let text = draw.profile(snapshot)
    let config = try Config.parse(Array(text.utf8), file: "profile.json5")
    let profile = try #require(config.profiles.first)
    let lid: LidState = draw.random.chance(30) ? .closed : .open
    guard case .success(let assignment) = ProfileMatcher.match(profile, snapshot: snapshot, lid: lid),
      let plan = try? ProfilePlanner(snapshot: snapshot, config: config, lid: lid).plan(
        profile, assignment: assignment),
      // The fake compositor has one scale per head. A size a head makes is asked for again
      // (the mode policy asks a head that makes any size for the size, not for a mode it
      // made before), and a mode without a refresh is one of any refresh to the backend.
      !plan.configuration.heads.contains(where: { $0.scaleY != nil || Self.isAnyOfItsSize($0.mode) }),
      case .success(let after) = FakeOutputManager.configure(
        snapshot.heads, plan.configuration, generation: snapshot.generation)
    else { return nil }
    let primary = plan.configuration.primary ?? snapshot.primary
    return (HeadSnapshot(heads: after, primary: primary, generation: snapshot.generation), config, profile, lid, text)
  }

  static func isAnyOfItsSize(_ request: HeadModeRequest?) -> Bool {
    switch request {
    case .custom: return true
    case .listed(_, _, let refresh): return refresh == 0
    case nil: return false
    }
  }

  @Test func aProfilePlannedAgainAfterItsConfigurationIsAppliedChangesNothing() throws {
    var planned = 0
    for seed in Self.firstSeed..<Self.firstSeed + UInt64(Self.desks) {
      guard let (after, config, profile, lid, text) = try Self.applied(seed) else { continue }
      let assignment = try ProfileMatcher.match(profile, snapshot: after, lid: lid).get()
      let again = try ProfilePlanner(snapshot: after, config: config, lid: lid).plan(
        profile, assignment: assignment)
      planned += 1
      #expect(
        again.configuration.heads.isEmpty && again.configuration.primary == nil,
        "seed \(seed): \(again.configuration.heads) \(String(describing: again.configuration.primary))\n  \(text)")
    }
    #expect(planned > Self.desks / 3)
    print("head profile planner planned again after applying on \(planned) of \(Self.desks) Wayland desks")
  }
}
