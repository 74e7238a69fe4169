import DisplayModel
import Testing

/// The events the daemon derives from two head snapshots are the ones it derives from the
/// two topologies those heads report, on random RandR desks: what `watch`, the hooks and
/// the log say cannot change when the daemon's view becomes heads.
@Suite struct HeadDiffTests {
  /// One event as the log and `watch` say it, and the head it is about.
  struct Said: Equatable, CustomStringConvertible {
    var kind: TopologyEventKind
    var name: String
    var rect: Rect?
    var words: String
    var description: String { words }
  }

  static func said(_ e: TopologyEvent) -> Said {
    Said(kind: e.kind, name: e.output.name, rect: e.geometry, words: e.summary)
  }

  static func said(_ e: HeadEvent) -> Said { Said(kind: e.kind, name: e.head.name, rect: e.rect, words: e.summary) }

  @Test func theEventsOfTwoHeadSnapshotsAreTheEventsOfTheirTopologiesOnRandomDesks() {
    var (differ, events, kinds) = ([String](), 0, Set<TopologyEventKind>())
    for seed in UInt64(1)...3000 {
      var r = SimRandom(seed: seed)
      let (a, b) = (RandomDesk.topology(&r), RandomDesk.topology(&r))
      let old = TopologyDiff.events(from: a, to: b).map(Self.said)
      let new = HeadDiff.events(from: HeadSnapshot(topology: a), to: HeadSnapshot(topology: b)).map(Self.said)
      events += old.count
      kinds.formUnion(old.map(\.kind))
      if old != new { differ.append("seed \(seed): \(old) against \(new)") }
    }
    #expect(differ.isEmpty, "\(differ.count) desks differ: \(differ.prefix(3))")
    #expect(events > 3000)
    #expect(kinds.isSuperset(of: [.connected, .disconnected, .modeChanged, .primaryChanged]))
  }

  @Test func aMonitorWithoutAnEDIDThatSaysAnotherMakeIsAnotherMonitor() {
    let mode = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true)
    var head = Head(name: "HDMI-A-1", connected: true, enabled: true, modes: [mode], currentMode: 0)
    head.make = "Dell Inc."
    var other = head
    other.make = "Goldstar"
    let events = HeadDiff.events(from: HeadSnapshot(heads: [head]), to: HeadSnapshot(heads: [other]))
    #expect(events.map(\.kind) == [.edidChanged])
    #expect(events.first?.summary == "edid-changed HDMI-A-1 1920x1080+0+0 1920x1080@60.00")
  }

  @Test func aHeadTurnedOffIsAModeChangeThatShowsNoArea() {
    let mode = HeadMode(width: 1280, height: 1024, refreshMilliHz: 60020, preferred: true)
    let lit = Head(name: "DP-1", connected: true, enabled: true, modes: [mode], currentMode: 0)
    var off = lit
    (off.enabled, off.currentMode) = (false, nil)
    let events = HeadDiff.events(from: HeadSnapshot(heads: [lit]), to: HeadSnapshot(heads: [off]))
    #expect(events.map(\.summary) == ["mode-changed DP-1"])
  }
}
