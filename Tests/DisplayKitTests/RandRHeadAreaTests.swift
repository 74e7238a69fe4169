import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayX11

/// A scaled head's scale and area with values, as each backend keeps them. The X server's
/// extent of a CRTC (`RRCrtcGetScanoutSize`) is the mode's box through the CRTC's 16.16
/// transform, bounded outwards (`pixman_transform_bounds`): 1366 at `--scale 0.7` (45875/65536)
/// is 956.2, so 957 wide. wlroots lays a head out at its mode divided by its logical scale,
/// rounded down (sway: 1366 at 1.5 is 910).
@Suite struct RandRHeadAreaTests {
  static let m1366 = Mode(
    id: ModeID(rawValue: 9), name: "1366x768", width: 1366, height: 768, dotClock: 85_500_000, hTotal: 1792,
    vTotal: 798)

  /// eDP-1 lit at 1366x768 through `scale`'s CRTC transform, its extent as the server gives it.
  static func desk(scale: Double, extent: (Int, Int)) throws -> Topology {
    var t = TopologyBuilder.topology(["eDP-1"], on: ["eDP-1": TopologyBuilder.m768])
    t.modes[m1366.id] = m1366
    t.outputs[0].modes.append(m1366.id)
    t.crtcs[0].mode = m1366.id
    (t.crtcs[0].width, t.crtcs[0].height) = extent
    let fixed = try #require(FixedTransform(RandRHeadValues.crtcTransform(scale: scale, filter: .bilinear)))
    t.crtcs[0].transform = CrtcTransform(fixed)
    return t
  }

  @Test(arguments: [(0.7, 957, 538), (1.25, 1708, 960), (0.5, 683, 384)])
  func aRandRHeadHasTheCrtcsExactScaleAndCoversItsExtent(_ scale: Double, _ width: Int, _ height: Int) throws {
    let t = try Self.desk(scale: scale, extent: (width, height))
    let head = try #require(RandROutputManager(server: FakeRandRServer(t)).snapshot(t).head(named: "eDP-1"))
    // The 16.16 value itself, not one the extent suggests (1708 / 1366 is 1.25036...).
    #expect(head.scale == Transform.quantized(scale, ScaleQuantum.fixedPoint))
    #expect(head.rect == t.crtcs[0].rect)
  }

  @Test func aHeadRoundsItsAreaAsItsBackendDoes() {
    let mode = HeadMode(width: 1366, height: 768, refreshMilliHz: 60000)
    func area(_ scale: Double, _ rounding: ScaledArea, _ transform: Transform = .normal) -> Rect? {
      Head(
        name: "A", enabled: true, modes: [mode], currentMode: 0, transform: transform, scale: scale,
        scaledArea: rounding
      ).rect
    }
    #expect(area(0.7, .fixedPoint) == Rect(x: 0, y: 0, width: 957, height: 538))
    #expect(area(0.7, .fixedPoint, .rotated90) == Rect(x: 0, y: 0, width: 538, height: 957))
    // wlroots' logical scale 1.5 (the config's 2/3): 910.67 x 512, rounded down.
    #expect(area(1 / 1.5, .logical) == Rect(x: 0, y: 0, width: 910, height: 512))
    #expect(area(1 / 1.75, .logical, .rotated270) == Rect(x: 0, y: 0, width: 438, height: 780))
    // No area for a scale no backend has; a head given one reads it as 1, as the backends do.
    for bad in [0, -1, .nan, .infinity] as [Double] {
      #expect(ScaledArea.fixedPoint.size(width: 1366, height: 768, transform: .normal, scale: bad) == nil)
      #expect(ScaledArea.logical.size(width: 1366, height: 768, transform: .normal, scale: bad) == nil)
      #expect(area(bad, .fixedPoint) == Rect(x: 0, y: 0, width: 1366, height: 768))
    }
  }

  /// A side the logical scale divides exactly keeps every pixel, whatever error the
  /// reciprocal (the config's scale is 1/logical) brings.
  @Test func aSideTheLogicalScaleDividesKeepsEveryPixel() {
    for steps in 64...1024 {
      let logical = Double(steps) / 256
      for side in [1920, 2560, 3840, 1366] {
        let exact = Double(side) * 256 / Double(steps)
        guard exact == exact.rounded() else { continue }
        let size = ScaledArea.logical.size(width: side, height: side, transform: .normal, scale: 1 / logical)
        #expect(size?.width == Int(exact), "\(side) at \(logical)")
      }
    }
  }
}
