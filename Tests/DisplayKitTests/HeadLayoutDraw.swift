import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation

/// Random desks for the lid policy, the layout restore and the built-in layouts, from one
/// seed: RandR desks (`RandomDesk`'s or `DeskDraw`'s) and Wayland desks (`HeadDeskDraw`'s),
/// each with its rules and now and then `lid_closed: "disable"`, a `panel`, a `main`, and a
/// rule with touch devices and properties.
struct HeadLayoutDraw {
  var random: SimRandom
  let seed: UInt64

  init(seed: UInt64) {
    self.seed = seed
    random = SimRandom(seed: seed &* 0x5851_F42D &+ 11)
  }

  /// A RandR desk and its rules.
  mutating func randrDesk() throws -> (Topology, Config, String) {
    let (t, rules): (Topology, String)
    if random.chance(50) {
      t = RandomDesk.topology(&random)
      rules = RandomDesk.rules(t, &random)
    } else {
      var draw = DeskDraw(seed: seed)
      (t, rules) = (try draw.desk().0, draw.configText)
    }
    let text = config(rules, names: t.outputs.map(\.name))
    return (t, try Config.parse(Array(text.utf8), file: "layout.json5"), text)
  }

  /// A Wayland desk and its rules, with the topology the Wayland daemon reads of it.
  mutating func waylandDesk() throws -> (HeadSnapshot, Topology, Config, String) {
    var draw = HeadDeskDraw(seed: seed)
    let snapshot = try draw.desk().0
    let text = config(draw.rules.configText, names: snapshot.heads.map(\.name))
    return (snapshot, Self.topology(snapshot), try Config.parse(Array(text.utf8), file: "layout.json5"), text)
  }

  /// A RandR desk or a Wayland one, with its topology and its heads.
  mutating func eitherDesk() throws -> (Topology, HeadSnapshot, Config, String) {
    if random.chance(50) {
      let (snapshot, t, config, text) = try waylandDesk()
      return (t, snapshot, config, text)
    }
    let (t, config, text) = try randrDesk()
    return (t, HeadSnapshot(topology: t), config, text)
  }

  /// The heads as the Wayland daemon's server reads them: no screen maximum but the protocol's.
  static func topology(_ snapshot: HeadSnapshot) -> Topology {
    var t = Topology(heads: snapshot)
    (t.screen.maxWidth, t.screen.maxHeight) = (Int(Int16.max), Int(Int16.max))
    return t
  }

  /// The rules' text with the lid, panel, main and extras keys drawn into it.
  mutating func config(_ rules: String, names: [String]) -> String {
    var text = rules
    if random.chance(80) {
      text =
        text.contains("defaults: {")
        ? text.replacingOccurrences(of: "defaults: {", with: "defaults: {lid_closed: 'disable', ")
        : "{defaults: {lid_closed: 'disable'}, " + text.dropFirst()
    }
    if random.chance(15) { text = "{panel: '\(random.pick(names))', " + text.dropFirst() }
    if random.chance(15) && !text.contains("main:") { text = "{main: '\(random.pick(names))', " + text.dropFirst() }
    if random.chance(20) {
      let rule = "{match: {output: '\(random.pick(names))'}, touch: ['ELAN*'], properties: {'Broadcast RGB': 'Full'}}"
      text = text.replacingOccurrences(of: "monitors: [", with: "monitors: [\(rule), ")
    }
    return text
  }

  /// A place the panel had before, or none.
  mutating func previous(_ panel: Rect?) -> Rect? {
    switch random.below(3) {
    case 0: return nil
    case 1: return panel ?? Rect(x: 0, y: 0, width: 1920, height: 1080)
    default: return Rect(x: random.below(400) * 10, y: random.below(200) * 10, width: 1920, height: 1080)
    }
  }

  /// What a desk became under a manual choice: a built-in layout or a profile applied, or
  /// nothing; then now and then a monitor unplugged (still lit), swapped for another, one
  /// plugged, a mode it no longer lists, a CRTC moved by someone else.
  mutating func manual(_ saved: Topology, _ config: Config) -> Topology {
    var now = saved
    switch random.below(3) {
    case 0:
      if case .success(let made) = BuiltinLayouts.profile(
        random.pick(BuiltinLayout.allCases), topology: saved, config: config),
        let plan = try? ProfilePlanner(topology: saved, config: config).plan(made.profile, assignment: made.assignment)
      {
        now = saved.after(plan)
      }
    case 1:
      if let profiled = try? Config.parse(Array(RandomDesk.profile(saved, &random).utf8), file: "p.json5"),
        let profile = profiled.profiles.first,
        case .success(let assignment) = ProfileMatcher.match(profile, topology: saved, lid: .open),
        let plan = try? ProfilePlanner(topology: saved, config: profiled).plan(profile, assignment: assignment)
      {
        now = saved.after(plan)
      }
    default: break
    }
    perturb(&now)
    return now
  }

  mutating func perturb(_ t: inout Topology) {
    guard !t.outputs.isEmpty else { return }
    let i = random.below(t.outputs.count)
    if random.chance(15) { t.outputs[i].connection = t.outputs[i].isConnected ? .disconnected : .connected }
    if random.chance(10) { t.outputs[i].edid = random.chance(20) ? nil : random.pick(DeskDraw.edids) }
    if random.chance(10), let current = t.currentMode(of: t.outputs[i])?.id ?? t.outputs[i].modes.first {
      let others = t.outputs[i].modes.filter { $0 != current }
      if !others.isEmpty { t.outputs[i].modes.removeAll { $0 == random.pick(others) } }
    }
    if random.chance(10), let c = t.crtcs.indices.first(where: { t.crtcs[$0].isActive }) {
      t.crtcs[c].x += 100
    }
  }

  /// What heads became under a manual choice on Wayland: heads turned off or on, moved,
  /// in another mode, turned or scaled otherwise, another monitor on a connector, one
  /// unplugged, one plugged.
  mutating func manual(_ saved: HeadSnapshot) -> HeadSnapshot {
    var now = saved
    now.heads = saved.heads.compactMap { head in random.chance(5) ? nil : perturbed(head) }
    if random.chance(5) {
      var plugged = Head(
        name: "DP-9", modes: [HeadMode(width: 1280, height: 1024, refreshMilliHz: 75000, preferred: true)])
      (plugged.enabled, plugged.currentMode, plugged.x) = (true, 0, 9000)
      now.heads.append(plugged)
    }
    if random.chance(10) { now.primary = now.heads.isEmpty ? nil : random.pick(now.heads).name }
    return now
  }

  mutating func perturbed(_ head: Head) -> Head {
    var head = head
    if random.chance(20) {
      head.enabled.toggle()
      head.currentMode = head.enabled && !head.modes.isEmpty ? random.below(head.modes.count) : nil
      (head.transform, head.scale) = (.normal, 1)
      head.enabled = head.currentMode != nil
    }
    if head.enabled, random.chance(20) { (head.x, head.y) = (random.below(400) * 10, random.below(200) * 10) }
    if head.enabled, random.chance(15) { head.currentMode = random.below(head.modes.count) }
    if head.enabled, random.chance(10) {
      head.transform = random.pick(HeadTransform.allCases.filter(head.capabilities.transforms.contains))
      head.scale = head.capabilities.scaling ? random.pick([1, 0.5, 2]) : 1
    }
    if random.chance(5) { (head.make, head.model, head.serial) = ("DEL", "U2720Q", "") }
    return head
  }
}
