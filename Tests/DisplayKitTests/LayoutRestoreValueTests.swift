import DisplayModel
import Testing

/// The layout restore over heads with values: what it gives back, what it leaves, and the
/// choices where another way of restoring would do otherwise (a saved scale, a head that
/// shows its saved layout already, another monitor on a connector).
@Suite struct LayoutRestoreValueTests {
  static let full = HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true)
  static let hd = HeadMode(width: 1280, height: 720, refreshMilliHz: 60000)
  static let scaling = HeadCapabilities(transforms: [.normal, .rotated90], scaling: true)

  static func lit(_ name: String, x: Int = 0, mode: Int = 0, scale: Double = 1, make: String = "") -> Head {
    Head(
      name: name, make: make, enabled: true, modes: [full, hd], currentMode: mode, x: x, scale: scale,
      capabilities: scaling)
  }

  static func off(_ name: String, make: String = "") -> Head {
    Head(name: name, make: make, modes: [full, hd], capabilities: scaling)
  }

  static func restore(_ saved: [Head], _ now: [Head], keptOff: Set<String> = []) -> RulePlan {
    let (a, b) = (HeadSnapshot(heads: saved, generation: 1), HeadSnapshot(heads: now, generation: 2))
    return LayoutRestore.plan(
      saved: a, now: b, keptOff: keptOff, screen: (GoldenDesks.screen(a), GoldenDesks.screen(b)))
  }

  @Test func eachKnownMonitorGetsBackItsModePlaceAndScaleAndTheOthersKeepWhatTheyHave() {
    let saved = [Self.lit("eDP-1"), Self.lit("DP-1", x: 1920, mode: 1, scale: 0.5)]
    let now = [Self.lit("eDP-1", x: 1280, mode: 1), Self.lit("DP-1"), Self.lit("DP-9", x: 3200)]
    let plan = Self.restore(saved, now)
    #expect(
      PlanText.line(plan)
        == "eDP-1 1920x1080@60000 +0+0; DP-1 1280x720@60000 +1920+0 scale 0.5 | configures DP-1,eDP-1")
  }

  /// A scale the head had when the layout was saved comes back with it, rather than the
  /// head shown unscaled for the automatic choice to scale again.
  @Test func theSavedScaleComesBack() {
    let plan = Self.restore([Self.lit("DP-1", scale: 2)], [Self.lit("DP-1")])
    #expect(plan.configuration.heads.map(\.scale) == [2])
  }

  /// A head that cannot scale now is put back unscaled: asked its old scale, it would be
  /// refused again at every restore.
  @Test func aHeadThatCannotScaleNowIsPutBackUnscaled() {
    var now = Self.lit("DP-1", x: 100)
    now.capabilities.scaling = false
    let plan = Self.restore([Self.lit("DP-1", scale: 2)], [now])
    #expect(PlanText.line(plan) == "DP-1 1920x1080@60000 +0+0 | configures DP-1")
  }

  /// A head that shows what was saved is left as it is: nothing is sent for it, and no
  /// other head goes dark for it.
  @Test func aHeadShowingItsSavedLayoutAlreadyIsLeftAsItIs() {
    let saved = [Self.lit("eDP-1"), Self.lit("DP-1", x: 1920)]
    let now = [Self.lit("eDP-1"), Self.lit("DP-1", x: 2000)]
    let plan = Self.restore(saved, now)
    #expect(PlanText.line(plan) == "DP-1 1920x1080@60000 +1920+0 | configures DP-1,eDP-1")
  }

  /// Without an EDID a monitor is told by the make, model and serial it reports: another
  /// monitor on the connector was not saved and keeps what it has.
  @Test func anotherMonitorOnTheConnectorIsNotRestored() {
    let saved = [Self.lit("eDP-1"), Self.lit("HDMI-A-1", x: 1920, make: "Goldstar")]
    let now = [Self.lit("eDP-1", x: 1280, mode: 1), Self.lit("HDMI-A-1", mode: 1, make: "DEL")]
    let plan = Self.restore(saved, now)
    #expect(PlanText.line(plan) == "eDP-1 1920x1080@60000 +0+0 | configures eDP-1")
  }

  /// A desk saved with every head off, where one head is now another monitor (its make
  /// says so, no EDID to tell otherwise): that monitor was not saved and keeps what it has,
  /// lit, so the known head saved off goes off and the desk is not dark. Matching monitors
  /// by EDID alone would count both as saved off, and refuse the whole restore for the dark
  /// desk it would leave.
  @Test func aMonitorSwappedOnItsConnectorStaysLitSoTheKnownHeadSavedOffGoesOff() {
    let saved = [Self.off("DP-3"), Self.off("HDMI-A-1")]
    let now = [Self.lit("DP-3"), Self.lit("HDMI-A-1", mode: 1, make: "DEL")]
    let plan = Self.restore(saved, now)
    #expect(plan.configuration.heads == [.off("DP-3")])
    #expect(plan.configures.isEmpty && plan.configuration.primary == nil && plan.warnings.isEmpty)
  }

  /// Turning off every known head saved off would leave nothing lit: the restore sends
  /// nothing then.
  @Test func aRestoreThatWouldLeaveTheDeskDarkSendsNothing() {
    let plan = Self.restore([Self.off("DP-3"), Self.off("HDMI-A-1")], [Self.lit("DP-3"), Self.lit("HDMI-A-1")])
    #expect(plan.configuration.heads.isEmpty && plan.configures.isEmpty)
  }

  /// A panel kept off (its lid closed) is not lit again, whatever was saved.
  @Test func aPanelKeptOffIsNotLitAgain() {
    let plan = Self.restore(
      [Self.lit("eDP-1"), Self.lit("DP-1", x: 1920)], [Self.off("eDP-1"), Self.lit("DP-1")], keptOff: ["eDP-1"])
    #expect(PlanText.line(plan) == "DP-1 1920x1080@60000 +1920+0 | configures DP-1")
  }
}
