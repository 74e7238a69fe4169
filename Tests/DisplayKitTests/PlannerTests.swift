import DisplayKit
import DisplayModel
import DisplayService
import DisplayX11
import Testing
import XRig

/// The mode policy over a head's modes, on a RandR desk's heads: the request, then the
/// preferred mode, then the largest; a missing mode falls back with a warning.
@Suite struct ModePolicyTests {
  let t = TopologyBuilder.topology(
    ["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
  var hdmi: Head { HeadSnapshot(topology: t).heads[1] }

  static func labels(_ modes: [PlannedMode]) -> [String] { modes.map { "\($0.width)x\($0.height)" } }

  @Test func requestedThenPreferredThenLargest() {
    // TopologyBuilder outputs list 1080p (preferred), 1280x1024, 1024x768.
    let (modes, warning) = ModePolicy.candidates(.size(width: 1024, height: 768), for: hdmi)
    #expect(Self.labels(modes) == ["1024x768", "1920x1080", "1280x1024"], "then every other mode, largest first")
    #expect(warning == nil)
    #expect(Self.labels(ModePolicy.candidates(.preferred, for: hdmi).modes).first == "1920x1080")
    #expect(Self.labels(ModePolicy.candidates(.highest, for: hdmi).modes).first == "1920x1080")
    #expect(Self.labels(ModePolicy.candidates(.keep, for: hdmi).modes).first == "1280x1024")
  }

  @Test func aMissingModeFallsBackWithAWarning() {
    let (modes, warning) = ModePolicy.candidates(.size(width: 1600, height: 900), for: hdmi)
    #expect(Self.labels(modes).first == "1920x1080")
    #expect(warning?.description.contains("HDMI-1 has no mode 1600x900") == true)
  }

  @Test func refreshIsMatchedWithinHalfAHertz() {
    var head = hdmi
    head.modes.append(HeadMode(width: 1920, height: 1080, refreshMilliHz: 120000))
    let first = { (request: ModeRequest) in ModePolicy.candidates(request, for: head).modes.first?.refreshHz }
    #expect(first(.sizeRate(width: 1920, height: 1080, refresh: 119.8)) == 120)
    #expect(first(.sizeRate(width: 1920, height: 1080, refresh: 60.4)) == 60)
    #expect(ModePolicy.candidates(.sizeRate(width: 1920, height: 1080, refresh: 75), for: head).warning != nil)
    #expect(first(.size(width: 1920, height: 1080)) == 120, "WxH: highest refresh")
  }
}

/// The rule planner on RandR desks' heads, with the configuration written out.
@Suite struct PlannerTests {
  /// eDP-1 on at 1080p; the named outputs connected but without a CRTC.
  func dark(_ names: [String]) -> HeadSnapshot {
    var t = TopologyBuilder.topology(["eDP-1"] + names, on: ["eDP-1": TopologyBuilder.m1080])
    for i in t.outputs.indices.dropFirst() { t.outputs[i].connection = .connected }
    return HeadSnapshot(topology: t)
  }

  static func plan(_ snapshot: HeadSnapshot, _ config: Config = Config(), settled: Set<String> = []) -> RulePlan {
    RulePlanner(snapshot: snapshot, config: config).plan(settled: settled)
  }

  @Test func aDarkHeadGetsItsPreferredModeAndAPlaceRightOfMain() {
    let plan = Self.plan(dark(["HDMI-1"]))
    #expect(
      PlanText.line(plan)
        == "HDMI-1 1920x1080@60000 +1920+0 fallbacks 1280x1024@60020,1024x768@60004 default | configures HDMI-1")
  }

  @Test func sevenOutputsPlacedAlikeEndUpInARowWithoutOverlap() {
    let names = (1...7).map { "DP-\($0)" }
    var config = Config()
    config.defaults.mode = .size(width: 1024, height: 768)
    let plan = Self.plan(dark(names), config)
    #expect(plan.configuration.heads.map(\.name) == names)
    #expect(plan.configuration.heads.map(\.x) == (0..<7).map { 1920 + $0 * 1024 })
    #expect(plan.configuration.heads.allSatisfy { $0.y == 0 && $0.mode == .listed(width: 1024, height: 768, refreshMilliHz: 60004) })
  }

  /// A place is asked as the rule says it: whether the server can show it (RandR's 16-bit
  /// coordinates, its largest screen) is the backend's to judge, which refuses it whole.
  @Test func aPointFarOutIsAskedAsTheRuleSaysItForTheBackendToJudge() {
    var config = Config()
    config.defaults.position = .absolute(x: 40000, y: 0)
    let plan = Self.plan(dark(["HDMI-1"]), config)
    #expect(plan.configuration.heads.map { "\($0.name) \($0.x),\($0.y)" } == ["HDMI-1 40000,0"])
    #expect(plan.warnings.isEmpty)
  }

  @Test func applyingTheSamePlanTwiceChangesNothing() {
    let t = HeadSnapshot(
      topology: TopologyBuilder.topology(
        ["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1080]))
    #expect(Self.plan(t).isEmpty, "desired == actual: nothing to do")
    var config = Config()
    config.defaults.mode = .size(width: 1024, height: 768)
    #expect(Self.plan(t, config, settled: ["HDMI-1"]).isEmpty, "settled outputs are left alone")
    #expect(PlanText.line(Self.plan(t, config)) == "HDMI-1 1024x768@60004 +1920+0 | configures HDMI-1")
  }

  @Test func leftOfMainShiftsEverythingToStayAtTheOrigin() {
    var config = Config()
    config.defaults.position = .relative(.leftOf, target: "main")
    let plan = Self.plan(dark(["HDMI-1"]), config)
    #expect(
      PlanText.line(plan)
        == "eDP-1 1920x1080@60000 +1920+0; HDMI-1 1920x1080@60000 +0+0 fallbacks 1280x1024@60020,1024x768@60004 default | configures HDMI-1",
      "main moves right; it is never turned off")
  }

  @Test func aDisconnectedHeadStillLitIsTurnedOff() {
    var t = TopologyBuilder.topology(
      ["eDP-1", "HDMI-1"], on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024])
    t.outputs[1].connection = .disconnected
    #expect(PlanText.line(Self.plan(HeadSnapshot(topology: t))) == "HDMI-1 off")
  }

  @Test func ignoredAndMainOutputsAreNeverTouched() throws {
    var config = Config()
    config.main = "HDMI-1"
    var rule = MonitorRule()
    rule.match.output = "DP-*"
    rule.ignore = true
    config.monitors = [rule]
    let desk = dark(["HDMI-1", "DP-1"])
    #expect(config.mainOutput(in: desk)?.name == "eDP-1", "a configured main that is dark falls back")
    #expect(Self.plan(desk, config).configuration.heads.map(\.name) == ["HDMI-1"])
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
