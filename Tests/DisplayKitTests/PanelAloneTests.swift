import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

/// With the lid closed and nothing for the lid to do, the daemon is done with a desk only
/// when the built-in panel is the one head lit (`LidPolicy.panelAlone(in:config:)`): on
/// random X desks (the heads the RandR backend makes of its outputs) and Wayland desks, with
/// the panel named now and then (a head of the desk or one it lacks), the answers are those a
/// person reviewed once (`Fixtures/golden/panel-alone.txt`), both answers among them.
@Suite struct PanelAloneTests {
  @Test func thePanelAloneOnRandomDesks() throws {
    try GoldenDesks.expectGolden("panel-alone", minimum: 150) { try Self.answers($0) }
  }

  /// A config naming the panel now and then: a head of the desk, or one it lacks.
  static func config(_ names: [String], _ r: inout SimRandom) -> Config {
    var config = Config()
    if r.chance(25) { config.panel = r.chance(80) && !names.isEmpty ? r.pick(names) : "LVDS-9" }
    return config
  }

  /// The answer on an X desk and a Wayland desk of one seed, with the panel the config names.
  static func answers(_ seed: UInt64) throws -> String {
    var r = SimRandom(seed: seed)
    let x = ExtrasDeskDraw.xDesk(&r).1
    let xConfig = config(x.heads.map(\.name), &r)
    let wayland = try WireDesk.wayland(seed: seed)
    var w = SimRandom(seed: seed &+ 9_000_000)
    let waylandConfig = config(wayland.heads.map(\.name), &w)
    let said = { (heads: HeadSnapshot, config: Config) in
      (LidPolicy.panelAlone(in: heads, config: config) ? "alone" : "not alone")
        + (config.panel.map { " (panel \($0))" } ?? "")
    }
    return "x \(said(x, xConfig)), wayland \(said(wayland, waylandConfig))"
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
