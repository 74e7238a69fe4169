import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayWayland

/// `screenshot` on Wayland composes the outputs' screencopy buffers as grim does: each buffer
/// turned by its output's transform (and `y_invert`) into its logical rectangle, at the
/// densest output's pixels per logical pixel. Pixel values here are their buffer places.
@Suite struct DeskPictureTests {
  /// A 3x2 buffer whose pixel at x, y is 10y + x.
  static let buffer = OutputPixels(width: 3, height: 2, pixels: [0, 1, 2, 10, 11, 12])

  static func picture(_ transform: Transform, yInverted: Bool = false) throws -> [[UInt32]] {
    var pixels = Self.buffer
    pixels.yInverted = yInverted
    let rect = transform.swapsAxes ? Rect(x: 0, y: 0, width: 2, height: 3) : Rect(x: 0, y: 0, width: 3, height: 2)
    let desk = try #require(DeskPicture([.init(pixels: pixels, transform: transform, rect: rect)]))
    return stride(from: 0, to: desk.pixels.count, by: desk.width).map { Array(desk.pixels[$0..<$0 + desk.width]) }
  }

  @Test func anUnturnedOutputIsItsBufferPixelForPixel() throws {
    #expect(try Self.picture(.normal) == [[0, 1, 2], [10, 11, 12]])
  }

  @Test func yInvertTurnsTheRowsOver() throws {
    #expect(try Self.picture(.normal, yInverted: true) == [[10, 11, 12], [0, 1, 2]])
  }

  /// The eight transforms, each undone as grim undoes it (its left column is the buffer's
  /// bottom row for 90: the panel turned a quarter counter-clockwise shows it upright).
  @Test func eachTransformIsUndoneIntoTheLogicalRectangle() throws {
    #expect(try Self.picture(.rotated90) == [[10, 0], [11, 1], [12, 2]])
    #expect(try Self.picture(.rotated180) == [[12, 11, 10], [2, 1, 0]])
    #expect(try Self.picture(.rotated270) == [[2, 12], [1, 11], [0, 10]])
    #expect(try Self.picture(.flipped) == [[2, 1, 0], [12, 11, 10]])
    #expect(try Self.picture(.flipped90) == [[0, 10], [1, 11], [2, 12]])
    #expect(try Self.picture(.flipped180) == [[10, 11, 12], [0, 1, 2]])
    #expect(try Self.picture(.flipped270) == [[12, 2], [11, 1], [10, 0]])
  }

  /// A scale 2 head beside a scale 1 one: the desk at 2 pixels per logical pixel, the
  /// scale 1 head's pixels doubled, the gap black; bounds from negative positions.
  @Test func theDeskIsDrawnAtItsDensestOutputsPixels() throws {
    let sharp = OutputPixels(width: 4, height: 4, pixels: Array(100..<116))
    let plain = OutputPixels(width: 2, height: 1, pixels: [7, 8])
    let desk = try #require(
      DeskPicture([
        .init(pixels: sharp, transform: .normal, rect: Rect(x: -2, y: 0, width: 2, height: 2)),
        .init(pixels: plain, transform: .normal, rect: Rect(x: 0, y: 0, width: 2, height: 1)),
      ]))
    #expect(desk.bounds == Rect(x: -2, y: 0, width: 4, height: 2))
    #expect(desk.scale == 2 && desk.width == 8 && desk.height == 4)
    let rows = stride(from: 0, to: desk.pixels.count, by: 8).map { Array(desk.pixels[$0..<$0 + 8]) }
    #expect(rows[0] == [100, 101, 102, 103, 7, 7, 8, 8])
    #expect(rows[1] == [104, 105, 106, 107, 7, 7, 8, 8])
    #expect(rows[3] == [112, 113, 114, 115, 0, 0, 0, 0])
  }

  /// Nothing to compose, a buffer whose pixels do not fill it, or a desk larger than a PNG
  /// can be: no picture (the command says so), never a trap.
  @Test func nothingOrTooMuchGivesNoPicture() {
    #expect(DeskPicture([]) == nil)
    let short = OutputPixels(width: 3, height: 2, pixels: [1, 2])
    #expect(DeskPicture([.init(pixels: short, transform: .normal, rect: Rect(x: 0, y: 0, width: 3, height: 2))]) == nil)
    let wide = DeskPicture([
      .init(pixels: Self.buffer, transform: .normal, rect: Rect(x: 0, y: 0, width: 3, height: 2)),
      .init(pixels: Self.buffer, transform: .normal, rect: Rect(x: 40_000, y: 0, width: 3, height: 2)),
    ])
    #expect(wide == nil)
    // Within cairo's sides, but more pixels than any desk of real monitors.
    let vast = DeskPicture([
      .init(pixels: Self.buffer, transform: .normal, rect: Rect(x: 0, y: 0, width: 3, height: 2)),
      .init(pixels: Self.buffer, transform: .normal, rect: Rect(x: 30_000, y: 30_000, width: 3, height: 2)),
    ])
    #expect(vast == nil)
    let empty = DeskPicture([
      .init(pixels: Self.buffer, transform: .normal, rect: Rect(x: 0, y: 0, width: 0, height: 2))
    ])
    #expect(empty == nil)
  }
}
