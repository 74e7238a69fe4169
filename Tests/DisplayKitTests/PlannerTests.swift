import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Testing
import XRig

@Suite struct ModePolicyTests {
  let t = TopologyBuilder.topology(
    ["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
  var hdmi: Output { t.outputs[1] }

  @Test func requestedThenPreferredThenLargest() {
    // TopologyBuilder outputs list 1080p (preferred), 1280x1024, 1024x768.
    let (modes, warning) = ModePolicy.candidates(.size(width: 1024, height: 768), for: hdmi, in: t)
    #expect(modes.map(\.name) == ["1024x768", "1920x1080", "1280x1024"], "then every other mode, largest first")
    #expect(warning == nil)
    #expect(ModePolicy.candidates(.preferred, for: hdmi, in: t).modes.first?.name == "1920x1080")
    #expect(ModePolicy.candidates(.highest, for: hdmi, in: t).modes.first?.name == "1920x1080")
    #expect(ModePolicy.candidates(.keep, for: hdmi, in: t).modes.first?.name == "1280x1024")
  }

  @Test func aMissingModeFallsBackWithAWarning() {
    let (modes, warning) = ModePolicy.candidates(.size(width: 1600, height: 900), for: hdmi, in: t)
    #expect(modes.first?.name == "1920x1080")
    #expect(warning?.description.contains("HDMI-1 has no mode 1600x900") == true)
  }

  @Test func refreshIsMatchedWithinHalfAHertz() {
    var t = self.t
    let fast = Mode(
      id: ModeID(rawValue: 9), name: "1920x1080", width: 1920, height: 1080, dotClock: 297_000_000, hTotal: 2200,
      vTotal: 1125)
    t.modes[fast.id] = fast
    t.outputs[1].modes.append(fast.id)
    let o = t.outputs[1]
    #expect(
      ModePolicy.candidates(.sizeRate(width: 1920, height: 1080, refresh: 119.8), for: o, in: t).modes.first?.id
        == fast.id)
    #expect(
      ModePolicy.candidates(.sizeRate(width: 1920, height: 1080, refresh: 60.4), for: o, in: t).modes.first?.id
        == TopologyBuilder.m1080.id)
    #expect(ModePolicy.candidates(.sizeRate(width: 1920, height: 1080, refresh: 75), for: o, in: t).warning != nil)
    #expect(
      ModePolicy.candidates(.size(width: 1920, height: 1080), for: o, in: t).modes.first?.id == fast.id,
      "WxH: highest refresh")
  }
}

@Suite struct PlannerTests {
  /// eDP-1 on at 1080p; the named outputs connected but without a CRTC.
  func dark(_ names: [String]) -> Topology {
    var t = TopologyBuilder.topology(["eDP-1"] + names, on: ["eDP-1": TopologyBuilder.m1080])
    for i in t.outputs.indices.dropFirst() { t.outputs[i].connection = .connected }
    return t
  }

  @Test func darkOutputGetsAFreeCrtcModeAndPlaceRightOfMain() throws {
    let t = dark(["HDMI-1"])
    let plan = HeadPlanDifferential.plan(t, Config(), settled: [])
    let change = try #require(plan.changes.first)
    #expect(plan.changes.count == 1)
    #expect(change.crtc == t.outputs[1].possibleCrtcs[0] && change.mode == TopologyBuilder.m1080.id)
    #expect((change.x, change.y) == (1920, 0))
    #expect(plan.screen! == (3840, 1080))
    #expect(plan.configures == [t.outputs[1].id])
  }

