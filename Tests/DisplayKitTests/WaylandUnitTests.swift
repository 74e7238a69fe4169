import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayWayland

/// The pure parts of the wlroots backend, with values: the RandR-shaped topology bridged from
/// heads, the planning of a configuration, and the rollback after a `failed` (against a fake
/// compositor that applies head by head, as wlroots before 0.17 does, which sway 1.10 will not
/// do on demand).
@Suite struct WaylandUnitTests {
  static let laptop = Head(
    name: "eDP-1", description: "Built-in", make: "BOE", model: "0x095F", serial: "", mmWidth: 300, mmHeight: 190,
    enabled: true,
    modes: [
      HeadMode(width: 1920, height: 1200, refreshMilliHz: 59_950),
      HeadMode(width: 2560, height: 1600, refreshMilliHz: 60_000, preferred: true),
    ],
    currentMode: 0, x: 0, y: 0, transform: .rotated90, scale: 0.5)
  static let monitor = Head(
    name: "DP-2", make: "Dell Inc.", model: "DELL U2720Q", serial: "ABC123", mmWidth: 600, mmHeight: 340,
    enabled: false,
    modes: [HeadMode(width: 3840, height: 2160, refreshMilliHz: 60_000, preferred: true)])

  /// The diff matches heads by name: a head plugged is connected, one unplugged disconnected.
  @Test func theDiffSeesAHeadPluggedAndUnplugged() {
    let both = HeadSnapshot(heads: [Self.laptop, Self.monitor])
    var lit = Self.monitor
    lit.enabled = true
    lit.currentMode = 0
    lit.x = 600
    let one = HeadSnapshot(heads: [Self.laptop])
    let plugged = SnapshotDiff.events(from: one, to: HeadSnapshot(heads: [Self.laptop, lit]))
    #expect(plugged.map(\.summary) == ["connected DP-2 3840x2160+600+0 3840x2160@60.00"])
    #expect(SnapshotDiff.events(from: both, to: one).map(\.summary) == ["disconnected DP-2"])
  }

