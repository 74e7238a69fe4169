import DisplayX11
import Testing

@testable import DisplayModel

/// The one footprint, quarter-turn swap and largest-screen clamp every planner and the X
/// apply use. Pure.
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
