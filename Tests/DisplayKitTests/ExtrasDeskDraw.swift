import DisplayPorts
import Foundation

@testable import DisplayModel
@testable import DisplayX11

/// Random configs asking properties and touch of a desk's outputs (by name, glob or what the
/// monitor says, some rules ignoring theirs), a profile in force or not with heads that may
/// be gone, and the pointer devices present; and what the extras plan answers on them.
enum ExtrasDeskDraw {
  static let globs = ["ELAN*", "Wacom*", "*", "Nothing*", "*Pen*"]
  static let devices = [
    InputDevice(id: 10, name: "ELAN Touchscreen"), InputDevice(id: 11, name: "Wacom Pen stylus"),
    InputDevice(id: 12, name: "Wacom Pen eraser"), InputDevice(id: 13, name: "Virtual core XTEST pointer"),
  ]
  static let vendors = PNPVendors(pnpIDs: "ACR\tAcer\nAUS\tASUSTek Computer Inc\nAPP\tApple\n")

  /// `properties: {...}, touch: [...]`, either or both.
  static func extras(_ r: inout SimRandom) -> String {
    var keys: [String] = []
    if r.chance(60) { keys.append("properties: {'Broadcast RGB': 'Full', 'max bpc': \(6 + r.below(11))}") }
    if keys.isEmpty || r.chance(60) {
      let touch = (0...r.below(2)).map { _ in "'\(r.pick(globs))'" }
      keys.append("touch: [" + touch.joined(separator: ", ") + "]")
    }
    return keys.joined(separator: ", ")
  }

  /// Rules over `names` (some not present), and sometimes a profile with an entry each.
  static func config(_ names: [String], _ r: inout SimRandom) throws -> Config {
    var rules: [String] = []
    for _ in 0..<r.below(5) {
      let match =
        r.chance(20)
        ? DeskDraw.identities[r.below(DeskDraw.identities.count)]
        : "output: '\(r.chance(15) ? r.pick(["*", "DP-*", "e*"]) : r.pick(names + ["GONE-1"]))'"
      var keys = ["match: {\(match)}"]
      if r.chance(10) { keys.append("ignore: true") }
      if r.chance(80) { keys.append(extras(&r)) }
      rules.append("{" + keys.joined(separator: ", ") + "}")
    }
    let entries = (0..<1 + r.below(3)).map { _ in
      "{match: {output: '*'}" + (r.chance(70) ? ", " + extras(&r) : "") + "}"
    }
    let profiles = r.chance(50) ? "profiles: [{name: 'p', outputs: [" + entries.joined(separator: ", ") + "]}]" : ""
    let text = "{monitors: [" + rules.joined(separator: ", ") + "], " + profiles + "}"
    return try Config.parse(Array(text.utf8), file: "extras.json5")
  }

  /// The config's profile in force about half the time, its entries on names drawn from the
  /// desk (a gone head among them).
  static func profile(_ config: Config, _ names: [String], _ r: inout SimRandom) -> (Profile, ProfileAssignment)? {
    guard let profile = config.profiles.first, r.chance(70) else { return nil }
    return (profile, ProfileAssignment(heads: profile.outputs.map { _ in r.pick(names + ["GONE-1"]) }))
  }

  /// A `WireDesk` X desk, some lit CRTCs scaled through their transform (the extent the
  /// server gives a scaled CRTC), with the heads the RandR backend reports of it.
  static func xDesk(_ r: inout SimRandom) -> (Topology, HeadSnapshot) {
    var t = WireDesk.topology(&r)
    for c in t.crtcs.indices where t.crtcs[c].isActive && r.chance(20) {
      guard let mode = t.crtcs[c].mode.flatMap({ t.modes[$0] }) else { continue }
      let scale = r.pick([0.5, 0.7, 1.5, 2])
      guard let fixed = FixedTransform(RandRHeadValues.crtcTransform(scale: scale, filter: .bilinear)),
        let quantized = Transform.quantized(scale, ScaleQuantum.fixedPoint),
        let size = ScaledArea.fixedPoint.size(
          width: mode.width, height: mode.height, transform: t.crtcs[c].rotation.transform, scale: quantized)
      else { continue }
      t.crtcs[c].transform = CrtcTransform(fixed)
      (t.crtcs[c].width, t.crtcs[c].height) = size
    }
    return (t, RandROutputManager(server: FakeRandRServer(t)).snapshot(t))
  }

  /// The extras plan on one desk as a line: the heads wanted with their properties and
  /// touch globs, the touch mappings for the devices drawn, and the globs that matched none.
  static func answer(_ heads: HeadSnapshot, vendors: PNPVendors, _ r: inout SimRandom) throws -> String {
    let names = heads.heads.map(\.name)
    let config = try config(names, &r)
    let profile = profile(config, names, &r)
    let devices = Self.devices.filter { _ in r.chance(60) }
    let wanted = OutputExtrasPlan.wanted(heads, config: config, profile: profile, vendors: vendors)
    let touch = OutputExtrasPlan.touch(wanted, devices: devices, heads: heads)
    let said = wanted.map { w in
      let properties = w.extras.properties.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
      return "\(w.head.name) {\(properties.joined(separator: ","))} [\(w.extras.touch.joined(separator: ","))]"
    }
    let mappings = touch.mappings.map { m in
      "\(m.device.name) on \(m.output) \(m.rect) " + m.matrix.map { String(format: "%.4g", $0) }.joined(separator: ",")
    }
    return (said.isEmpty ? "none wanted" : said.joined(separator: "; ")) + " | "
      + (mappings.isEmpty ? "no mapping" : mappings.joined(separator: "; "))
      + (touch.unmatched.isEmpty ? "" : " | unmatched " + touch.unmatched.joined(separator: ","))
  }
}