  @Test func aPlanKeepsUnnamedHeadsAsTheyAreAndResolvesModes() throws {
    let snapshot = HeadSnapshot(heads: [Self.laptop, Self.monitor], generation: 3)
    let on = HeadConfiguration(
      name: "DP-2", enabled: true, mode: .listed(width: 3840, height: 2160, refreshMilliHz: 59_940), x: 600, y: 0)
    let plan = try ConfigurationPlan.plan(OutputConfiguration(generation: 3, heads: [on]), on: snapshot).get()
    #expect(plan.map(\.name) == ["eDP-1", "DP-2"])
    #expect(
      plan[0]
        == PlannedHead(
          name: "eDP-1", enabled: true, mode: .listed(0), x: 0, y: 0, transform: .rotated90, logicalScale: 2))
    #expect(plan[1].mode == .listed(0) && plan[1].x == 600 && plan[1].logicalScale == 1)
    let any = ConfigurationPlan.resolve(.listed(width: 2560, height: 1600, refreshMilliHz: 0), on: Self.laptop)
    #expect(try any.get() == .listed(1))
  }

  @Test func aPlanIsRefusedBeforeAnythingIsSentWhenTheProtocolCannotSayIt() {
    let snapshot = HeadSnapshot(heads: [Self.laptop], generation: 3)
    let cases: [(HeadConfiguration, String)] = [
      (.off("HDMI-A-1"), "no head named 'HDMI-A-1'"),
      (
        HeadConfiguration(
          name: "eDP-1", enabled: true, mode: .listed(width: 1920, height: 1200, refreshMilliHz: 75_000)),
        "lists no mode"
      ),
      (HeadConfiguration(name: "eDP-1", enabled: true, scale: .nan), "scale"),
      (HeadConfiguration(name: "eDP-1", enabled: true, scale: 0), "scale"),
      (HeadConfiguration(name: "eDP-1", enabled: true, x: Int(Int32.max) + 1), "position"),
    ]
    for (head, reason) in cases {
      guard
        case .failure(let refusal) = ConfigurationPlan.plan(
          OutputConfiguration(generation: 3, heads: [head]), on: snapshot)
      else {
        Issue.record("\(head) was planned")
        continue
      }
      #expect(refusal.reason.contains(reason), "\(refusal.reason)")
    }
  }

  /// A compositor that applies head by head and fails half-way: the backend sees the
  /// changed heads, applies the snapshot from before again, and the desk is as it was.
  @Test func aFailedApplyAfterHalfTheHeadsIsRolledBack() throws {
    let fake = HeadByHeadCompositor(heads: [Self.laptop, Self.monitor], failAfter: 1)
    let before = try fake.current()
    var moved = Self.laptop
    moved.x = 1000
    let wanted = OutputConfiguration(
      generation: before.generation,
      heads: [
        HeadConfiguration(current: moved),
        HeadConfiguration(name: "DP-2", enabled: true, mode: .listed(width: 3840, height: 2160, refreshMilliHz: 0)),
      ])
    let result = try Rollback.apply(wanted, on: fake)
    #expect(result == .refused(ApplyRefusal(reason: "failed")))
    #expect(fake.applies == 2, "the configuration, then the restore")
    #expect(fake.heads == before.heads)
  }

  @Test func whatARestoreCannotPutBackIsNamed() throws {
    let fake = HeadByHeadCompositor(heads: [Self.laptop, Self.monitor], failAfter: 1, restoreFails: true)
    let before = try fake.current()
    var moved = Self.laptop
    moved.x = 1000
    let result = try Rollback.apply(
      OutputConfiguration(generation: before.generation, heads: [HeadConfiguration(current: moved)]), on: fake)
    guard case .refused(let refusal) = result else {
      Issue.record("not refused: \(result)")
      return
    }
    #expect(refusal.notRestored == ["eDP-1"])
  }

  /// The serial moved between the snapshot and the configuration (a plug raced it): stale,
  /// nothing applied, nothing restored.
  @Test func aCancelledRaceIsStaleAndTouchesNothing() throws {
    let fake = HeadByHeadCompositor(heads: [Self.laptop, Self.monitor], failAfter: nil)
    let planned = try fake.current()
    fake.serial += 1
    let result = try Rollback.apply(
      OutputConfiguration(generation: planned.generation, heads: [.off("eDP-1")]), on: fake)
    #expect(result == .stale)
    #expect(fake.applies == 0 && fake.heads == planned.heads)
  }

  /// Strings from the compositor are bounded; heads sort as connectors do.
  @Test func compositorStringsAreBoundedAndHeadsSortAsConnectors() {
    let long = String(repeating: "x", count: 5000)
    #expect(long.withCString { compositorString($0) }.count == 1024)
    #expect(compositorString(nil) == "")
    #expect(
      ["DP-10", "HEADLESS-2", "DP-2", "HEADLESS-1", "eDP-1"].sorted(by: naturalOrder) == [
        "DP-2", "DP-10", "HEADLESS-1", "HEADLESS-2", "eDP-1",
      ])
    // Ten digits and more compare by their first nine, then as written; no number sorts first.
    #expect(
      ["X-12345678901", "X-12345678900", "X-", "X-9", "é-1", "e-2"].sorted(by: naturalOrder) == [
        "X-", "X-9", "X-12345678900", "X-12345678901", "e-2", "é-1",
      ])
  }
}

/// A compositor of heads that applies a configuration head by head and may fail after
/// applying `failAfter` of them (wlroots before 0.17); a configuration from another serial is cancelled.
final class HeadByHeadCompositor: ConfigurationChannel {
  var heads: [Head]
  var serial: UInt64 = 1
  var applies = 0
  let failAfter: Int?
  let restoreFails: Bool

  init(heads: [Head], failAfter: Int?, restoreFails: Bool = false) {
    self.heads = heads
    self.failAfter = failAfter
    self.restoreFails = restoreFails
  }

  func current() throws(DisplayError) -> HeadSnapshot { HeadSnapshot(heads: heads, generation: serial) }

  func send(_ configuration: OutputConfiguration, test: Bool) throws(DisplayError) -> ApplyResult {
    guard configuration.generation == serial else { return .stale }
    guard !test else { return .applied }
    applies += 1
    let restoring = applies > 1
    if restoring && restoreFails { return .refused(ApplyRefusal(reason: "failed")) }
    for (done, wanted) in configuration.heads.enumerated() {
      guard let index = heads.firstIndex(where: { $0.name == wanted.name }) else { continue }
      heads[index].enabled = wanted.enabled
      heads[index].x = wanted.x
      heads[index].y = wanted.y
      heads[index].transform = wanted.transform
      heads[index].scale = wanted.scale
      if case .listed(let w, let h, _) = wanted.mode {
        heads[index].currentMode = heads[index].modes.firstIndex { $0.width == w && $0.height == h }
      }
      if !wanted.enabled { heads[index].currentMode = nil }
      serial += 1
      if let failAfter, !restoring, done + 1 >= failAfter { return .refused(ApplyRefusal(reason: "failed")) }
    }
    return .applied
  }
}
