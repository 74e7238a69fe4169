import DisplayModel
import DisplayPorts
import Testing

@testable import DisplayRender

/// Pixel memory kept between images, so that a placeholder drawn on every plug draws on
/// pages already mapped instead of faulting in new ones each time.
@Suite struct PixelMemoryTests {
  @Test func aFreedBlockIsTheNextOneOfItsSizeAndComesBackZeroed() throws {
    let memory = PixelMemory(keptBlocks: 2, keptBytes: 1 << 20)
    let first = try #require(memory.take(300_000))
    first.pointer.initializeMemory(as: UInt8.self, repeating: 0xab, count: 300_000)
    memory.give(first.pointer, capacity: first.capacity)
    let second = try #require(memory.take(200_000))
    #expect(second.pointer == first.pointer)
    #expect(second.capacity == 300_000)
    let bytes = UnsafeRawBufferPointer(start: second.pointer, count: 200_000)
    #expect(bytes.allSatisfy { $0 == 0 })
    memory.give(second.pointer, capacity: second.capacity)
  }

  @Test func aBlockTooSmallForTheRequestIsNotHandedOut() throws {
    let memory = PixelMemory(keptBlocks: 2, keptBytes: 1 << 20)
    let small = try #require(memory.take(4_096))
    memory.give(small.pointer, capacity: small.capacity)
    let large = try #require(memory.take(8_192))
    #expect(large.capacity == 8_192)
    #expect(memory.keptCount == 1)
    memory.give(large.pointer, capacity: large.capacity)
  }

  @Test func onlyAFewBlocksOfBoundedSizeAreKeptSoIdleMemoryStaysSmall() throws {
    let memory = PixelMemory(keptBlocks: 2, keptBytes: 1 << 20)
    let big = try #require(memory.take(4 << 20))
    memory.give(big.pointer, capacity: big.capacity)
    #expect(memory.keptCount == 0)
    let blocks = try (0..<3).map { _ in try #require(memory.take(65_536)) }
    for block in blocks { memory.give(block.pointer, capacity: block.capacity) }
    #expect(memory.keptCount == 2)
  }

  @Test func anImageOnReusedMemoryStartsBlackLikeANewOne() throws {
    let white = [UInt32](repeating: 0xff_ffff, count: 200 * 100)
    _ = try #require(RenderedImage.of(pixels: white, width: 200, height: 100))
    let image = try #require(RenderedImage.blank(width: 200, height: 100))
    for y in stride(from: 0, to: 100, by: 7) {
      for x in stride(from: 0, to: 200, by: 13) { #expect(image.pixel(x: x, y: y) == 0) }
    }
  }
}
