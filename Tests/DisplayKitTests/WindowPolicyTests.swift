import DisplayKit
import DisplayModel
import Testing

/// Which monitor gets which window and content: pure, from the heads and the config.
@Suite struct WindowPolicyTests {
  /// eDP-1 (main), HDMI-1 and DP-1 lit in a row.
  let row = TopologyBuilder.topology(
    ["eDP-1", "HDMI-1", "DP-1"],
    on: ["eDP-1": TopologyBuilder.m1080, "HDMI-1": TopologyBuilder.m1024, "DP-1": TopologyBuilder.m768])

  func mirror(_ output: String, of source: String) -> MonitorRule {
    var rule = MonitorRule()
    rule.match.output = output
    rule.content = .mirror
    var options = MirrorOptions()
    options.source = source
    rule.mirror = options
    return rule
  }

  @Test func everyExternalMonitorGetsAWindowAtItsAreaAndMainNone() {
    let wanted = Config().wantedWindows(in: HeadSnapshot(topology: row))
    #expect(wanted.map(\.head) == ["HDMI-1", "DP-1"])
    #expect(
      wanted.map(\.rect) == [
        Rect(x: 1920, y: 0, width: 1280, height: 1024), Rect(x: 3200, y: 0, width: 1024, height: 768),
      ])
    #expect(wanted.allSatisfy { $0.content == .placeholder && $0.refusal == nil })
  }

  /// A head whose area is half its mode (scaled by a half) has two pixels per unit:
  /// its picture is drawn at 1280x1024 for a 640x512 area; an unscaled one at its own size.
  @Test func thePictureCarriesTheHeadsPixelsPerUnitOfItsArea() throws {
    var desk = HeadSnapshot(topology: row)
    desk.heads[1].scale = 0.5
    #expect(desk.heads[1].rect == Rect(x: 1920, y: 0, width: 640, height: 512))
    let wanted = Config().wantedWindows(in: desk)
    let hdmi = try #require(wanted.first { $0.head == "HDMI-1" })
    #expect(hdmi.picture.density == 2)
    #expect(hdmi.picture.atDensity.width == 1280 && hdmi.picture.atDensity.height == 1024)
    let dp = try #require(wanted.first { $0.head == "DP-1" })
    #expect(dp.picture.density == 1 && dp.picture.atDensity == dp.picture)
  }

  @Test func aMirrorOfMainMirrors() {
    var config = Config()
    config.monitors = [mirror("HDMI-1", of: "main")]
    let hdmi = config.wantedWindows(in: HeadSnapshot(topology: row)).first { $0.head == "HDMI-1" }
    #expect(hdmi?.content == .mirror && hdmi?.mirror?.source == Rect(x: 0, y: 0, width: 1920, height: 1080))
  }

  @Test func twoMonitorsMirroringEachOtherAreBothRefusedWithTheRing() {
    var config = Config()
    config.monitors = [mirror("HDMI-1", of: "DP-1"), mirror("DP-1", of: "HDMI-1")]
    let wanted = config.wantedWindows(in: HeadSnapshot(topology: row))
    #expect(wanted.allSatisfy { $0.content == .placeholder && $0.mirror == nil })
    #expect(
      wanted.map(\.refusal) == [
        "mirror cycle refused: HDMI-1 → DP-1 → HDMI-1", "mirror cycle refused: DP-1 → HDMI-1 → DP-1",
      ])
    #expect(wanted.map(\.picture.details) == wanted.map(\.refusal), "the reason shows on the monitor")
  }

  @Test func aMirrorOverItsOwnSourceIsRefused() {
    var t = row
    t.crtcs[1].x = 100  // HDMI-1 now overlaps main
    var config = Config()
    config.monitors = [mirror("HDMI-1", of: "main")]
    let hdmi = config.wantedWindows(in: HeadSnapshot(topology: t)).first { $0.head == "HDMI-1" }
    #expect(hdmi?.refusal == "mirror of eDP-1 refused: HDMI-1 overlaps its source")
  }

  @Test func aMirrorDrawingWhereAnotherReadsIsRefusedButAChainIsNot() {
    var config = Config()
    // DP-1 mirrors HDMI-1, which mirrors main: a chain, no loop.
    config.monitors = [mirror("HDMI-1", of: "main"), mirror("DP-1", of: "HDMI-1")]
    #expect(config.wantedWindows(in: HeadSnapshot(topology: row)).allSatisfy { $0.content == .mirror })
    // DP-1 moved over main: HDMI-1 reads main, DP-1 draws there and reads HDMI-1.
    var t = row
    t.crtcs[2].x = 0
    let wanted = config.wantedWindows(in: HeadSnapshot(topology: t))
    #expect(wanted.allSatisfy { $0.content == .placeholder && $0.refusal?.hasPrefix("mirror cycle refused") == true })
  }

  @Test func aHeadOnWithoutAModeShowsNoAreaAndGetsNoWindow() {
    var desk = HeadSnapshot(topology: row)
    desk.heads[2].currentMode = nil
    #expect(Config().wantedWindows(in: desk).map(\.head) == ["HDMI-1"])
  }
}
