import DisplayModel
import DisplayPorts

// The X connection has every desk facility: the methods are in Resources.swift,
// OutputPropertyIO.swift, InputDevices.swift and DPMS.swift.
extension XConnection: DesktopResources, OutputPropertyStore, PointerDevices, ScreenPower {}

extension XConnection {
  /// The facilities of this X server, all of them on this connection; whether it is
  /// Xwayland asked once, now.
  public var facilities: DisplayFacilities {
    DisplayFacilities(
      resources: self, properties: self, pointers: self, power: self, screenshots: self,
      xwayland: hasExtension("XWAYLAND"))
  }
}

extension XConnection: DeskScreenshots {
  /// The root window's pixels over the whole screen, or over the head's rectangle.
  public func writeScreenshot(_ snapshot: HeadSnapshot, only head: Head?, to path: String) throws(DisplayError)
    -> Result<String, ScreenshotFailure>
  {
    let screen = snapshot.screen
    let rect = head?.rect ?? Rect(x: 0, y: 0, width: screen?.width ?? 0, height: screen?.height ?? 0)
    guard let image = capture(rect), image.writePNG(to: path) else {
      return .failure(ScreenshotFailure("could not capture \(rect) into \(path)"))
    }
    return .success("\(path): \(rect)")
  }
}
