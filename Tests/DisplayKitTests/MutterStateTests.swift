import DisplayModel
import DisplayMutter
import Testing

/// `GetCurrentState` replies shaped like real machines' (a laptop panel with several modes,
/// fractional scales, a monitor off) and hostile ones, read into heads and configurations
/// without mutter: what the virtual monitors of the real-mutter tests cannot show.
@Suite struct MutterStateTests {
  static func mode(_ id: String, _ w: Int32, _ h: Int32, _ hz: Double, current: Bool = false, preferred: Bool = false)
    -> BusValue
  {
    .structure([
      .string(id), .int32(w), .int32(h), .double(hz), .double(1), .array(element: "d", [.double(1), .double(2)]),
      .properties([("is-current", .bool(current)), ("is-preferred", .bool(preferred))]),
    ])
  }

  static func monitor(_ connector: String, _ vendor: String, _ modes: [BusValue], builtin: Bool = false) -> BusValue {
    .structure([
      .structure([.string(connector), .string(vendor), .string("Model \(connector)"), .string("SN-\(connector)")]),
      .array(element: "(siiddada{sv})", modes),
      .properties([
        ("is-builtin", .bool(builtin)), ("display-name", .string("Display \(connector)")),
        ("width-mm", .int32(300)), ("height-mm", .int32(-1)),
      ]),
    ])
  }

  static func logical(_ x: Int32, _ y: Int32, _ scale: Double, _ transform: UInt32, primary: Bool, _ connector: String)
    -> BusValue
  {
    .structure([
      .int32(x), .int32(y), .double(scale), .uint32(transform), .bool(primary),
      .array(
        element: "(ssss)", [.structure([.string(connector), .string("v"), .string("p"), .string("s")])]),
      .properties([]),
    ])
  }

  /// A laptop at 1.25 with its panel lit, and a monitor plugged but off.
  static var laptop: [BusValue] {
    [
      .uint32(7),
      .array(
        element: "((ssss)a(siiddada{sv})a{sv})",
        [
          monitor(
            "eDP-1", "BOE",
            [
              mode("2560x1600@60.000", 2560, 1600, 60.0, current: true, preferred: true),
              mode("1920x1200@59.950", 1920, 1200, 59.95),
            ], builtin: true),
          monitor("DP-1", "DEL", [mode("1920x1080@60.000", 1920, 1080, 60.0, preferred: true)]),
        ]),
      .array(element: "(iiduba(ssss)a{sv})", [logical(0, 0, 1.25, 0, primary: true, "eDP-1")]),
      .properties([("layout-mode", .uint32(1))]),
    ]
  }

  @Test func aPanelAtAFractionalScaleAndAMonitorOffAreReadAsHeads() throws {
    let heads = try MutterState(reply: Self.laptop).heads
    let panel = try #require(heads.head(named: "eDP-1"))
    #expect(panel.enabled && panel.isInternalPanel && panel.make == "BOE" && panel.serial == "SN-eDP-1")
    #expect(panel.scale == 0.8, "mutter's 1.25 pixels per logical pixel: the config's 0.8")
    #expect(panel.modes.map(\.refreshMilliHz) == [60000, 59950])
    #expect(panel.mmWidth == 0 && panel.mmHeight == 0, "a height of -1 makes the size unknown")
    let off = try #require(heads.head(named: "DP-1"))
    #expect(!off.enabled && off.connected && off.currentMode == nil)
    #expect(heads.primary == "eDP-1" && heads.generation == 7)
  }

  @Test func aConfigurationBecomesLogicalMonitorsWithOnePrimary() throws {
    let state = try MutterState(reply: Self.laptop)
    let configuration = OutputConfiguration(
      generation: 7,
      heads: [
        HeadConfiguration(
          name: "DP-1", enabled: true, mode: .listed(width: 1920, height: 1080, refreshMilliHz: 0), x: 2048)
      ])
    guard case .success(let arguments) = state.arguments(configuration, method: .temporary) else {
      Issue.record("refused")
      return
    }
    #expect(arguments.map(\.signature).joined() == "uua(iiduba(ssa{sv}))a{sv}")
    let logical = try #require(arguments[2].elements)
    #expect(logical.count == 2)
    let primaries = logical.compactMap { $0.elements?[4].bool }
    #expect(primaries == [true, false], "the panel stays the one primary")
    let dp = try #require(logical.last?.elements)
    #expect(dp[0].int == 2048 && dp[2].double == 1)
    #expect(dp[5].elements?.first?.elements?[1].string == "1920x1080@60.000")
  }

  @Test func whatMutterCannotDoIsRefusedBeforeItIsAsked() throws {
    let state = try MutterState(reply: Self.laptop)
    let custom = OutputConfiguration(
      generation: 7,
      heads: [
        HeadConfiguration(
          name: "DP-1", enabled: true,
          mode: .custom(
            ModeLine(dotClock: 118_250_000, h: (1600, 1696, 1856, 2112), v: (900, 903, 908, 934), flags: [])))
      ])
    #expect(refusal(state, custom)?.contains("mutter makes no custom modes") == true)
    let far = OutputConfiguration(generation: 7, heads: [HeadConfiguration(name: "DP-1", enabled: true, x: 1 << 40)])
    #expect(refusal(state, far)?.contains("32-bit") == true)
    let unknown = OutputConfiguration(generation: 7, heads: [HeadConfiguration(name: "HDMI-9", enabled: true)])
    #expect(refusal(state, unknown)?.contains("HDMI-9") == true)
    let dark = OutputConfiguration(generation: 7, heads: [.off("eDP-1")])
    #expect(refusal(state, dark) != nil, "never a dark desk")
    let badScale = OutputConfiguration(
      generation: 7, heads: [HeadConfiguration(name: "eDP-1", enabled: true, scale: .infinity)])
    #expect(refusal(state, badScale)?.contains("scale") == true)
  }

  func refusal(_ state: MutterState, _ configuration: OutputConfiguration) -> String? {
    if case .failure(let refusal) = state.arguments(configuration, method: .verify) { return refusal.reason }
    return nil
  }

  /// Shapes no mutter sends, and numbers no monitor has: an error or a sane value, never a trap.
  @Test func hostileRepliesAreErrorsOrSaneValues() throws {
    #expect(throws: MutterState.Malformed.self) { try MutterState(reply: []) }
    #expect(throws: MutterState.Malformed.self) {
      try MutterState(reply: [.string("x"), .uint32(1), .uint32(2), .uint32(3)])
    }
    var reply = Self.laptop
    reply[1] = .array(element: "s", [.string("not a monitor")])
    #expect(throws: MutterState.Malformed.self) { try MutterState(reply: reply) }
    reply = Self.laptop
    reply[1] = .array(
      element: "((ssss)a(siiddada{sv})a{sv})",
      [Self.monitor("X-1", "V", [Self.mode("m", -5, .max, .nan, current: true)])])
    reply[2] = .array(element: "(iiduba(ssss)a{sv})", [Self.logical(0, 0, 0, 99, primary: true, "X-1")])
    let head = try #require(try MutterState(reply: reply).heads.heads.first)
    #expect(head.modes.first?.width == 0 && head.modes.first?.refreshMilliHz == 0)
    #expect(head.scale == 1 && head.transform == .normal)
  }
}
