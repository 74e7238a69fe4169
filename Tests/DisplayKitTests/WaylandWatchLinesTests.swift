import DisplayModel
import DisplayPorts
import Testing

/// On Wayland, `watch`, the daemon's log and the hooks say the heads' own events (`SnapshotDiff`):
/// another make, model or serial on a connector without an EDID is an `edid-changed`; a
/// mode's label rounds the compositor's mHz; an interlaced mode says so.
@Suite struct WaylandWatchLinesTests {
  static func head(make: String, mode: HeadMode) -> Head {
    Head(name: "DP-1", make: make, model: "M", serial: "1", enabled: true, modes: [mode], currentMode: 0)
  }

  @Test func anotherIdentityOnAConnectorWithoutAnEDIDIsAnEDIDChange() {
    let mode = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60_000, preferred: true)
    let before = HeadSnapshot(heads: [Self.head(make: "Dell Inc.", mode: mode)])
    let after = HeadSnapshot(heads: [Self.head(make: "Samsung Electric Company", mode: mode)])
    #expect(
      SnapshotDiff.events(from: before, to: after).map(\.summary) == ["edid-changed DP-1 1920x1080+0+0 1920x1080@60.00"])
  }

  @Test func aModeLabelRoundsTheCompositorsMilliHertzAndSaysInterlaced() {
    #expect(HeadMode(width: 1366, height: 768, refreshMilliHz: 60_005).label == "1366x768@60.01")
    let interlaced = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60_000, interlaced: true)
    #expect(interlaced.label == "1920x1080@60.00i")
  }
}
