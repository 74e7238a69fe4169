import CRender
import DisplayModel
import DisplayPorts

/// Pixels drawn by cairo in the X server's 24-bit layout (xRGB, 32 bits a pixel), owned here
/// until the image is freed. The pixels live in `PixelMemory`, given back when the image is:
/// the surface never leaves this module except as the target of a context destroyed before
/// the image, so nothing in cairo holds the memory by then.
public final class RenderedImage: PixelImage {
  let surface: OpaquePointer
  private let pixels: UnsafeMutableRawPointer
  private let capacity: Int
  public let width: Int
  public let height: Int

  init?(width: Int, height: Int) {
    // cairo's own limit, checked before any memory is taken for the pixels.
    guard width > 0, height > 0, width <= 32767, height <= 32767, let w = Int32(exactly: width),
      let h = Int32(exactly: height), cr_load() != 0
    else { return nil }
    let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, w))
    let (bytes, overflow) = stride.multipliedReportingOverflow(by: height)
    guard stride > 0, !overflow, let stride32 = Int32(exactly: stride), let block = PixelMemory.shared.take(bytes)
    else {
      return nil
    }
    let data = block.pointer.assumingMemoryBound(to: UInt8.self)
    let created = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_RGB24, w, h, stride32)
    guard let s = created, cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
      if let created { cairo_surface_destroy(created) }
      PixelMemory.shared.give(block.pointer, capacity: block.capacity)
      return nil
    }
    surface = s
    pixels = block.pointer
    capacity = block.capacity
    self.width = width
    self.height = height
  }

  deinit {
    cairo_surface_destroy(surface)
    PixelMemory.shared.give(pixels, capacity: capacity)
  }

  /// The pixel rows and their stride in bytes.
  public func withPixels<R>(_ body: (UnsafeRawPointer, Int) -> R) -> R {
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    return body(UnsafeRawPointer(cairo_image_surface_get_data(surface)), stride)
  }
}

extension RenderedImage {
  /// An empty image to fill, e.g. from the screen.
  public static func blank(width: Int, height: Int) -> RenderedImage? { RenderedImage(width: width, height: height) }

  /// An image of `pixels` (0xRRGGBB, `width` a row, rows top down); nil when they do not
  /// make `width` x `height`.
  public static func of(pixels: [UInt32], width: Int, height: Int) -> RenderedImage? {
    guard width > 0, height > 0, pixels.count == width * height, let image = blank(width: width, height: height) else {
      return nil
    }
    image.withMutablePixels { data, stride in
      pixels.withUnsafeBytes { source in
        for y in 0..<height {
          (data + y * stride).copyMemory(from: source.baseAddress! + y * width * 4, byteCount: width * 4)
        }
      }
    }
    return image
  }

  /// Writes the image as a PNG file; false when it cannot.
  public func writePNG(to path: String) -> Bool {
    cairo_surface_flush(surface)
    return cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS
  }

  /// The pixel rows, writable, and their stride; marks the surface dirty afterwards.
  public func withMutablePixels<R>(_ body: (UnsafeMutableRawPointer, Int) -> R) -> R {
    cairo_surface_flush(surface)
    defer { cairo_surface_mark_dirty(surface) }
    return body(
      UnsafeMutableRawPointer(cairo_image_surface_get_data(surface)), Int(cairo_image_surface_get_stride(surface)))
  }
}
