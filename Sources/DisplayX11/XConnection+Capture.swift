import CXrandr
import DisplayModel
import DisplayRender

extension XConnection {
  /// What the screen shows in `rect` (root coordinates), as an image; nil when the server
  /// refuses (e.g. the rectangle lies outside the screen).
  public func capture(_ rect: Rect) -> RenderedImage? {
    guard rect.width > 0, rect.height > 0, let image = RenderedImage.blank(width: rect.width, height: rect.height),
      let ximage = XGetImage(
        display, root, Int32(rect.x), Int32(rect.y), UInt32(rect.width), UInt32(rect.height), UInt(bitPattern: -1),
        ZPixmap)
    else { return nil }
    defer { _ = ximage.pointee.f.destroy_image(ximage) }
    image.withMutablePixels { data, stride in
      for y in 0..<rect.height {
        let row = data.advanced(by: y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<rect.width {
          row[x] = UInt32(truncatingIfNeeded: ximage.pointee.f.get_pixel(ximage, Int32(x), Int32(y)))
        }
      }
    }
    return image
  }
}
