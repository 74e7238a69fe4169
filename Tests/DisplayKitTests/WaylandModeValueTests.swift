import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayWayland

/// With values: a size a head does not list becomes `set_custom_mode` (wlroots makes any
/// size where its backend can), a headless head's mode without a refresh is that size at any
/// rate, and the bounds on what a compositor lists.
@Suite struct WaylandModeValueTests {
  /// A head as sway's headless backend lists it: one 1920x1080 mode without a refresh.
  static let headless = Head(
    name: "HEADLESS-2", enabled: true, modes: [HeadMode(width: 1920, height: 1080, refreshMilliHz: 0)],
    currentMode: 0, x: 1280, capabilities: HeadCapabilities(customModes: true, anySize: true))

  /// The head planner's plan for `head` beside a main head (the daemon arranges the others
  /// around it), on the screen a Wayland backend reports: the protocol's largest.
  static func plan(_ rules: String, _ head: Head = headless) throws -> RulePlan {
    let main = Head(
      name: "HEADLESS-1", enabled: true, modes: [HeadMode(width: 1280, height: 720, refreshMilliHz: 0)],
      currentMode: 0, capabilities: HeadCapabilities(customModes: true, anySize: true))
    var snapshot = HeadSnapshot(heads: [main, head])
    snapshot.screen = GoldenDesks.screen(snapshot)
    let config = try Config.parse(Array("{ monitors: [\(rules)] }".utf8), file: "test.json5")
    return RulePlanner(snapshot: snapshot, config: config).plan()
  }

  @Test func aSizeAndRateTheHeadDoesNotListIsAskedForAsACustomMode() throws {
    let plan = try Self.plan("{ match: { output: 'HEADLESS-2' }, mode: '1280x1024@60' }")
    #expect(plan.warnings.isEmpty, "\(plan.warnings)")
    let head = try #require(plan.configuration.heads.first)
    guard case .custom(let line) = head.mode else {
      Issue.record("\(String(describing: head.mode))")
      return
    }
    #expect(line.hDisplay == 1280 && line.vDisplay == 1024)
    let planned = try ConfigurationPlan.resolve(head.mode, on: Self.headless).get()
    #expect(planned == .custom(width: 1280, height: 1024, refreshMilliHz: 60000))
  }

  /// Without a rate the compositor picks one (refresh 0 in `set_custom_mode`).
  @Test func aSizeWithoutARateLeavesTheRateToTheCompositor() throws {
    let plan = try Self.plan("{ match: { output: 'HEADLESS-2' }, mode: '1280x1024' }")
    let head = try #require(plan.configuration.heads.first)
    #expect(
      try ConfigurationPlan.resolve(head.mode, on: Self.headless).get()
        == .custom(width: 1280, height: 1024, refreshMilliHz: 0))
  }

  /// The listed 1920x1080 has no refresh: `1920x1080@60` is that mode, nothing made, so the
  /// daemon does not re-apply it at every look.
  @Test func aListedSizeWithoutARefreshIsThatSizeAtAnyRate() throws {
    let plan = try Self.plan("{ match: { output: 'HEADLESS-2' }, mode: '1920x1080@60' }")
    #expect(plan.isEmpty && plan.warnings.isEmpty, "\(plan.configuration) \(plan.warnings)")
  }

  /// A modeline is sent with its own rate.
  @Test func aModelineIsACustomModeAtItsOwnRate() throws {
    let plan = try Self.plan(
      "{ match: { output: 'HEADLESS-2' }, mode: '1600x700', modeline: '90.50 1600 1680 1840 2080 700 703 713 727 -hsync +vsync' }"
    )
    let head = try #require(plan.configuration.heads.first)
    let planned = try ConfigurationPlan.resolve(head.mode, on: Self.headless).get()
    // 90.5 MHz / (2080 x 727) = 59.848 Hz.
    #expect(planned == .custom(width: 1600, height: 700, refreshMilliHz: 59848))
  }

  /// X outputs make modes but show only what they list: there a missing size still falls
  /// back with a warning.
  @Test func aServerThatDoesNotMakeSizesStillFallsBack() throws {
    var head = Self.headless
    head.capabilities.anySize = false
    let plan = try Self.plan("{ match: { output: 'HEADLESS-2' }, mode: '1280x1024@60' }", head)
    let asked = plan.configuration.heads.first?.mode
    #expect(plan.warnings.count == 1, "\(plan.warnings)")
    if case .custom = asked { Issue.record("a custom mode asked of a server that makes no sizes: \(String(describing: asked))") }
  }

  // MARK: bounds

  @Test func headsWithMoreThan4095ModesKeepDistinctIdsAndTheirCurrentMode() throws {
    var head = Self.headless
    head.modes = (0..<5000).map { HeadMode(width: 640 + $0, height: 480, refreshMilliHz: 60000) }
    head.currentMode = 4999
    let (bounded, warnings) = HeadSnapshot(heads: [head]).bounded()
    #expect(warnings == ["HEADLESS-2 lists 5000 modes: only 1024 are used"])
    let kept = try #require(bounded.heads.first)
    #expect(kept.modes.count == HeadSnapshot.maxModes && kept.mode?.width == 640 + 4999)
    let sizes = kept.modes.map { "\($0.width)x\($0.height)@\($0.refreshMilliHz)" }
    #expect(Set(sizes).count == sizes.count, "the modes kept are distinct")
  }

  @Test func headsPastTheBoundAndSecondHeadsOfANameAreLeftOut() {
    let heads = (0..<100).map { Head(name: "H-\($0)") } + [Head(name: "H-1")]
    let (bounded, warnings) = HeadSnapshot(heads: heads).bounded()
    #expect(bounded.heads.count == HeadSnapshot.maxHeads)
    #expect(warnings == ["a second head named 'H-1' is left out", "100 heads listed: only the first 64 are used"])
    #expect(HeadSnapshot(heads: [Self.headless]).bounded().warnings.isEmpty)
  }
}

