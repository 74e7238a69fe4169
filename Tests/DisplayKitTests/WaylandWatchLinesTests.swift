import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

/// On Wayland, `watch`, the daemon's log and the hooks said the events of the topology the
/// heads bridge makes; they now say the heads' own (`HeadDiff`). The lines are the same on
/// random desk pairs but for three named differences, each counted: another make, model or
/// serial on a connector without an EDID is an `edid-changed` (the bridge kept no identity
/// to compare); a mode's label rounds the compositor's mHz (the bridge's refresh was its
/// pixel clock, rounded to the hertz, over the mode's area, which can round a 5 in the third
/// place down); and an interlaced mode says so (the bridge drops the flag).
@Suite struct WaylandWatchLinesTests {
  static let desks = 3000

  /// Why `new` says `old` otherwise, nil when they are not one of the named differences.
  static func difference(_ old: String, _ new: String) -> String? {
    let (a, b) = (old.split(separator: " "), new.split(separator: " "))
    guard a.count == b.count, a.count >= 4, a.dropLast() == b.dropLast() else { return nil }
    let (was, now) = (String(a[a.count - 1]), String(b[b.count - 1]))
    if now == was + "i" { return "interlaced" }
    let (wasRate, nowRate) = (was.split(separator: "@"), now.split(separator: "@"))
    guard wasRate.count == 2, nowRate.count == 2, wasRate[0] == nowRate[0],
      let x = Double(wasRate[1]), let y = Double(nowRate[1]), abs(x - y) < 0.0101
    else { return nil }
    return "label rounding"
  }

  /// Whether the head shows the same mode (size, rate, interlace) over the same area, turned
  /// and scaled the same, in both: the bridge's mode id is the mode's place in the head's
  /// list, which the compositor may change, and a mode that became preferred is still shown
  /// the same.
  static func sameScanout(_ was: Head?, _ after: HeadSnapshot, _ name: String) -> Bool {
    guard let was, let now = after.head(named: name) else { return false }
    let shown = { (head: Head) in head.mode.map { [$0.width, $0.height, $0.refreshMilliHz, $0.interlaced ? 1 : 0] } }
    return (shown(was), was.rect, was.transform, was.scale) == (shown(now), now.rect, now.transform, now.scale)
      && was.spelling == now.spelling
  }

  @Test func theLinesOfWaylandHeadEventsAreThoseOfTheirBridgedTopologyButForNamedDifferences() throws {
    var (counts, differ, events) = ([String: Int](), [String](), 0)
    for seed in UInt64(1)...UInt64(Self.desks) {
      let (before, _) = try WireDesk.wayland(seed: seed &+ 1_000_000)
      let (after, t) = try WireDesk.wayland(seed: seed)
      var old: [String] = []
      for event in TopologyDiff.events(from: Topology(heads: before), to: t) {
        if event.kind == .modeChanged, Self.sameScanout(before.head(named: event.output.name), after, event.output.name)
        {
          counts["a mode listed at another place", default: 0] += 1
          continue
        }
        old.append(event.summary)
      }
      var new: [String] = []
      for event in HeadDiff.events(from: before, to: after) {
        let was = before.head(named: event.head.name)
        if event.kind == .edidChanged, was?.edid == event.head.edid {
          counts["identity without an EDID", default: 0] += 1
          continue
        }
        new.append(event.summary)
      }
      events += old.count
      guard old.count == new.count else {
        differ.append("seed \(seed): \(old) against \(new)")
        continue
      }
      for (o, n) in zip(old, new) where o != n {
        guard let why = Self.difference(o, n) else {
          differ.append("seed \(seed): \(o) against \(n)")
          continue
        }
        counts[why, default: 0] += 1
      }
    }
    print("watch lines on \(Self.desks) Wayland desk pairs: \(events) events, named differences \(counts)")
    #expect(differ.isEmpty, "\(differ.count) differ: \(differ.prefix(3))")
    #expect(events > Self.desks)
  }

  @Test func aModeLabelRoundsTheCompositorsMilliHertz() {
    let mode = HeadMode(width: 1366, height: 768, refreshMilliHz: 60_005)
    #expect(mode.label == "1366x768@60.01")
    #expect(Topology.mode(mode, id: ModeID(rawValue: 1)).label == "1366x768@60.00", "the bridge's")
  }
}
