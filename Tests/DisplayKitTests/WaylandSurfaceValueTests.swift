import Testing

@testable import DisplayWayland

/// What the compositor sends a surface, taken as hostile: sizes that are 0 (the client's
/// choice) or absurd are no size, and a transform's quarter turn swaps the output's axes.
struct WaylandSurfaceValueTests {
  @Test func configuredSidesOutsideOneTo16384AreNoSize() {
    #expect(LayerSurface.side(1920) == 1920)
    #expect(LayerSurface.side(1) == 1 && LayerSurface.side(16384) == 16384)
    #expect(LayerSurface.side(0) == nil)
    #expect(LayerSurface.side(16385) == nil)
    #expect(LayerSurface.side(UInt32.max) == nil)
  }

  @Test func anOutputsPixelsTurnWithItsTransform() {
    let output = OutputState(proxy: OpaquePointer(bitPattern: 8)!, global: 1)
    #expect(output.physicalSize == nil)
    output.modeWidth = 1920
    output.modeHeight = 1080
    #expect(output.physicalSize! == (1920, 1080))
    for turned: Int32 in [1, 3, 5, 7] {
      output.transform = turned
      #expect(output.physicalSize! == (1080, 1920), "transform \(turned)")
    }
    for straight: Int32 in [0, 2, 4, 6] {
      output.transform = straight
      #expect(output.physicalSize! == (1920, 1080), "transform \(straight)")
    }
  }
}
