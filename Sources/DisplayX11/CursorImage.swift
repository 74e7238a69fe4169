/// The pointer's image as XFixes reports it: ARGB pixels and the hot spot.
public struct CursorImage: Sendable {
  public var width: Int
  public var height: Int
  public var hotX: Int
  public var hotY: Int
  public var serial: UInt
  public var pixels: [UInt32]
  public init(width: Int, height: Int, hotX: Int, hotY: Int, serial: UInt, pixels: [UInt32]) {
    (self.width, self.height, self.hotX, self.hotY, self.serial, self.pixels) = (
      width, height, hotX, hotY, serial, pixels
    )
  }
}

/// A cursor image uploaded as an ARGB picture.
public struct CursorPicture: Hashable, Sendable {
  public var picture: UInt
  public var pixmap: UInt
  public init(picture: UInt, pixmap: UInt) {
    self.picture = picture
    self.pixmap = pixmap
  }
}
