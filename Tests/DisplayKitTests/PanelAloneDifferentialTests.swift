import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

/// With the lid closed and nothing for the lid to do, the daemon is done with a desk only
/// when the built-in panel is the one head lit (`LidPolicy.panelAlone(in:config:)`); on every
/// desk that must be what the same rule says of the topology those heads are, on X (the
/// heads the RandR backend makes of its outputs) and on Wayland (the topology the heads
/// bridge makes of the compositor's heads).
@Suite struct PanelAloneDifferentialTests {
  static let desks: UInt64 = 3000

  /// The rule over RandR's topology: the panel has a CRTC lit, and no other connected output
  /// has one.
  static func panelAlone(_ t: Topology, config: Config) -> Bool {
    guard let panel = LidPolicy.panel(in: t, config: config), t.geometry(of: panel) != nil else { return false }
    return !t.connectedOutputs.contains { $0.id != panel.id && t.geometry(of: $0) != nil }
  }

  /// A config naming the panel now and then: a head of the desk, or one it lacks.
  static func config(_ names: [String], _ r: inout SimRandom) -> Config {
    var config = Config()
    if r.chance(25) { config.panel = r.chance(80) && !names.isEmpty ? r.pick(names) : "LVDS-9" }
    return config
  }

  /// Counts the desks each way, so that neither answer goes untested.
  struct Tally {
    var alone = 0
    var notAlone = 0
    var named = 0
    var differing: [String] = []

    mutating func add(_ topology: Topology, _ heads: HeadSnapshot, _ config: Config, seed: UInt64) {
      let old = PanelAloneDifferentialTests.panelAlone(topology, config: config)
      let new = LidPolicy.panelAlone(in: heads, config: config)
      if old != new { differing.append("seed \(seed): the topology says alone \(old), the heads \(new)") }
      if old { alone += 1 } else { notAlone += 1 }
      if old, config.panel != nil { named += 1 }
    }

    func expectAgreement(_ kind: String) {
      #expect(differing.isEmpty, "\(differing.count) \(kind) differ:\n\(differing.prefix(5).joined(separator: "\n"))")
      #expect(alone > 100 && notAlone > 100 && named > 10, "\(kind): \(alone) alone (\(named) named), \(notAlone) not")
    }
  }

  @Test func thePanelAloneOverHeadsIsTheTopologysOnRandomXDesks() throws {
    var tally = Tally()
    for seed in 1...Self.desks {
      var r = SimRandom(seed: seed)
      let (t, heads) = ExtrasDeskDraw.xDesk(&r)
      tally.add(t, heads, Self.config(t.outputs.map(\.name), &r), seed: seed)
    }
    tally.expectAgreement("X desks")
  }

  @Test func thePanelAloneOverHeadsIsTheBridgedTopologysOnRandomWaylandDesks() throws {
    var tally = Tally()
    for seed in 1...Self.desks {
      let (heads, t) = try WireDesk.wayland(seed: seed)
      var r = SimRandom(seed: seed &+ 9_000_000)
      tally.add(t, heads, Self.config(heads.heads.map(\.name), &r), seed: seed)
    }
    tally.expectAgreement("Wayland desks")
  }

  /// A monitor just unplugged, its CRTC still lit, is no other monitor: the panel is alone.
  /// One still connected and lit is.
  @Test func aLitMonitorCountsAgainstThePanelOnlyWhileConnected() {
    let mode = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000)
    var panel = Head(name: "eDP-1", modes: [mode], isInternalPanel: true)
    (panel.enabled, panel.currentMode) = (true, 0)
    var monitor = Head(name: "DP-1", modes: [mode])
    (monitor.enabled, monitor.currentMode, monitor.x) = (true, 0, 1920)
    #expect(!LidPolicy.panelAlone(in: HeadSnapshot(heads: [panel, monitor]), config: Config()))
    monitor.connected = false
    #expect(LidPolicy.panelAlone(in: HeadSnapshot(heads: [panel, monitor]), config: Config()))
    panel.enabled = false
    #expect(!LidPolicy.panelAlone(in: HeadSnapshot(heads: [panel, monitor]), config: Config()))
  }
}
