import DisplayModel
import DisplayPorts

extension WaylandSurfaces: DeskScreenshots {
  /// Every lit head (or the one given) through screencopy, composed as `grim` does, at the
  /// pixels of the densest.
  public func writeScreenshot(_ snapshot: HeadSnapshot, only head: Head?, to path: String) throws(DisplayError)
    -> Result<String, ScreenshotFailure>
  {
    let shown = head.map { [$0] } ?? snapshot.heads.filter { $0.rect != nil }
    var parts: [DeskPicture.Part] = []
    for head in shown {
      guard let rect = head.rect else { continue }
      parts.append(.init(pixels: try capture(output: head.name), transform: head.transform, rect: rect))
    }
    guard let desk = DeskPicture(parts) else {
      return .failure(
        ScreenshotFailure(parts.isEmpty ? "no output is showing anything" : "the desk is too large for one PNG"))
    }
    guard desk.writePNG(to: path) else {
      return .failure(ScreenshotFailure("could not write \(desk.width)x\(desk.height) pixels into \(path)"))
    }
    let size =
      desk.width == desk.bounds.width && desk.height == desk.bounds.height
      ? "" : " (\(desk.width)x\(desk.height) pixels)"
    return .success("\(path): \(desk.bounds)\(size)")
  }
}
