import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayKit

/// The daemon tells a dark desk (no connected desktop monitor lit: the apply loop plans
/// again rather than leave it) from its heads: on random RandR desks (as the X backend
/// reports their heads) and wlroots desks the answers are those a person reviewed once
/// (`Fixtures/golden/dark.txt`), both answers among them.
@Suite struct DeskDarkTests {
  @Test func darkOrLitOnRandomDesks() throws {
    try GoldenDesks.expectGolden("dark", minimum: 150) { try Self.answers($0) }
  }

  /// The answers on three desks of one seed: a random RandR desk, a drawn RandR desk and a
  /// wlroots desk (its scaled heads' area logical or as RandR gives it, by seed).
  static func answers(_ seed: UInt64) throws -> String {
    var r = SimRandom(seed: seed)
    let random = HeadSnapshot(topology: RandomDesk.topology(&r))
    var draw = DeskDraw(seed: seed)
    let drawn = HeadSnapshot(topology: try draw.desk().0)
    var wayland = HeadDeskDraw(seed: seed, scaledArea: seed % 2 == 0 ? .logical : .fixedPoint)
    let heads = try wayland.desk().0
    let said = { (heads: HeadSnapshot) in DeskLayout.isDark(heads) ? "dark" : "lit" }
    return "random \(said(random)), drawn \(said(drawn)), wayland \(said(heads))"
  }

  /// A compositor's head set to a custom mode is enabled with no current mode: nothing is
  /// lit, so the desk is dark (planned again) until the head shows a mode.
  @Test func aHeadEnabledWithoutACurrentModeLeavesTheDeskDark() {
    var head = Head(name: "DP-1", modes: [HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000)])
    head.enabled = true
    #expect(DeskLayout.isDark(HeadSnapshot(heads: [head])))
    head.currentMode = 0
    #expect(!DeskLayout.isDark(HeadSnapshot(heads: [head])))
  }

  /// A lit headset is no lit desk, and a desk of headsets alone is none to darken.
  @Test func nonDesktopHeadsNeitherLightNorDarkenTheDesk() {
    var headset = Head(
      name: "DP-2", modes: [HeadMode(width: 2880, height: 1600, refreshMilliHz: 90000)], nonDesktop: true)
    (headset.enabled, headset.currentMode) = (true, 0)
    let monitor = Head(name: "DP-1", modes: [HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000)])
    #expect(DeskLayout.isDark(HeadSnapshot(heads: [monitor, headset])))
    #expect(!DeskLayout.isDark(HeadSnapshot(heads: [headset])))
  }
}
