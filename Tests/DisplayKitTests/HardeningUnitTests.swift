import DisplayKit
import DisplayModel
import DisplayRender
import DisplayService
import DisplayX11
import Testing

/// Values from outside (CRTC sizes, snapshots read across a change) that once trapped or
/// misled the daemon, checked without a server.
@Suite struct HardeningUnitTests {
  @Test func aZeroSizeMirrorTargetOrSourceMakesAFiniteTransform() {
    for (source, w, h) in [
      (Rect(x: 0, y: 0, width: 1920, height: 1080), 0, 0), (Rect(x: 0, y: 0, width: 0, height: 0), 1280, 1024),
      (Rect(x: 0, y: 0, width: 1920, height: 1080), 0, 1024),
    ] {
      for scale in MirrorScale.allCases {
        let g = MirrorGeometry(source: source, width: w, height: h, scale: scale)
        #expect(g.transform.allSatisfy { $0.isFinite }, "\(source) into \(w)x\(h) \(scale)")
        #expect(g.scaleX > 0 && g.scaleY > 0)
        for filter in MirrorFilter.allCases { _ = g.filter(filter) }
        _ = g.windowRect(forDamage: Rect(x: 0, y: 0, width: 10, height: 10))
      }
    }
  }

  @Test func aTinyMirrorOfALargeSourceGetsABoundedBoxKernel() {
    let g = MirrorGeometry(source: Rect(x: 0, y: 0, width: 32767, height: 32767), width: 1, height: 1, scale: .fit)
    let (name, kernel) = g.filter(.box)
    #expect(name == "convolution")
    #expect(kernel == MirrorGeometry.maxKernel, "at most \(MirrorGeometry.maxKernel)² weights, not 32767²")
    let half = MirrorGeometry(source: Rect(x: 0, y: 0, width: 1920, height: 1080), width: 960, height: 540, scale: .fit)
    #expect(half.filter(.box).kernel == 2, "ordinary scales keep their box")
  }

  @Test func fixedPointSaturatesInsteadOfTrapping() {
    #expect(MirrorGeometry.fixed(1) == 65536)
    #expect(MirrorGeometry.fixed(-1.5) == -98304)
    #expect(MirrorGeometry.fixed(1e12) == Int32.max)
    #expect(MirrorGeometry.fixed(-1e12) == Int32.min)
    #expect(MirrorGeometry.fixed(.infinity) == Int32.max)
    #expect(MirrorGeometry.fixed(.nan) == 0)
  }

  @Test func aBlankImageWiderOrTallerThanCairoCanAddressIsNilNotATrap() {
    let huge = Int(Int32.max) + 1
    #expect(RenderedImage.blank(width: huge, height: 1) == nil)
    #expect(RenderedImage.blank(width: 1, height: huge) == nil)
    #expect(RenderedImage.blank(width: Int.max, height: Int.max) == nil)
    #expect(RenderedImage.blank(width: 2, height: 2)?.width == 2, "a sane size still draws")
  }

  @Test func aSnapshotReadAcrossAChangeIsInconsistent() {
    let t = TopologyBuilder.topology(
      ["VNC-0", "VNC-1"], on: ["VNC-0": TopologyBuilder.m1080, "VNC-1": TopologyBuilder.m1024])
    #expect(t.isConsistent)
    // CRTCs read before VNC-1 went away, outputs after: the CRTC still names the output.
    var torn = t
    torn.outputs[1].connection = .disconnected
    torn.outputs[1].crtc = nil
    #expect(!torn.isConsistent)
    var other = t
    other.crtcs[1].outputs = []
    #expect(!other.isConsistent, "an output naming a CRTC that does not list it")
  }
}
