import CWayland
import DisplayModel
import DisplayRender

#if canImport(Glibc)
  import Glibc
#endif

/// One `wl_buffer` in shared memory (XRGB8888), mapped here; released with `destroy()`.
final class ShmBuffer {
  let buffer: OpaquePointer
  let width: Int
  let height: Int
  let stride: Int
  private let memory: UnsafeMutableRawPointer
  private let size: Int
  private var destroyed = false

  /// A `width` x `height` buffer; nil when the size is absurd or memory cannot be had.
  init?(shm: OpaquePointer, width: Int, height: Int) {
    guard width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
    let stride = width * 4
    let size = stride * height
    let fd = cw_shm_file(size)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    guard let memory = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
      return nil
    }
    guard let pool = wl_shm_create_pool(shm, fd, Int32(size)) else {
      munmap(memory, size)
      return nil
    }
    defer { wl_shm_pool_destroy(pool) }
    guard
      let buffer = wl_shm_pool_create_buffer(
        pool, 0, Int32(width), Int32(height), Int32(stride), UInt32(WL_SHM_FORMAT_XRGB8888.rawValue))
    else {
      munmap(memory, size)
      return nil
    }
    (self.buffer, self.width, self.height, self.stride, self.memory, self.size) =
      (buffer, width, height, stride, memory, size)
  }

  deinit { destroy() }

  func destroy() {
    guard !destroyed else { return }
    destroyed = true
    wl_buffer_destroy(buffer)
    munmap(memory, size)
  }

  /// The picture drawn in: its background everywhere, then each patch, clipped.
  func draw(_ picture: PlaceholderPicture) {
    let colour =
      UInt32(picture.background.red) << 16 | UInt32(picture.background.green) << 8
      | UInt32(picture.background.blue)
    for y in 0..<height {
      let row = memory.advanced(by: y * stride).bindMemory(to: UInt32.self, capacity: width)
      row.update(repeating: colour, count: width)
    }
    for patch in picture.patches { copy(patch) }
  }

  private func copy(_ patch: PlaceholderPicture.Patch) {
    let x0 = max(0, patch.x)
    let y0 = max(0, patch.y)
    let x1 = min(width, patch.x.addingReportingOverflow(patch.image.width).partialValue)
    let y1 = min(height, patch.y.addingReportingOverflow(patch.image.height).partialValue)
    guard x1 > x0, y1 > y0 else { return }
    patch.image.withPixels { pixels, sourceStride in
      for y in y0..<y1 {
        let from = pixels.advanced(by: (y - patch.y) * sourceStride + (x0 - patch.x) * 4)
        memory.advanced(by: y * stride + x0 * 4).copyMemory(from: from, byteCount: (x1 - x0) * 4)
      }
    }
  }
}
