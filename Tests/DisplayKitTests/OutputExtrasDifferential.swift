import DisplayPorts

@testable import DisplayModel
@testable import DisplayX11

/// The extras plan over RandR's topology: the reference `OutputExtrasPlan` (over heads) must
/// equal on every desk the heads say alike. Outputs by connector name, touch over the lit
/// CRTC's rectangle and rotation bits on the topology's screen.
enum TopologyExtrasPlan {
  static func wanted(
    _ topology: Topology, config: Config, profile: (Profile, HeadProfileAssignment)?
  ) -> [(output: Output, extras: OutputExtras)] {
    if let (profile, assignment) = profile {
      return zip(profile.outputs, assignment.heads).compactMap { entry, name in
        guard !entry.extras.isEmpty, let output = topology.output(named: name), output.isConnected else { return nil }
        return (output, entry.extras)
      }
    }
    return topology.connectedOutputs.compactMap { o in config.extras(for: o).map { (o, $0) } }
  }

  static func touch(
    _ wanted: [(output: Output, extras: OutputExtras)], devices: [InputDevice], topology: Topology
  ) -> (mappings: [TouchMapping], unmatched: [String]) {
    var mappings: [TouchMapping] = []
    var unmatched: [String] = []
    for (output, extras) in wanted {
      for glob in extras.touch {
        let matching = devices.filter { globMatch(glob, $0.name) }
        if matching.isEmpty { unmatched.append(glob) }
        guard let crtc = topology.activeCrtc(of: output) else { continue }
        let m = TouchMatrix.matrix(
          rect: crtc.rect, rotation: crtc.rotation, screenWidth: topology.screen.width,
          screenHeight: topology.screen.height)
        for device in matching where !mappings.contains(where: { $0.device == device }) {
          mappings.append(TouchMapping(device: device, output: output.name, rect: crtc.rect, matrix: m))
        }
      }
    }
    return (mappings, unmatched)
  }
}

/// Random configs asking properties and touch of a desk's outputs (by name, glob or what the
/// monitor says, some rules ignoring theirs), a profile in force or not with heads that may
/// be gone, and the pointer devices present; and the verdict of both plans on them.
enum OutputExtrasDifferential {
  enum Verdict: Equatable {
    /// Both plans the same: this many wanted heads and touch mappings.
    case same(wanted: Int, mappings: Int)
    /// A lit CRTC's extent no head mode and scale make: the heads cannot say it.
    case excluded
    case differs([String])
  }

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
  static func profile(_ config: Config, _ names: [String], _ r: inout SimRandom) -> (Profile, HeadProfileAssignment)? {
    guard let profile = config.profiles.first, r.chance(70) else { return nil }
    return (profile, HeadProfileAssignment(heads: profile.outputs.map { _ in r.pick(names + ["GONE-1"]) }))
  }

  /// A `WireDesk` X desk, some lit CRTCs scaled through their transform (the extent the
  /// server gives a scaled CRTC), with the heads the RandR backend reports of it.
  static func xDesk(_ r: inout SimRandom) -> (Topology, HeadSnapshot) {
    var t = WireDesk.topology(&r)
    for c in t.crtcs.indices where t.crtcs[c].isActive && r.chance(20) {
      guard let mode = t.crtcs[c].mode.flatMap({ t.modes[$0] }) else { continue }
      let scale = r.pick([0.5, 0.7, 1.5, 2])
      guard let fixed = FixedTransform(RandRHeadValues.crtcTransform(scale: scale, filter: .bilinear)),
        let quantized = HeadTransform.quantized(scale, ScaleQuantum.randr),
        let size = ScaledArea.randr.size(
          width: mode.width, height: mode.height, transform: t.crtcs[c].rotation.transform, scale: quantized)
      else { continue }
      t.crtcs[c].transform = CrtcTransform(fixed)
      (t.crtcs[c].width, t.crtcs[c].height) = size
    }
    return (t, RandROutputManager(server: FakeRandRServer(t)).snapshot(t))
  }

  /// Both plans on one desk: the wanted heads and extras, then the touch mappings and the
  /// globs that matched nothing, for the devices drawn.
  static func verdict(
    _ t: Topology, _ heads: HeadSnapshot, vendors: PNPVendors, _ r: inout SimRandom
  ) throws -> Verdict {
    for output in t.outputs where t.geometry(of: output) != heads.head(named: output.name)?.rect {
      return .excluded
    }
    let names = t.outputs.map(\.name)
    let config = try config(names, &r)
    let profile = profile(config, names, &r)
    let devices = Self.devices.filter { _ in r.chance(60) }
    let old = TopologyExtrasPlan.wanted(t, config: config, profile: profile)
    let new = OutputExtrasPlan.wanted(heads, config: config, profile: profile, vendors: vendors)
    var problems: [String] = []
    if old.map(\.output.name) != new.map(\.head.name) || old.map(\.extras) != new.map(\.extras) {
      problems.append("wanted \(old.map(\.output.name)) vs \(new.map(\.head.name))")
    }
    let oldTouch = TopologyExtrasPlan.touch(old, devices: devices, topology: t)
    let newTouch = OutputExtrasPlan.touch(new, devices: devices, heads: heads)
    if oldTouch.mappings != newTouch.mappings {
      problems.append("mappings \(oldTouch.mappings) vs \(newTouch.mappings)")
    }
    if oldTouch.unmatched != newTouch.unmatched {
      problems.append("unmatched \(oldTouch.unmatched) vs \(newTouch.unmatched)")
    }
    return problems.isEmpty ? .same(wanted: new.count, mappings: newTouch.mappings.count) : .differs(problems)
  }
}
