import DisplayModel

/// A picture of what the desk shows, written as a PNG (`displayd screenshot`): X reads the
/// root window's pixels, a compositor copies each lit output (screencopy) and composes them
/// at their logical places, as `grim` does.
public protocol DeskScreenshots: AnyObject {
  /// Writes what `snapshot`'s desk shows, or only the lit `head` of it, into `path`: the line
  /// that says what was written, or why nothing was.
  func writeScreenshot(_ snapshot: HeadSnapshot, only head: Head?, to path: String) throws(DisplayError) -> Result<
    String, ScreenshotFailure
  >
}

/// Why no screenshot was written, in words for the user.
public struct ScreenshotFailure: Error, Equatable, Sendable {
  public var message: String

  public init(_ message: String) { self.message = message }
}
