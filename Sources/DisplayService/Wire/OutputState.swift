import DisplayModel
import DisplaySupport

/// The state of one output, without its name (which the records around it place).
public struct OutputState: Codable, Equatable, Sendable {
  public struct Millimetres: Codable, Equatable, Sendable {
    public var width, height: Int
    enum CodingKeys: String, CodingKey { case width, height }
  }
  public var id: Int
  public var connected: Bool
  public var connection: String
  public var primary, main: Bool
  /// The active CRTC's rectangle.
  public var crtc: RectRecord?
  public var rotation: String?
  public var currentMode: ModeRecord?
  /// The monitor's physical size; null when unknown (none reported, or one no monitor has).
  public var mm: Millimetres?
  public var nonDesktop: Bool
  public var identity: EDIDRecord?

  enum CodingKeys: String, CodingKey {
    case id
    case connected
    case connection
    case primary
    case main
    case crtc
    case rotation
    case currentMode = "current_mode"
    case mm
    case nonDesktop = "non_desktop"
    case identity
  }
}
