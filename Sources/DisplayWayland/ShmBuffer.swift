import CWayland
import DisplayModel
import DisplayPorts
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// Pixels shared with the compositor: an anonymous memory file of `width` x `height`
/// XRGB8888 pixels (the renderer's own layout, so patches copy row by row), mapped here,
/// with a `wl_shm_pool` over it and one `wl_buffer`. Everything is released on deinit.
final class ShmBuffer {
  /// The largest side a buffer may have (a hostile or broken size never maps gigabytes).
  static let maximumSide = 16384

  let buffer: OpaquePointer
  let width: Int
  let height: Int
  private let pool: OpaquePointer
  private let memory: UnsafeMutableRawPointer
  private let byteCount: Int
  private let file: FileDescriptor

  /// Whether the compositor holds it (attached and not yet released).
  var isBusy = false

  /// A buffer of `width` x `height` pixels (each clamped to 1...maximumSide) from `shm`, in
  /// `format` (XRGB8888 or ARGB8888: 4 bytes a pixel, rows packed).
  init(shm: OpaquePointer, width: Int, height: Int, format: UInt32 = WL_SHM_FORMAT_XRGB8888.rawValue)
    throws(SystemError)
  {
    let w = min(max(width, 1), Self.maximumSide)
    let h = min(max(height, 1), Self.maximumSide)
    let stride = w * 4
    let bytes = stride * h
    let fd = FileDescriptor(rawValue: try systemCall("memfd_create") { cw_shm_file(bytes) })
    let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd.rawValue, 0)
    guard let address, address != MAP_FAILED else {
      let code = errno
      fd.close()
      throw SystemError.call("mmap", code)
    }
    // Both fit Int32: at most 16384 x 16384 x 4 bytes is 2^30.
    let pool = wl_shm_create_pool(shm, fd.rawValue, Int32(bytes))
    guard let pool, let buffer = wl_shm_pool_create_buffer(pool, 0, Int32(w), Int32(h), Int32(stride), format)
    else {
      pool.map { wl_shm_pool_destroy($0) }
      munmap(address, bytes)
      fd.close()
      throw SystemError.call("wl_shm_pool_create_buffer", ENOMEM)
    }
    self.memory = address
    self.pool = pool
    self.buffer = buffer
    self.file = fd
    self.byteCount = bytes
    self.width = w
    self.height = h
    wl_buffer_add_listener(buffer, &bufferListener, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    wl_buffer_destroy(buffer)
    wl_shm_pool_destroy(pool)
    munmap(memory, byteCount)
    file.close()
  }

  /// Drops this process's hold on the pages once they are drawn: they stay in the shared
  /// file, where the compositor reads them (and a later write here finds them as they were),
  /// but no longer count in the daemon's resident memory as well as the compositor's.
  func releaseResidentPages() {
    _ = madvise(memory, byteCount, MADV_DONTNEED)
  }

  /// Fills every pixel with `colour`.
  func fill(_ colour: RGBColor) {
    let pixel = 0xFF00_0000 | UInt32(colour.red) << 16 | UInt32(colour.green) << 8 | UInt32(colour.blue)
    memory.bindMemory(to: UInt32.self, capacity: width * height).update(repeating: pixel, count: width * height)
  }

  /// Every pixel as the buffer holds it, row by row (rows are packed).
  func pixels() -> [UInt32] {
    Array(
      UnsafeBufferPointer(start: memory.bindMemory(to: UInt32.self, capacity: width * height), count: width * height))
  }

  /// Draws `picture`: its background everywhere, its patches over it, the picture centred
  /// when its size differs from the buffer's (cut where it is larger).
  func paint(_ picture: PlaceholderPicture) {
    fill(picture.background)
    let originX = (width - picture.width) / 2
    let originY = (height - picture.height) / 2
    for patch in picture.patches {
      copy(
        patch.image, toX: originX.addingReportingOverflow(patch.x).partialValue,
        y: originY.addingReportingOverflow(patch.y).partialValue)
    }
  }

  /// Copies the part of `image` that falls inside the buffer, its top left at `x`, `y`.
  private func copy(_ image: any PixelImage, toX x: Int, y: Int) {
    let x0 = max(x, 0)
    let y0 = max(y, 0)
    let x1 = min(x.addingReportingOverflow(image.width).partialValue, width)
    let y1 = min(y.addingReportingOverflow(image.height).partialValue, height)
    guard x1 > x0, y1 > y0 else { return }
    let rowBytes = (x1 - x0) * 4
    image.withPixels { source, sourceStride in
      for row in y0..<y1 {
        let from = source + (row - y) * sourceStride + (x0 - x) * 4
        (memory + row * width * 4 + x0 * 4).copyMemory(from: from, byteCount: rowBytes)
      }
    }
  }
}

nonisolated(unsafe) private var bufferListener = wl_buffer_listener(
  release: { data, _ in data.map { Unmanaged<ShmBuffer>.fromOpaque($0).takeUnretainedValue().isBusy = false } })
