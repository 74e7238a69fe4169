import Testing

@testable import DisplayModel

/// The one footprint, quarter-turn swap and largest-screen clamp every planner and the X
/// apply use, and the one CRTC allocator of both planners. Pure.
@Suite struct Footprint {
  /// xrandr's `--scale` arithmetic, said independently: the turned side times the 16.16
  /// scale, rounded up.
  func xrandr(_ side: Int, _ fixed: Int) -> Int { (side * fixed + 65535) / 65536 }

  @Test func aScaledFootprintIsXrandrsTurnedSideTimesTheFixedScaleRoundedUp() {
    let modes = [TopologyBuilder.m1080, TopologyBuilder.m1024, TopologyBuilder.m768]
    for mode in modes {
      for rotation in [Rotation.normal, .left, .inverted, [.right, .reflectX]] {
        for scale in stride(from: 0.25, through: 3.0, by: 0.05) {
          let f = FixedScale.fixed(scale)
          let (w, h) = rotation.isQuarterTurn ? (mode.height, mode.width) : (mode.width, mode.height)
          let size = mode.footprint(rotation, FixedScale.transform(f, f))
          #expect(size?.width == xrandr(w, f) && size?.height == xrandr(h, f), "\(mode.name) \(rotation) \(scale)")
        }
      }
    }
  }

  @Test func aQuarterTurnSwapsTheSidesAndAHalfTurnDoesNot() {
    #expect(Rotation.left.turned(1920, 1080) == (1080, 1920))
    #expect(Rotation([.right, .reflectY]).turned(1920, 1080) == (1080, 1920))
    #expect(Rotation.inverted.turned(1920, 1080) == (1920, 1080))
    #expect(TopologyBuilder.m1080.footprint(.left)! == (1080, 1920))
  }

  @Test func theLargestScreenIsTheServersWithinSixteenBitCoordinates() {
    var s = ScreenSize(width: 0, height: 0, minWidth: 8, minHeight: 8, maxWidth: 65535, maxHeight: 4096)
    #expect(s.largest == (32767, 4096))
    #expect(s.holds(32767, 4096) && !s.holds(32768, 10) && !s.holds(10, 4097))
    s.maxWidth = 8192
    #expect(s.largest == (8192, 4096))
  }

  @Test func aTransformThatSendsACornerToInfinityHasNoFootprint() {
    #expect(TopologyBuilder.m1080.footprint(.normal, CrtcTransform(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 0])) == nil)
    #expect(TopologyBuilder.m1080.footprint(.normal, CrtcTransform(matrix: [1e300, 0, 0, 0, 1, 0, 0, 0, 1])) == nil)
  }
}

@Suite struct OneCrtcAllocator {
  /// eDP-1 and HDMI-1 lit on their CRTCs, DP-1 dark; every output can use every CRTC.
  var desk: Topology {
    let m = TopologyBuilder.m1080
    var t = TopologyBuilder.topology(["eDP-1", "HDMI-1", "DP-1"], on: ["eDP-1": m, "HDMI-1": m])
    for i in t.outputs.indices { t.outputs[i].possibleCrtcs = t.crtcs.map(\.id) }
    for i in t.crtcs.indices { t.crtcs[i].possibleOutputs = [] }
    return t
  }

  @Test func anOutputKeepsItsOwnCrtcAndAnotherGetsOnlyAnIdleOne() {
    let t = desk
    var crtcs = CrtcAllocator(t)
    #expect(crtcs.crtc(for: t.outputs[1])?.id == t.crtcs[1].id, "its own")
    #expect(crtcs.crtc(for: t.outputs[2])?.id == t.crtcs[2].id, "the idle one, not a lit one")
    #expect(crtcs.crtc(for: t.outputs[2]) == nil, "none left: both lit CRTCs drive other outputs")
    crtcs.giveBack(t.crtcs[2].id)
    #expect(crtcs.free(for: t.outputs[2])?.id == t.crtcs[2].id, "given back, given again")
  }

  @Test func aCrtcDrivingAnOutputThePlanLetsGoIsFree() {
    let t = desk
    var lettingGo = CrtcAllocator(t, lettingGo: [t.outputs[0].id])
    #expect(lettingGo.free(for: t.outputs[2])?.id == t.crtcs[0].id, "eDP-1 goes off: its CRTC is free, first")
    var keeping = CrtcAllocator(t)
    #expect(keeping.free(for: t.outputs[2])?.id == t.crtcs[2].id, "eDP-1 stays: only the idle one")
  }

  @Test func anOwnCrtcTakenByAnotherOutputOfThePlanIsNotGivenTwice() {
    var t = desk
    // HDMI-1 and DP-1 share one lit CRTC (a clone made by hand).
    t.crtcs[1].outputs = [t.outputs[1].id, t.outputs[2].id]
    t.outputs[2].crtc = t.crtcs[1].id
    var crtcs = CrtcAllocator(t)
    #expect(crtcs.own(t.outputs[1])?.id == t.crtcs[1].id)
    #expect(crtcs.own(t.outputs[2]) == nil)
    #expect(crtcs.free(for: t.outputs[2])?.id == t.crtcs[2].id)
  }
}