extension WaylandModeValueTests {
  /// A refusal names the custom modes it asked for: the likely cause.
  @Test func aRefusalNamesTheCustomModesAskedFor() {
    let planned = [
      PlannedHead(
        name: "X11-1", enabled: true, mode: .custom(width: 800, height: 600, refreshMilliHz: 59_950), x: 0, y: 0,
        transform: .normal, logicalScale: 1),
      PlannedHead(
        name: "X11-2", enabled: true, mode: .custom(width: 640, height: 480, refreshMilliHz: 0), x: 0, y: 0,
        transform: .normal, logicalScale: 1),
      PlannedHead(name: "X11-3", enabled: true, mode: .listed(0), x: 0, y: 0, transform: .normal, logicalScale: 1),
    ]
    #expect(
      ConfigurationPlan.customNote(planned) == " (custom modes asked for: X11-1 800x600@59.950 Hz, X11-2 640x480)")
    #expect(ConfigurationPlan.customNote(Array(planned.suffix(1))).isEmpty)
  }
}

extension WaylandModeValueTests {
  /// `custom: true` asks for the size and rate themselves: wlroots makes its own timings.
  @Test func customTrueAsksForTheSizeAndRate() throws {
    let plan = try Self.plan("{ match: { output: 'HEADLESS-2' }, mode: '1280x1024@75', custom: true }")
    let head = try #require(plan.configuration.heads.first)
    #expect(
      try ConfigurationPlan.resolve(head.mode, on: Self.headless).get()
        == .custom(width: 1280, height: 1024, refreshMilliHz: 75000))
  }

  /// Once shown, what was asked for is listed by size and rate (the compositor's mHz): the
  /// same rule then changes nothing, so the daemon does not ask again at every `done`.
  @Test(arguments: [
    ("mode: '1280x1024@60'", 60000),
    ("mode: '1280x1024'", 60000),
    ("mode: '1280x1024', modeline: '108.00 1280 1328 1440 1688 1024 1025 1028 1066 +hsync +vsync'", 60020),
  ])
  func whatWasMadeIsListedAfterwardsAndNotAskedForAgain(rule: String, listedMilliHz: Int) throws {
    var shown = Self.headless
    shown.modes = [HeadMode(width: 1280, height: 1024, refreshMilliHz: listedMilliHz)]
    let plan = try Self.plan("{ match: { output: 'HEADLESS-2' }, \(rule) }", shown)
    #expect(plan.isEmpty, "\(plan.configuration) \(plan.warnings)")
  }
}
