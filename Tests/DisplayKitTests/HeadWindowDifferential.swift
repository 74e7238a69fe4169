import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing

/// What the daemon asks of a desk to decide its surfaces (main, the panel, main with the
/// panel turning off, the built-in layouts' main, the wanted windows) over heads beside the
/// same over RandR's topology, on one desk: compared by name, the windows field by field.
/// A desk heads cannot say is left out with its reason; a deliberate difference is named.
enum HeadWindowDifferential {
  enum Verdict: Equatable {
    /// Every answer the same; this many windows.
    case same(windows: Int)
    case excluded(String)
    case deliberate(String)
    case differs([String])
  }

  /// `lid`: draws the head main is found without, and the profile (with an assignment)
  /// main follows, for `LidPolicy.main`.
  static func verdict(_ t: Topology, _ snapshot: HeadSnapshot, _ config: Config, lid r: inout SimRandom) -> Verdict {
    if let why = unsayable(t, snapshot) { return .excluded(why) }
    var problems: [String] = []
    func same(_ what: String, _ old: Output?, _ new: Head?) {
      if old?.name != new?.name { problems.append("\(what) \(old?.name ?? "-") vs \(new?.name ?? "-")") }
    }
    same("main", config.mainOutput(in: t), config.mainOutput(in: snapshot))
    same("panel", LidPolicy.panel(in: t, config: config), LidPolicy.panel(in: snapshot, config: config))
    same("layout main", BuiltinLayouts.main(in: t, config: config), BuiltinLayouts.main(in: snapshot, config: config))
    let (profile, order) = profile(t, &r)
    let without = r.chance(50) ? r.pick(t.connectedOutputs + t.outputs) : nil
    same(
      "lid main",
      LidPolicy.main(
        topology: t, config: config, profile: profile,
        assignment: profile.map { _ in ProfileAssignment(outputs: order.map(\.id)) },
        without: without?.id),
      LidPolicy.main(
        snapshot: snapshot, config: config, profile: profile,
        assignment: profile.map { _ in HeadProfileAssignment(heads: order.map(\.name)) }, without: without?.name))
    let old = config.wantedWindows(in: t)
    let new = config.wantedWindows(in: snapshot)
    if old.map(\.output.name) != new.map(\.head) {
      problems.append("windows \(old.map(\.output.name)) vs \(new.map(\.head))")
    } else {
      for (a, b) in zip(old, new) { problems += compare(a, b, t) }
    }
    return problems.isEmpty ? .same(windows: new.count) : .differs(problems)
  }

  /// Why heads cannot say this topology, nil when they can.
  static func unsayable(_ t: Topology, _ snapshot: HeadSnapshot) -> String? {
    if Set(t.outputs.map(\.name)).count != t.outputs.count { return "two outputs share a name" }
    for output in t.outputs where t.geometry(of: output) != snapshot.head(named: output.name)?.rect {
      return "a lit CRTC's extent no head mode and scale make"
    }
    return nil
  }

  /// The fields that differ, as lines.
  static func compare(_ a: WindowWanted, _ b: HeadWindowWanted, _ t: Topology) -> [String] {
    var problems: [String] = []
    func check<T: Equatable>(_ field: String, _ x: T, _ y: T) {
      if x != y { problems.append("\(b.head) \(field): \(x) vs \(y)") }
    }
    check("rect", a.rect, b.rect)
    check("level", a.level, b.level)
    check("content", a.content, b.content)
    check("mirror", a.mirror, b.mirror)
    check("filter", a.filter, b.filter)
    check("cursor", a.cursor, b.cursor)
    check("source", a.mirrorSource.flatMap { t.output($0)?.name }, b.mirrorSource)
    check("refusal", a.refusal, b.refusal)
    // The port says a refresh in mHz.
    if abs(a.refreshHz - b.refreshHz) > 0.0005 {
      problems.append("\(b.head) refresh: \(a.refreshHz) vs \(b.refreshHz)")
    }
    check("picture", a.picture, b.picture)
    return problems
  }

  /// Now and then a profile naming the connected outputs in a drawn order (its entries
  /// sometimes off), with the order as its assignment: `LidPolicy.main` only reads them
  /// side by side.
  static func profile(_ t: Topology, _ r: inout SimRandom) -> (Profile?, [Output]) {
    guard r.chance(50) else { return (nil, []) }
    var order = t.connectedOutputs
    for i in order.indices.reversed() { order.swapAt(i, r.below(i + 1)) }
    var profile = Profile(name: "p")
    profile.outputs = order.map { output in
      var entry = ProfileOutput()
      entry.match.output = output.name
      if r.chance(30) { entry.enabled = false }
      return entry
    }
    return (profile, order)
  }

  /// Varies what the answers read of a config: `main`, `panel`, the details line, and each
  /// rule's (and the defaults') content, level and mirror; sometimes a mirror rule more.
  static func vary(_ config: inout Config, names: [String], _ r: inout SimRandom) {
    let some = names + ["VGA-9"]
    if r.chance(20) { config.main = r.pick(some) }
    if r.chance(20) { config.panel = r.pick(some) }
    if r.chance(20) { config.placeholder.details = false }
    if r.chance(15) { config.defaults.content = r.pick(ContentKind.allCases) }
    if r.chance(20) { config.defaults.mirror = mirror(some, &r) }
    for i in config.monitors.indices where r.chance(40) {
      config.monitors[i].content = r.pick([.mirror, .mirror, .placeholder, .none])
      if r.chance(70) { config.monitors[i].mirror = mirror(some, &r) }
      if r.chance(20) { config.monitors[i].level = r.pick(WindowLevel.allCases) }
    }
    for _ in 0..<(r.chance(40) ? 1 + r.below(3) : 0) {
      var rule = MonitorRule()
      rule.match.output = r.pick(some)
      rule.content = .mirror
      rule.mirror = mirror(some, &r)
      config.monitors.insert(rule, at: r.below(config.monitors.count + 1))
    }
  }

  static func mirror(_ names: [String], _ r: inout SimRandom) -> MirrorOptions {
    var options = MirrorOptions()
    options.source = r.chance(40) ? "main" : r.pick(names)
    options.scale = r.pick(MirrorScale.allCases)
    options.filter = r.pick(MirrorFilter.allCases)
    options.cursor = r.chance(70)
    return options
  }

  /// Many desks' verdicts, counted by kind, the differing ones as lines naming their seed.
  struct Tally {
    var counts: [String: Int] = [:]
    var failures: [String] = []

    mutating func add(_ verdict: Verdict, seed: UInt64) {
      switch verdict {
      case .same(let windows): counts[windows == 0 ? "same, no window" : "same", default: 0] += 1
      case .excluded(let why): counts["excluded: " + why, default: 0] += 1
      case .deliberate(let why): counts["deliberate: " + why, default: 0] += 1
      case .differs(let problems): failures.append("seed \(seed): \(problems.joined(separator: "; "))")
      }
    }

    /// No desk differs, and more than `minimumSame` desks have windows and agree on them.
    func expectAgreement(of desks: Int, _ kind: String, minimumSame: Int) {
      #expect(failures.isEmpty, "\(failures.count) desks differ:\n\(failures.prefix(5).joined(separator: "\n"))")
      #expect(counts["same", default: 0] > minimumSame, "\(counts)")
      print("window policy differential over \(desks) \(kind): \(counts.sorted { $0.key < $1.key })")
    }
  }
}
