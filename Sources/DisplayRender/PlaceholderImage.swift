import CRender
import DisplayModel
import DisplayPorts
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// The placeholder's PNG, decoded once when the config is loaded: a regular file of at most
/// `maxBytes`, whose header says it decodes to at most `maxPixels`. A path that is a FIFO, a
/// device, a huge file or a small PNG claiming to be 32767x32767 is refused before any of it
/// is decoded, so drawing never blocks and never allocates gigabytes.
public final class PlaceholderImage: StyleImage {
  static let maxBytes = ImageError.maxBytes
  static let maxPixels = ImageError.maxPixels
  static let maxSide = 16384

  let surface: OpaquePointer
  public let path: String
  public let width: Int
  public let height: Int
  /// Equal for equal file contents (within one process): a reload redraws only on a change.
  public let fingerprint: Int

  private init(surface: OpaquePointer, path: String, fingerprint: Int) {
    self.surface = surface
    self.path = path
    self.fingerprint = fingerprint
    width = Int(cairo_image_surface_get_width(surface))
    height = Int(cairo_image_surface_get_height(surface))
  }

  deinit { cairo_surface_destroy(surface) }

  /// Loads and decodes `path`; the error says what is wrong with it.
  public static func load(_ path: String) -> Result<PlaceholderImage, ImageError> {
    let bytes: [UInt8]
    switch readImageFile(path, limit: maxBytes) {
    case .failure(let error): return .failure(error)
    case .success(let b): bytes = b
    }
    guard let (w, h) = pngSize(bytes) else { return .failure(.notPNG(path)) }
    guard w > 0, h > 0, w <= maxSide, h <= maxSide, w * h <= maxPixels else {
      return .failure(.tooLarge(path, width: w, height: h))
    }
    guard cr_load() != 0 else { return .failure(.unreadable(path, PlaceholderRenderer.unavailable)) }
    var reader = ByteReader(bytes: bytes)
    let surface = withUnsafeMutablePointer(to: &reader) { pointer in
      cairo_image_surface_create_from_png_stream(
        { closure, data, length in
          guard let closure, let data else { return CAIRO_STATUS_READ_ERROR }
          let reader = closure.assumingMemoryBound(to: ByteReader.self)
          return reader.pointee.read(into: data, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
        }, pointer)
    }
    guard let surface else { return .failure(.notPNG(path)) }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(surface)
      return .failure(.notPNG(path))
    }
    var hasher = Hasher()
    hasher.combine(bytes)
    return .success(PlaceholderImage(surface: surface, path: path, fingerprint: hasher.finalize()))
  }

  /// Width and height from the IHDR chunk, which a PNG must start with.
  static func pngSize(_ b: [UInt8]) -> (Int, Int)? {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    guard b.count >= 24, Array(b[0..<8]) == signature, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
    func be32(_ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
    return (be32(16), be32(20))
  }

  /// The bytes of `path` through the one file reader, its errors in the image's words.
  static func readImageFile(_ path: String, limit: Int) -> Result<[UInt8], ImageError> {
    readFile(path, limit: limit).mapError { error in
      switch error {
      case .system(let e): return .unreadable(path, String(cString: strerror(e.code)))
      case .notRegular: return .notRegular(path)
      case .tooLarge: return .tooLarge(path, width: 0, height: 0)
      }
    }
  }
}

/// Hands cairo's PNG reader the bytes of a file already read.
private struct ByteReader {
  var bytes: [UInt8]
  var offset = 0

  mutating func read(into data: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
    guard count >= 0, count <= bytes.count - offset else { return false }
    bytes.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { data.update(from: base + offset, count: count) }
    }
    offset += count
    return true
  }
}
