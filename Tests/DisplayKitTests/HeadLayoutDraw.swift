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

  /// A Wayland desk and its rules.
  mutating func waylandDesk() throws -> (HeadSnapshot, Config, String) {
    var draw = HeadDeskDraw(seed: seed)
    let snapshot = try draw.desk().0
    let text = config(draw.rules.configText, names: snapshot.heads.map(\.name))
    return (snapshot, try Config.parse(Array(text.utf8), file: "layout.json5"), text)
  }

  /// The rules, now and then with `lid_closed: "disable"`, a `panel`, a `main`, and a rule
  /// with touch devices and properties.
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

  /// The desk changed by hand: heads turned on or off, moved, turned, scaled, another
  /// monitor on a connector, one unplugged, one plugged, the primary moved.
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
      head.transform = random.pick(Transform.allCases.filter(head.capabilities.transforms.contains))
      head.scale = head.capabilities.scaling ? random.pick([1, 0.5, 2]) : 1
    }
    if random.chance(5) { (head.make, head.model, head.serial) = ("DEL", "U2720Q", "") }
    return head
  }
}
