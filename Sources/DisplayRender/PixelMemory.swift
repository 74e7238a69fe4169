import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Memory for images' pixels, a few blocks of it kept for the next image once one is freed.
/// The daemon draws a placeholder on every plug, and memory new from the kernel costs a page
/// fault for each 4 KB page the drawing first touches (glibc's malloc maps blocks this large
/// afresh each time): about 36 faults a plug for a 1280x1024 monitor's text, more CPU than
/// the drawing. Kept blocks stay mapped, so a plug draws on pages already there.
final class PixelMemory: Sendable {
  /// The memory every `RenderedImage` draws in.
  static let shared = PixelMemory(keptBlocks: 4, keptBytes: 2 << 20)

  /// At most this many blocks are kept...
  let keptBlocks: Int
  /// ...of at most this many bytes each: a screenshot or a whole picture is not kept.
  let keptBytes: Int
  /// Kept blocks as (address, capacity); addresses as integers, which may cross threads.
  private let kept = Mutex<[(address: UInt, capacity: Int)]>([])

  init(keptBlocks: Int, keptBytes: Int) {
    self.keptBlocks = keptBlocks
    self.keptBytes = keptBytes
  }

  deinit {
    for block in kept.withLock({ $0 }) { free(UnsafeMutableRawPointer(bitPattern: block.address)) }
  }

  /// A zeroed block of at least `bytes` bytes and its capacity, or nil when there is no memory.
  func take(_ bytes: Int) -> (pointer: UnsafeMutableRawPointer, capacity: Int)? {
    guard bytes > 0 else { return nil }
    let reused = kept.withLock { blocks -> (address: UInt, capacity: Int)? in
      let fitting = blocks.indices.filter { blocks[$0].capacity >= bytes }
      guard let best = fitting.min(by: { blocks[$0].capacity < blocks[$1].capacity }) else { return nil }
      return blocks.remove(at: best)
    }
    if let reused, let pointer = UnsafeMutableRawPointer(bitPattern: reused.address) {
      memset(pointer, 0, bytes)
      return (pointer, reused.capacity)
    }
    return calloc(bytes, 1).map { ($0, bytes) }
  }

  /// Gives a block from `take` back: kept when there is room for it, else freed.
  func give(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
    let address = UInt(bitPattern: pointer)
    let keep =
      capacity <= keptBytes
      && kept.withLock { blocks in
        guard blocks.count < keptBlocks else { return false }
        blocks.append((address, capacity))
        return true
      }
    if !keep { free(pointer) }
  }

  /// How many blocks are kept now, for tests.
  var keptCount: Int { kept.withLock { $0.count } }
}
