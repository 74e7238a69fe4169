/// An image in the X server's 24-bit layout (xRGB, 32 bits a pixel), as rows with a stride:
/// what a window can be shown (`showImage`). The placeholder's renderer makes one; a test
/// can make another.
public protocol PixelImage: AnyObject {
  var width: Int { get }
  var height: Int { get }
  /// Calls `body` with the first row and the stride in bytes.
  func withPixels<R>(_ body: (UnsafeRawPointer, Int) -> R) -> R
}

extension PixelImage {
  /// The colour at a point, for tests: `0xRRGGBB`.
  public func pixel(x: Int, y: Int) -> UInt32 {
    withPixels { data, stride in data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) & 0xFFFFFF }
  }
}
