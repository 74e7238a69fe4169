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

  /// A head's area skips the matrix: the same sizes, and the same nil past `Int`, as the
  /// extent of the scale matrix, over sides of every sign and size and any scale.
  @Test func theScaledSizeIsTheExtentOfTheScaleMatrix() {
    var random = SystemRandomNumberGenerator()
    let sides = [0, 1, -1, 7, 1080, -1920, 65535, 1 << 40, Int.max, Int.min]
    let scales = [0.0, 1, 0.5, 1.0 / 3, 2.75, -1.25, 1e-300, 1e30, 1e300]
    var cases = sides.flatMap { w in sides.flatMap { h in scales.map { (w, h, $0, $0) } } }
    for _ in 0..<2000 {
      cases.append(
        (
          Int.random(in: -5000...5000, using: &random), Int.random(in: -5000...5000, using: &random),
          Double.random(in: -4...4, using: &random), Double.random(in: -4...4, using: &random)
        ))
    }
    for (w, h, sx, sy) in cases {
      let extent = DisplayModel.Footprint.extent(
        x: 0, y: 0, width: w, height: h, matrix: [sx, 0, 0, 0, sy, 0, 0, 0, 1])
      let size = DisplayModel.Footprint.scaledSize(width: w, height: h, sx: sx, sy: sy)
      #expect(size?.width == extent?.width && size?.height == extent?.height, "\(w)x\(h) by \(sx), \(sy)")
      #expect((size == nil) == (extent == nil), "\(w)x\(h) by \(sx), \(sy)")
    }
  }

  @Test func aTransformThatSendsACornerToInfinityHasNoFootprint() {
    #expect(TopologyBuilder.m1080.footprint(.normal, CrtcTransform(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 0])) == nil)
    #expect(TopologyBuilder.m1080.footprint(.normal, CrtcTransform(matrix: [1e300, 0, 0, 0, 1, 0, 0, 0, 1])) == nil)
  }
}
