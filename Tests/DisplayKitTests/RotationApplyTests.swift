import DisplayKit
import DisplayX11
import Foundation
import Testing
import XRig

@testable import DisplayModel

extension XServerTests {
  /// Rotation and reflection on Xephyr, the one server here whose CRTC offers them.
  @Suite struct RotationApply {
    typealias B = PlanBuilder

    /// Xephyr's screen follows its one CRTC (RandR 1.0 underneath): a smaller mode shrinks it,
    /// and XRRSetScreenSize alone is a no-op there; the read-back still matches the plan.
    @Test func aModeChangeOnXephyrResizesTheScreenAndReadsBack() throws {
      let server = try TestXServer.xephyr()
      let t = try B.snapshot(server)
      #expect(Layout(t).crtcs.first?.hasPrefix("default 1024x768+0+0") == true, "\(Layout(t))")
      var plan = Plan()
      plan.changes = [try B.change(t, "default", "800x600")]
      plan.screen = (800, 600)
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.failed.isEmpty && outcome.problems.isEmpty, "\(outcome.failed) \(outcome.problems)")
      let after = try B.snapshot(server)
      #expect((after.screen.width, after.screen.height) == (800, 600))
    }

    /// Each rotation and reflection is applied and read back, the screen's sides swapped for
    /// left and right. (Xephyr 21.1.7 started without `-noreset` dies in DamageDestroy on its
    /// first rotation or reflection, whoever asks; the rig passes `-noreset`.)
    @Test(
      arguments: [
        (Rotation.left, 768, 1024), (Rotation.right, 768, 1024), (Rotation.inverted, 1024, 768),
        (Rotation(rawValue: 1 | 16), 1024, 768), (Rotation(rawValue: 1 | 32), 1024, 768),
      ] as [(Rotation, Int, Int)])
    func rotationAndReflectionAreAppliedAndReadBack(_ rotation: Rotation, _ width: Int, _ height: Int) throws {
      let server = try TestXServer.xephyr()
      let t = try B.snapshot(server)
      let crtc = try #require(t.crtcs.first { $0.isActive })
      #expect(crtc.rotations.contains([.left, .right, .inverted, .reflectX, .reflectY]))
      var plan = Plan()
      plan.changes = [try B.change(t, "default", "1024x768", rotation: rotation)]
      plan.screen = (width, height)
      let connection = try XConnection(name: server.display)
      let outcome = try connection.apply(plan, in: t)
      #expect(outcome.failed.isEmpty && outcome.problems.isEmpty, "\(outcome.failed) \(outcome.problems)")
      #expect(outcome.applied.count == 1 && outcome.screen.map { ($0.width, $0.height) == (width, height) } == true)
      let after = try B.snapshot(server)
      let lit = try #require(after.crtcs.first { $0.isActive })
      #expect(lit.rotation == rotation)
      #expect((lit.width, lit.height) == (width, height))
      #expect((after.screen.width, after.screen.height) == (width, height))
      // And back: the monitor's own plan with rotation normal restores the first layout.
      var back = Plan()
      back.changes = [try B.change(after, "default", "1024x768")]
      back.screen = (1024, 768)
      #expect(try XConnection(name: server.display).apply(back, in: after).problems.isEmpty)
      #expect(Layout(try B.snapshot(server)) == Layout(t))
    }

    /// Xephyr lists no preferred mode, so an entry without a mode takes the largest,
    /// 1600x1200, which turned left needs a 1200x1600 screen, over Xephyr's maximum 1600x1200.
    /// The daemon applies the largest mode that fits turned, 1152x864, and says so.
    @Test func aRotatedProfileEntryTakesTheLargestModeThatFitsXephyrsMaximum() throws {
      let server = try TestXServer.xephyr(width: 1600, height: 1200)
      let daemon = try DaemonProcess(
        display: server.display,
        config: "{ profiles: [ { name: 'tall', outputs: [ { match: { output: 'default' }, rotate: 'left' } ] } ] }")
      var t = try B.snapshot(server)
      let turned = eventually(within: 5) {
        t = (try? B.snapshot(server)) ?? t
        return t.crtcs.contains { $0.isActive && $0.rotation == .left }
      }
      #expect(turned, "\(daemon.log.suffix(5))")
      let lit = try #require(t.crtcs.first { $0.isActive })
      #expect((lit.width, lit.height) == (864, 1152) && t.modes[lit.mode ?? ModeID(rawValue: 0)]?.name == "1152x864")
      #expect((t.screen.width, t.screen.height) == (864, 1152))
      let warning =
        "default: 1600x1200 turned does not fit within the server's maximum screen 1600x1200; 1152x864 instead"
      #expect(daemon.log.contains { $0.contains(warning) } || daemon.waitFor(warning) != nil, "\(daemon.log.suffix(8))")
      #expect(!daemon.log.contains { $0.contains("refused") })
    }

