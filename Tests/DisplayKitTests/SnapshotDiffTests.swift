import DisplayModel
import Testing

/// The events the daemon derives from two head snapshots where heads say more than RandR:
/// a monitor told by its make without an EDID, a head off showing no area.
@Suite struct SnapshotDiffTests {
  @Test func aMonitorWithoutAnEDIDThatSaysAnotherMakeIsAnotherMonitor() {
    let mode = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true)
    var head = Head(name: "HDMI-A-1", connected: true, enabled: true, modes: [mode], currentMode: 0)
    head.make = "Dell Inc."
    var other = head
    other.make = "Goldstar"
    let events = SnapshotDiff.events(from: HeadSnapshot(heads: [head]), to: HeadSnapshot(heads: [other]))
    #expect(events.map(\.kind) == [.edidChanged])
    #expect(events.first?.summary == "edid-changed HDMI-A-1 1920x1080+0+0 1920x1080@60.00")
  }

  @Test func aHeadTurnedOffIsAModeChangeThatShowsNoArea() {
    let mode = HeadMode(width: 1280, height: 1024, refreshMilliHz: 60020, preferred: true)
    let lit = Head(name: "DP-1", connected: true, enabled: true, modes: [mode], currentMode: 0)
    var off = lit
    (off.enabled, off.currentMode) = (false, nil)
    let events = SnapshotDiff.events(from: HeadSnapshot(heads: [lit]), to: HeadSnapshot(heads: [off]))
    #expect(events.map(\.summary) == ["mode-changed DP-1"])
  }
}
