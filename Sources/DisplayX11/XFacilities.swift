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
      resources: self, properties: self, pointers: self, power: self, xwayland: hasExtension("XWAYLAND"))
  }
}