    @Test func aScaleXephyrCannotDoIsListedAndNothingChanges() throws {
      let server = try TestXServer.xephyr()
      let t = try B.snapshot(server)
      var plan = Plan()
      plan.changes = [try B.change(t, "default", "800x600")]
      plan.changes[0].transform = CrtcTransform(matrix: [1.25, 0, 0, 0, 1.25, 0, 0, 0, 1])
      plan.screen = (1000, 750)
      let outcome = try XConnection(name: server.display).apply(plan, in: t)
      #expect(outcome.transformRefused == [plan.changes[0].crtc] && outcome.applied.isEmpty)
      let after = try B.snapshot(server)
      #expect(Layout(after) == Layout(t) && after.timestamp == t.timestamp)
    }
  }
}

/// The applier's pure arithmetic, checked against xrandr's.
@Suite struct ApplyGeometryTests {
  @Test func transformsBecomeFixedPointAsXrandrBuildsThem() throws {
    let scale = try #require(
      FixedTransform(CrtcTransform(matrix: [1.25, 0, 0, 0, 1.25, 0, 0, 0, 1], filter: .nearest)))
    #expect(scale.matrix == [81920, 0, 0, 0, 81920, 0, 0, 0, 65536] && scale.filter == "nearest")
    // XDoubleToFixed truncates: 1/3 is 21845.33 → 21845.
    #expect(FixedTransform(CrtcTransform(matrix: [1.0 / 3, 0, 0, 0, 1, 0, 0, 0, 1]))?.matrix[0] == 21845)
    #expect(FixedTransform(.identity) == .identity, "the identity goes without a filter, as --transform none")
    #expect(FixedTransform(CrtcTransform(matrix: [.nan, 0, 0, 0, 1, 0, 0, 0, 1])) == nil)
    #expect(FixedTransform(CrtcTransform(matrix: [40000, 0, 0, 0, 1, 0, 0, 0, 1])) == nil, "beyond 16.16")
    #expect(FixedTransform(CrtcTransform(matrix: [1, 0, 0])) == nil)
    let bilinearIdentity = FixedTransform(matrix: FixedTransform.identity.matrix, filter: "bilinear")
    #expect(bilinearIdentity.sameEffect(as: .identity) && !scale.sameEffect(as: .identity))
  }

  @Test func aFootprintIsTheRotatedThenTransformedMode() {
    #expect(
      CrtcTransform.identity.footprint(x: 10, y: 20, width: 1024, height: 768, rotation: .left)
        == Rect(x: 10, y: 20, width: 768, height: 1024))
    #expect(
      CrtcTransform.identity.footprint(x: 0, y: 0, width: 1024, height: 768, rotation: [.right, .reflectX])
        == Rect(x: 0, y: 0, width: 768, height: 1024))
    #expect(
      CrtcTransform.identity.footprint(x: 0, y: 0, width: 1024, height: 768, rotation: .inverted)
        == Rect(x: 0, y: 0, width: 1024, height: 768))
    let scaled = CrtcTransform(matrix: [1.25, 0, 0, 0, 1.25, 0, 0, 0, 1])
      .footprint(x: 1920, y: 0, width: 1920, height: 1080, rotation: .left)
    #expect(scaled == Rect(x: 1920, y: 0, width: 1350, height: 2400))
    #expect(
      CrtcTransform(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 0]).footprint(x: 0, y: 0, width: 10, height: 10, rotation: .normal)
        == nil)
  }

  /// xrandr on a resize without --dpi: dpi = 25.4 * height / heightMM, mm = 25.4 * px / dpi,
  /// truncated.
  @Test func aResizeKeepsTheVerticalDPILikeXrandr() {
    let mm = ApplyGeometry.keepingDPI(width: 3072, height: 1536, fromHeight: 1536, fromMMHeight: 406)
    #expect(mm == (812, 406) || mm == (811, 406), "\(mm)")
    #expect(
      ApplyGeometry.keepingDPI(width: 3840, height: 2160, fromHeight: 1080, fromMMHeight: 0) == (1016, 571), "96 dpi")
    #expect(ApplyGeometry.keepingDPI(width: 0, height: 0, fromHeight: 100, fromMMHeight: 10) == (1, 1))
  }
}
