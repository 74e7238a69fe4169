import CWayland

#if canImport(Glibc)
  import Glibc
#endif

/// One `wl_shm` buffer of one colour, kept as long as the surface shows it.
final class SolidBuffer {
  let buffer: OpaquePointer
  private let pool: OpaquePointer
  private let memory: UnsafeMutableRawPointer
  private let bytes: Int
  private let fd: Int32

  init?(shm: OpaquePointer?, width: Int, height: Int, colour: UInt32) {
    guard let shm, (1...8192).contains(width), (1...8192).contains(height) else { return nil }
    bytes = width * height * 4
    fd = cw_shm_file(bytes)
    guard fd >= 0 else { return nil }
    guard let memory = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), memory != MAP_FAILED else {
      close(fd)
      return nil
    }
    self.memory = memory
    memory.bindMemory(to: UInt32.self, capacity: width * height).update(
      repeating: 0xFF00_0000 | colour, count: width * height)
    guard let pool = wl_shm_create_pool(shm, fd, Int32(bytes)),
      let buffer = wl_shm_pool_create_buffer(
        pool, 0, Int32(width), Int32(height), Int32(width * 4), WL_SHM_FORMAT_XRGB8888.rawValue)
    else {
      munmap(memory, bytes)
      close(fd)
      return nil
    }
    self.pool = pool
    self.buffer = buffer
  }

  deinit {
    wl_buffer_destroy(buffer)
    wl_shm_pool_destroy(pool)
    munmap(memory, bytes)
    close(fd)
  }
}
