import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayModel

/// A random desk as a wlroots compositor lists it: attached heads with modes (now and then
/// one without a refresh, as headless backends list them), one of eight transforms, a
/// scale, and mostly every capability; with a config of `monitors` rules over it (as
/// `DeskDraw` draws them). From one seed; its heads round a scaled area as `scaledArea` says.
struct HeadDeskDraw {
  var random: SimRandom
  var rules: DeskDraw
  let scaledArea: ScaledArea

  init(seed: UInt64, scaledArea: ScaledArea = .fixedPoint) {
    random = SimRandom(seed: seed)
    rules = DeskDraw(seed: seed &* 0x9E37_79B9)
    self.scaledArea = scaledArea
  }

  static let names = ["eDP-1", "HDMI-A-1", "DP-1", "DP-2", "DP-3", "HEADLESS-1"]

  mutating func desk() throws -> (HeadSnapshot, Config) {
    var names = Self.names
    var heads: [Head] = []
    var x = 0
    for i in 0..<(1 + random.below(5)) {
      heads.append(head(names.remove(at: random.below(names.count)), first: i == 0, x: &x))
    }
    let primary = random.chance(30) ? random.pick(heads).name : nil
    let configText = rules.config(heads.map(\.name))
    rules.configText = configText
    return (
      HeadSnapshot(heads: heads, primary: primary, generation: 7),
      try Config.parse(Array(configText.utf8), file: "heads.json5")
    )
  }

  mutating func head(_ name: String, first: Bool, x: inout Int) -> Head {
    var modes: [HeadMode] = []
    var sizes = DeskDraw.sizes
    for _ in 0...random.below(4) where !sizes.isEmpty {
      let (w, h, r) = sizes.remove(at: random.below(sizes.count))
      let milli = random.chance(10) ? 0 : random.chance(20) ? Int(r * 1000) - 60 : Int(r * 1000)
      modes.append(HeadMode(width: w, height: h, refreshMilliHz: milli))
    }
    if random.chance(80) { modes[random.below(modes.count)].preferred = true }
    let all = HeadCapabilities(transforms: Set(Transform.allCases), scaling: true, customModes: true, anySize: true)
    let (make, model, serial) =
      random.chance(30)
      ? random.pick([("ACR", "V193W", "LBP0C0034000"), ("AUS", "VA279", ""), ("Apple", "0x9227", "")])
      : ("", "", "")
    var head = Head(
      name: name, make: make, model: model, serial: serial, modes: modes, scaledArea: scaledArea,
      isInternalPanel: name.hasPrefix("eDP"),
      capabilities: random.chance(85)
        ? all
        : HeadCapabilities(
          scaling: random.chance(50), customModes: random.chance(50), anySize: random.chance(50)))
    guard random.chance(first ? 85 : 55) else { return head }
    head.enabled = true
    head.currentMode = random.below(modes.count)
    head.transform = random.chance(70) ? .normal : random.pick(Transform.allCases)
    head.scale = random.chance(75) ? 1 : random.pick([0.5, 2.0 / 3.0, 0.8, 2])
    (head.x, head.y) = random.chance(50) ? (x, 0) : (random.below(400) * 10, random.below(200) * 10)
    x = max(x, head.x + (head.rect?.width ?? 0))
    return head
  }
}
