import DisplayKit
import DisplayModel

/// The desk the simulation runs on: a laptop's panel and three connectors, four monitors to
/// plug into them, and the configs a reload picks from.
enum SimScenario {
  static let connectors = ["eDP-1", "HDMI-1", "DP-1", "DP-2"]

  static let monitorNames = ["ALPHA", "BETA", "GAMMA", "no-EDID"]
  /// Each monitor's EDID (the last has none, as a cheap adapter's).
  static let monitors: [[UInt8]?] = [
    try? hostileEDID(name: "ALPHA", serial: "1"), try? hostileEDID(name: "BETA", serial: "2"),
    try? hostileEDID(name: "GAMMA", serial: "3"), nil,
  ]

  static let configNames = ["placed rules", "profiles", "defaults", "by monitor"]
  static let configTexts = [
    // Every connector placed against the panel: a layout that does not depend on plug order.
    """
    { disconnect_grace: 1.5, defaults: { lid_closed: 'disable' },
      monitors: [
        { match: { output: 'HDMI-1' }, position: 'right-of eDP-1' },
        { match: { output: 'DP-1' }, position: 'below eDP-1', content: 'mirror' },
        { match: { output: 'DP-2' }, position: 'left-of eDP-1', mode: '1280x1024' } ] }
    """,
    """
    { disconnect_grace: 1.5, defaults: { lid_closed: 'disable' },
      profiles: [
        { name: 'docked', outputs: [ { match: { output: 'eDP-1' } },
                                     { match: { output: 'HDMI-1' }, position: 'right-of eDP-1' } ] },
        { name: 'office', outputs: [ { match: { output: 'eDP-1' } },
                                     { match: { product_name: 'ALPHA' }, position: 'above eDP-1', content: 'mirror' },
                                     { match: { output: 'DP-*' }, position: 'right-of eDP-1' } ] },
        { name: 'shut', lid: 'closed', outputs: [ { match: { output: 'eDP-1' }, enabled: false },
                                                  { match: { output: 'HDMI-1' } } ] },
        { name: 'solo', outputs: [ { match: { output: 'eDP-1' } } ] } ] }
    """,
    "{ disconnect_grace: 0 }",
    """
    { disconnect_grace: 3, defaults: { position: 'below main', content: 'mirror', mirror: { cursor: true } },
      monitors: [
        { match: { product_name: 'ALPHA' }, mode: '1280x1024', position: 'above main', content: 'placeholder' },
        { match: { product_name: 'BETA' }, position: 'right-of main', mirror: { cursor: false } },
        { match: { output: 'DP-2' }, enabled: false } ] }
    """,
  ]

  static let configs: [Config] = configTexts.enumerated().map { i, text in
    do { return try Config.parse(Array(text.utf8), file: "sim-\(i).json5") } catch {
      fatalError("simulation config \(i): \(error)")
    }
  }
}