  @Test func sevenOutputsPlacedAlikeEndUpInARowWithoutOverlap() {
    let names = (1...7).map { "DP-\($0)" }
    var config = Config()
    config.defaults.mode = .size(width: 1024, height: 768)
    let plan = HeadPlanDifferential.plan(dark(names), config, settled: [])
    #expect(plan.changes.count == 7)
    let rects = plan.changes.map { Rect(x: $0.x, y: $0.y, width: 1024, height: 768) }
    for (i, a) in rects.enumerated() { for b in rects[(i + 1)...] { #expect(!a.intersects(b), "\(a) overlaps \(b)") } }
    #expect(Set(rects.map(\.x)) == Set((0..<7).map { 1920 + $0 * 1024 }))
  }

  @Test func aLayoutWiderThanTheServersMaximumWalksTheModeChainDownOrLeavesTheMonitorOff() throws {
    var t = dark(["HDMI-1"])
    t.screen.maxWidth = 3500
    let smaller = HeadPlanDifferential.plan(t, Config(), settled: [])
    let change = try #require(smaller.changes.first)
    #expect(change.mode == TopologyBuilder.m1024.id, "1920+1920 is wider than 3500; 1920+1280 is not")
    #expect(change.fallbacks == [TopologyBuilder.m768.id], "fallbacks are no larger than the mode chosen")
    #expect(smaller.screen.map { $0.width <= 3500 } == true)
    #expect(
      smaller.warnings.map(\.description).contains { $0.contains("does not fit within the server's maximum screen") })
    t.screen.maxWidth = 2500
    let none = HeadPlanDifferential.plan(t, Config(), settled: [])
    #expect(none.changes.isEmpty && none.configures.isEmpty)
    #expect(
      none.warnings.map(\.description).contains {
        $0.contains("HDMI-1: no mode fits within the server's maximum screen 2500x")
      })
  }

  @Test func positionsBeyondTheProtocolsRangeNeverReachTheServer() {
    var config = Config()
    config.defaults.position = .absolute(x: 40000, y: 0)
    var t = dark(["HDMI-1"])
    t.screen.maxWidth = 65535
    let plan = HeadPlanDifferential.plan(t, config, settled: [])
    #expect(plan.changes.isEmpty, "x 40000 does not fit 16-bit coordinates")
    #expect(plan.warnings.map(\.description).contains { $0.contains("no mode fits") })
  }

