import DisplayModel
import DisplayPorts
import DisplayX11
import Testing
import XRig

extension XServerTests {
  /// The daemon's layout on a real X server, through the output-management port as on every
  /// backend: what only RandR knows (its spelling of a transform, the CRTCs that refuse a
  /// transform) is kept behind the port and still reaches the server.
  @Suite struct RandRPortServer {
    typealias B = PlanBuilder

    /// The listed mode `width`x`height` on `head`, at the origin, with `transform`.
    static func lit(
      _ head: String, _ width: Int, _ height: Int, transform: Transform = .normal,
      spelling: TransformSpelling = .turned, scale: Double = 1
    ) -> HeadConfiguration {
      HeadConfiguration(
        name: head, enabled: true, mode: .listed(width: width, height: height, refreshMilliHz: 0),
        transform: transform, spelling: spelling, scale: scale)
    }

    /// A half turn spelled as both reflections is sent as both reflections, not as the half
    /// turn the transform also is.
    @Test func aHalfTurnSpelledAsBothReflectionsIsSentSo() throws {
      let server = try TestXServer.xephyr()
      let layout = OutputManagerLayout(try XConnection(name: server.display))
      let heads = try layout.read(ReadOptions(probe: true))
      let head = Self.lit("default", 1024, 768, transform: .rotated180, spelling: .reflectedY)
      let (result, _) = try layout.apply(OutputConfiguration(generation: heads.generation, heads: [head]))
      #expect(result == .applied)
      let lit = try #require(try B.snapshot(server).crtcs.first { $0.isActive })
      #expect(lit.rotation == [.normal, .reflectX, .reflectY], "\(lit.rotation.rawValue)")
    }

    /// A CRTC that refused a transform is learned behind the port: the next configuration
    /// scaling it is refused before anything is sent, naming the same head, so the daemon
    /// plans it unscaled either way.
    @Test func aRefusedTransformIsLearnedAndRefusedAgainWithoutSending() throws {
      let server = try TestXServer.dummy()
      let layout = OutputManagerLayout(try XConnection(name: server.display))
      let heads = try layout.read(ReadOptions(probe: true))
      let scaled = [Self.lit("DUMMY0", 800, 600, scale: 1.25)]
      let (first, _) = try layout.apply(OutputConfiguration(generation: heads.generation, heads: scaled))
      guard case .refused(let refusal) = first else {
        Issue.record("the dummy driver took a transform: \(first)")
        return
      }
      #expect(refusal.transformRefused == ["DUMMY0"])
      let again = try layout.read()
      let (second, _) = try layout.apply(OutputConfiguration(generation: again.generation, heads: scaled))
      guard case .refused(let refusedAgain) = second else {
        Issue.record("sent again: \(second)")
        return
      }
      #expect(refusedAgain.transformRefused == ["DUMMY0"])
      #expect(try layout.read().generation == again.generation, "nothing was sent")
    }
  }
}
