/// The X screen's size and the range the server allows it.
public struct ScreenSize: Hashable, Sendable {
  public var width: Int
  public var height: Int
  public var minWidth: Int
  public var minHeight: Int
  public var maxWidth: Int
  public var maxHeight: Int
  /// The screen's physical size in millimetres, as the server reports it (DPI = pixels / mm * 25.4).
  public var mmWidth: Int
  public var mmHeight: Int

  public init(
    width: Int, height: Int, minWidth: Int, minHeight: Int, maxWidth: Int, maxHeight: Int, mmWidth: Int = 0,
    mmHeight: Int = 0
  ) {
    self.width = width
    self.height = height
    self.minWidth = minWidth
    self.minHeight = minHeight
    self.maxWidth = maxWidth
    self.maxHeight = maxHeight
    self.mmWidth = mmWidth
    self.mmHeight = mmHeight
  }
}
