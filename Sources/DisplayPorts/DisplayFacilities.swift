import DisplayModel

/// The desk features a display server may have beside its outputs and surfaces, each an
/// optional sub-port: nil is a server without it (a Wayland compositor has none of them), and
/// having one is the capability. The daemon asks nothing else of a server for these.
public struct DisplayFacilities {
  /// The X resource database and the XSETTINGS selection (`Xft.dpi` for X clients).
  public var resources: (any DesktopResources)?
  /// The outputs' properties (RandR's: backlight, broadcast RGB, ...).
  public var properties: (any OutputPropertyStore)?
  /// The pointer devices a touch screen is mapped onto its output through.
  public var pointers: (any PointerDevices)?
  /// Whether the server has blanked the screen to save power.
  public var power: (any ScreenPower)?
  /// Pictures of the desk in a file (`displayd screenshot`).
  public var screenshots: (any DeskScreenshots)?
  /// Whether the server is Xwayland, an X server a compositor runs (its outputs are the
  /// compositor's to arrange).
  public var xwayland: Bool

  /// A server with the sub-ports given, and none of the others.
  public init(
    resources: (any DesktopResources)? = nil, properties: (any OutputPropertyStore)? = nil,
    pointers: (any PointerDevices)? = nil, power: (any ScreenPower)? = nil,
    screenshots: (any DeskScreenshots)? = nil, xwayland: Bool = false
  ) {
    self.screenshots = screenshots
    self.resources = resources
    self.properties = properties
    self.pointers = pointers
    self.power = power
    self.xwayland = xwayland
  }
}

/// The root window's `RESOURCE_MANAGER` and the XSETTINGS selection's owner.
public protocol DesktopResources: AnyObject {
  /// Edits the resource database atomically (the server grabbed): `edit` gets the database
  /// (empty when unset) and returns the new one (empty: deleted), or nil to leave it. False,
  /// and nothing written, when the property is not a readable string.
  @discardableResult
  func editResources(_ edit: ([UInt8]) -> [UInt8]?) throws(DisplayError) -> Bool
  /// The client owning the screen's XSETTINGS selection, nil when none does.
  func xsettingsOwner() -> XSettingsOwner?
}

/// The outputs' properties, read and written, each output by its head's (connector) name:
/// the backend finds its own object for it.
public protocol OutputPropertyStore: AnyObject {
  /// The properties named in `names` (nil: all) of the head named `head`, as the server
  /// describes them; empty when it has no such head.
  func outputProperties(head: String, names: Set<String>?) -> [String: OutputProperty]
  /// Writes one property of the head named `head`.
  func setOutputProperty(head: String, _ write: PropertyWrite) throws(DisplayError)
}

/// The pointer devices (XInput 2) and their coordinate transformation.
public protocol PointerDevices: AnyObject {
  /// Asks for (or stops) the events telling of devices added; false when the server cannot.
  func selectInputHierarchy(_ on: Bool) -> Bool
  /// Pointer devices that have a `Coordinate Transformation Matrix`.
  func inputDevices() -> [InputDevice]
  /// Sets the device's `Coordinate Transformation Matrix` (nine values, row by row).
  func setTransformMatrix(device: Int, _ matrix: [Double]) throws(DisplayError)
}

/// The screen's power saving (DPMS on X).
public protocol ScreenPower: AnyObject {
  /// Whether the screen is blanked (standby, suspend or off); false with power saving
  /// disabled.
  func screenBlanked() -> Bool
}