  @Test func applyingTheSamePlanTwiceChangesNothing() {
    let t = TopologyBuilder.topology(
      ["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1080])
    #expect(HeadPlanDifferential.plan(t, Config(), settled: []).isEmpty, "desired == actual: nothing to do")
    var config = Config()
    config.defaults.mode = .size(width: 1024, height: 768)
    #expect(
      HeadPlanDifferential.plan(t, config, settled: [t.outputs[1].id]).isEmpty, "settled outputs are left alone")
    #expect(!HeadPlanDifferential.plan(t, config, settled: []).isEmpty)
  }

  @Test func leftOfMainShiftsEverythingToStayAtTheOrigin() {
    var config = Config()
    config.defaults.position = .relative(.leftOf, target: "main")
    let t = dark(["HDMI-1"])
    let plan = HeadPlanDifferential.plan(t, config, settled: [])
    let hdmi = plan.changes.first { $0.outputs == [t.outputs[1].id] }
    let main = plan.changes.first { $0.outputs == [t.outputs[0].id] }
    #expect(hdmi?.x == 0 && main?.x == 1920, "main moves right; it is never turned off")
    #expect(main?.mode == TopologyBuilder.m1080.id)
  }

  @Test func disconnectedOutputHoldingACrtcIsTurnedOffAndTheScreenShrinks() {
    var t = TopologyBuilder.topology(
      ["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    t.outputs[1].connection = .disconnected
    t.screen.width = 3200
    let plan = HeadPlanDifferential.plan(t, Config(), settled: [])
    #expect(plan.changes.map(\.mode) == [nil])
    #expect(plan.changes.first?.crtc == t.crtcs[1].id)
    #expect(plan.screen! == (1920, 1080))
  }

  @Test func ignoredAndMainOutputsAreNeverTouched() throws {
    var config = Config()
    config.main = "HDMI-1"
    var rule = MonitorRule()
    rule.match.output = "DP-*"
    rule.ignore = true
    config.monitors = [rule]
    let t = dark(["HDMI-1", "DP-1"])
    #expect(config.mainOutput(in: t)?.name == "eDP-1", "a configured main that is dark falls back")
    let plan = HeadPlanDifferential.plan(t, config, settled: [])
    #expect(plan.changes.map(\.outputName) == ["HDMI-1"])
  }

  @Test func noFreeCrtcLeavesAWarning() {
    var t = dark(["HDMI-1"])
    t.outputs[1].possibleCrtcs = [t.crtcs[0].id]
    let plan = HeadPlanDifferential.plan(t, Config(), settled: [])
    #expect(plan.changes.isEmpty)
    #expect(plan.warnings.map(\.description) == ["no free CRTC can drive HDMI-1; left dark"])
  }
}

@Suite struct MirrorGeometryTests {
  let source = Rect(x: 0, y: 0, width: 1920, height: 1080)

  @Test func fitLetterboxesWith152PixelBars() {
    let g = MirrorGeometry(source: source, width: 1280, height: 1024, scale: .fit)
    #expect(g.content == Rect(x: 0, y: 152, width: 1280, height: 720))
    #expect(g.bars == [Rect(x: 0, y: 0, width: 1280, height: 152), Rect(x: 0, y: 872, width: 1280, height: 152)])
    #expect(g.filter(.box) == ("convolution", 2), "2/3 is below 0.75: a 2x2 box")
    #expect(g.filter(.nearest).name == "nearest")
    let t = g.transform
    #expect(abs(t[0] - 1.5) < 1e-9 && abs(t[5] - (-228)) < 1e-9, "window y 152 maps to root y 0")
  }

  @Test func fillCropsAndStretchFillsExactly() {
    let fill = MirrorGeometry(source: source, width: 1280, height: 1024, scale: .fill)
    #expect(fill.originX == -270 && fill.content == Rect(x: 0, y: 0, width: 1280, height: 1024) && fill.bars.isEmpty)
    #expect(fill.filter(.auto).name == "bilinear", "scale 0.95 is above 0.75")
    let stretch = MirrorGeometry(source: source, width: 1280, height: 1024, scale: .stretch)
    #expect(stretch.content == Rect(x: 0, y: 0, width: 1280, height: 1024))
    #expect(abs(stretch.scaleX - 2.0 / 3) < 1e-9 && abs(stretch.scaleY - 1024.0 / 1080) < 1e-9)
  }

  @Test func damageMapsThroughTheTransformGrownForTheFilter() {
    let g = MirrorGeometry(
      source: Rect(x: 1920, y: 0, width: 1920, height: 1080), width: 1280, height: 1024, scale: .fit)
    #expect(g.windowRect(forDamage: Rect(x: 0, y: 0, width: 1920, height: 1080)) == nil, "outside the source: nothing")
    let r = g.windowRect(forDamage: Rect(x: 1920 + 300, y: 300, width: 30, height: 30))
    // 300 * 2/3 = 200, +152; grown by the 2x2 kernel + 1 on each side.
    #expect(r == Rect(x: 197, y: 349, width: 26, height: 26))
    #expect(g.windowRect(forDamage: Rect(x: 1900, y: -10, width: 40, height: 20))?.y == 152, "clipped to the content")
  }
}

extension MirrorGeometry {
  /// The letterbox bars, in window coordinates.
  var bars: [Rect] {
    let c = content
    return [
      Rect(x: 0, y: 0, width: width, height: c.y),
      Rect(x: 0, y: c.y + c.height, width: width, height: height - c.y - c.height),
      Rect(x: 0, y: c.y, width: c.x, height: c.height),
      Rect(x: c.x + c.width, y: c.y, width: width - c.x - c.width, height: c.height),
    ].filter { $0.width > 0 && $0.height > 0 }
  }
}
