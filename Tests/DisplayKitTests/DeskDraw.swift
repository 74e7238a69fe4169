import DisplayModel
import DisplayPorts
import DisplayX11
import Foundation
import Testing

/// A random desk: outputs, CRTCs and modes as a RandR server could have them, and a config
/// of `monitors` rules over them, drawn from one seed.
struct DeskDraw {
  var random: SimRandom
  var configText = ""

  init(seed: UInt64) { random = SimRandom(seed: seed) }

  static let names = ["eDP-1", "HDMI-1", "DP-1", "DP-2", "HDMI-2", "VGA-1", "DSI-1"]
  static let sizes: [(Int, Int, Double)] = [
    (1920, 1080, 60), (1920, 1080, 50), (1280, 1024, 75), (1024, 768, 60), (2560, 1440, 60), (3840, 2160, 30),
    (1600, 900, 60), (800, 600, 56), (1366, 768, 60),
  ]
  static let made = CustomModes.wanted(.size(width: 1600, height: 700), .cvt(reduced: false))

  /// Monitors a rule can match by what their EDID says.
  static let edids = [ProfileFixtures.acer, ProfileFixtures.asus, ProfileFixtures.panel, ProfileFixtures.apple]
  static let identities = [
    "manufacturer: 'ACR'", "product_name: 'VA279'", "serial: 'LBP*'", "manufacturer: 'A*', product_name: '*'",
  ]

  static func mode(_ index: Int) -> Mode {
    let (w, h, r) = sizes[index]
    let (ht, vt) = (w + 160, h + 40)
    return Mode(
      id: ModeID(rawValue: UInt(index + 1)), name: "\(w)x\(h)", width: w, height: h,
      dotClock: UInt64(Double(ht * vt) * r), hTotal: ht, vTotal: vt)
  }

  mutating func desk() throws -> (Topology, Config) {
    var modes: [ModeID: Mode] = [:]
    for i in Self.sizes.indices { modes[Self.mode(i).id] = Self.mode(i) }
    var made = Self.made
    made?.id = ModeID(rawValue: 50)
    if let made { modes[made.id] = made }
    let count = 1 + random.below(random.chance(20) ? 7 : 5)
    var names = Self.names
    var outputs: [Output] = []
    var crtcs: [Crtc] = []
    var x = 0
    for i in 0..<count {
      let name = names.remove(at: random.below(names.count))
      var (output, crtc) = self.output(name, index: i, made: made?.id)
      if output.isConnected || random.chance(5), random.chance(i == 0 ? 80 : 55) {
        light(&output, &crtc, modes: modes, x: &x)
      }
      outputs.append(output)
      crtcs.append(crtc)
    }
    if random.chance(15) { shareACrtc(&outputs, &crtcs) }
    let lit = crtcs.filter(\.isActive).map(\.rect)
    let maxSide = random.chance(85) ? 16384 : random.pick([4096, 8192])
    let screen = ScreenSize(
      width: max(320, lit.map { $0.x + $0.width }.max() ?? 0),
      height: max(200, lit.map { $0.y + $0.height }.max() ?? 0),
      minWidth: 320, minHeight: 200, maxWidth: maxSide, maxHeight: maxSide)
    let connected = outputs.filter(\.isConnected)
    let primary = random.chance(50) && !connected.isEmpty ? random.pick(connected).id : nil
    let topology = Topology(screen: screen, outputs: outputs, crtcs: crtcs, modes: modes, primary: primary)
    configText = config(outputs.map(\.name))
    return (topology, try Config.parse(Array(configText.utf8), file: "desk.json5"))
  }

  mutating func output(_ name: String, index: Int, made: ModeID?) -> (Output, Crtc) {
    let oid = OutputID(rawValue: UInt(100 + index))
    let cid = CrtcID(rawValue: UInt(200 + index))
    var ids = Self.sizes.indices.map { ModeID(rawValue: UInt($0 + 1)) }
    var listed: [ModeID] = []
    for _ in 0...random.below(5) where !ids.isEmpty { listed.append(ids.remove(at: random.below(ids.count))) }
    if let made, random.chance(15) { listed.append(made) }
    var output = Output(
      id: oid, name: name, connection: random.chance(85) ? .connected : .disconnected, modes: listed,
      preferredCount: random.chance(85) ? 1 : 0, possibleCrtcs: [cid])
    output.nonDesktop = random.chance(3)
    if random.chance(30) { output.edid = random.pick(Self.edids) }
    var crtc = Crtc(id: cid, possibleOutputs: [oid])
    crtc.rotations = rotations()
    return (output, crtc)
  }

  mutating func rotations() -> Rotation {
    let all: Rotation = [.normal, .left, .inverted, .right, .reflectX, .reflectY]
    if random.chance(75) { return all }
    if random.chance(50) { return .normal }
    var some = Rotation.normal
    for bit in [Rotation.left, .inverted, .right, .reflectX, .reflectY] where random.chance(50) { some.formUnion(bit) }
    return some
  }

