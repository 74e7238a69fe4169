import DisplayModel
import DisplayPorts
import DisplayX11
import Testing

@testable import DisplayWayland

/// What only RandR has in a configuration changes nothing a wlroots compositor is told: the
/// fallbacks (one mode a head), `sameAs` (the planners give the clone the other's place), a
/// vertical scale (one logical scale a head) and the physical size.
@Suite struct WaylandPlanFieldsTests {
  @Test func theFieldsOnlyRandRHasLeaveTheWaylandPlanAsItWas() throws {
    let modes = [
      HeadMode(width: 1920, height: 1080, refreshMilliHz: 60000, preferred: true),
      HeadMode(width: 1280, height: 720, refreshMilliHz: 60000),
    ]
    let snapshot = HeadSnapshot(
      heads: [
        Head(name: "A", enabled: true, modes: modes, currentMode: 0),
        Head(name: "B", enabled: true, modes: modes, currentMode: 0, x: 1920),
      ], generation: 2)
    let plain = [
      HeadConfiguration(name: "A", enabled: true, mode: .listed(width: 1920, height: 1080, refreshMilliHz: 60000)),
      HeadConfiguration(
        name: "B", enabled: true, mode: .listed(width: 1920, height: 1080, refreshMilliHz: 60000), scale: 0.5),
    ]
    var extra = plain
    extra[0].fallbackModes = [.listed(width: 1280, height: 720, refreshMilliHz: 60000)]
    (extra[1].sameAs, extra[1].scaleY) = ("A", 0.25)
    let asToday = try ConfigurationPlan.plan(OutputConfiguration(generation: 2, heads: plain), on: snapshot).get()
    let configuration = OutputConfiguration(
      generation: 2, heads: extra, physicalSize: PhysicalSize(width: 600, height: 340))
    #expect(try ConfigurationPlan.plan(configuration, on: snapshot).get() == asToday)
  }
}