  /// Lights the output at one of its modes, turned and scaled at random, in a row or anywhere.
  mutating func light(_ output: inout Output, _ crtc: inout Crtc, modes: [ModeID: Mode], x: inout Int) {
    guard !output.modes.isEmpty, let mode = modes[random.pick(output.modes)] else { return }
    let turns: [Rotation] = [.normal, .normal, .normal, .left, .inverted, .right]
    var rotation = random.pick(turns)
    if random.chance(10) { rotation.formUnion(random.pick([Rotation.reflectX, .reflectY])) }
    if !crtc.rotations.isSuperset(of: rotation) { rotation = .normal }
    let scale = random.chance(80) ? 1 : random.pick([0.5, 2, 1.25])
    let transform = scale == 1 ? CrtcTransform.identity : CrtcTransform(matrix: [scale, 0, 0, 0, scale, 0, 0, 0, 1])
    guard let size = mode.footprint(rotation, transform) else { return }
    let place = random.chance(50) ? (x, 0) : (random.below(500) * 10, random.below(300) * 10)
    crtc.mode = mode.id
    (crtc.x, crtc.y, crtc.width, crtc.height, crtc.rotation) = (place.0, place.1, size.width, size.height, rotation)
    crtc.transform = transform
    crtc.outputs = [output.id]
    output.crtc = crtc.id
    x = max(x, place.0 + size.width)
  }

  /// A CRTC every output may use besides its own.
  mutating func shareACrtc(_ outputs: inout [Output], _ crtcs: inout [Crtc]) {
    let id = CrtcID(rawValue: 300)
    var shared = Crtc(id: id, possibleOutputs: outputs.map(\.id))
    shared.rotations = rotations()
    for i in outputs.indices where random.chance(70) { outputs[i].possibleCrtcs.insert(id, at: random.below(2)) }
    crtcs.append(shared)
  }

  /// Outputs the daemon configured before, now and then.
  mutating func settled(_ t: Topology) -> Set<OutputID> {
    Set(t.connectedOutputs.filter { _ in random.chance(10) }.map(\.id))
  }

  mutating func config(_ names: [String]) -> String {
    var parts: [String] = []
    if random.chance(10) { parts.append("main: '\(random.pick(names))'") }
    if random.chance(15) {
      parts.append("defaults: {" + random.pick(["mode: 'highest'", "position: 'left-of main'"]) + "}")
    }
    var rules: [String] = []
    for _ in 0..<random.below(5) { rules.append(rule(names)) }
    parts.append("monitors: [" + rules.joined(separator: ", ") + "]")
    return "{" + parts.joined(separator: ", ") + "}"
  }

  mutating func rule(_ names: [String]) -> String {
    let match = random.chance(75) ? random.pick(names) : random.pick(["HDMI-*", "DP-*", "*"])
    let identity = random.chance(20) ? ", " + random.pick(Self.identities) : ""
    var keys = ["match: {output: '\(match)'\(identity)}"]
    let (mode, custom) = modeKeys()
    keys += mode + custom
    if random.chance(50) { keys.append("position: '\(position(names))'") }
    if random.chance(15) { keys.append("enabled: false") }
    if random.chance(15) { keys.append("rotate: '\(random.pick(["normal", "left", "right", "inverted"]))'") }
    if random.chance(10) { keys.append("reflect: '\(random.pick(["x", "y", "xy"]))'") }
    if random.chance(15) { keys.append("scale: \(random.pick(["0.5", "0.75", "1", "1.5", "2", "0.7", "1.1"]))") }
    if random.chance(5) { keys.append("scale_filter: 'nearest'") }
    if random.chance(15) { keys.append("primary: true") }
    if random.chance(4) { keys.append("ignore: true") }
    return "{" + keys.joined(separator: ", ") + "}"
  }

  mutating func modeKeys() -> ([String], [String]) {
    guard random.chance(55) else { return ([], []) }
    let (w, h, r) = random.chance(80) ? random.pick(Self.sizes) : random.pick([(1600, 700, 60.0), (1440, 900, 60)])
    switch random.below(6) {
    case 0: return (["mode: '\(random.pick(["preferred", "highest", "keep"]))'"], [])
    case 1: return (["mode: '\(w)x\(h)@\(Int(r))'"], [])
    case 2: return (["mode: '\(w)x\(h)'"], ["custom: true"])
    case 3:
      // CVT rounds the width to 8 pixels: the mode is the modeline's.
      guard let line = CVT.modeLine(width: w, height: h, refresh: r, reduced: false) else { return ([], []) }
      return (["mode: '\(line.hDisplay)x\(line.vDisplay)'"], ["modeline: '\(line)'"])
    default: return (["mode: '\(w)x\(h)'"], [])
    }
  }

  mutating func position(_ names: [String]) -> String {
    if random.chance(20) { return "\(random.below(40) * 100),\(random.below(20) * 100)" }
    let relation = random.pick(["right-of", "left-of", "above", "below"])
    return relation + " " + (random.chance(60) ? "main" : random.pick(names))
  }
}
