import CXrandr

extension XConnection {
  /// Whether DPMS has blanked the screen: enabled, and in standby, suspend or off. False
  /// without the DPMS extension (Xvnc and the dummy Xorg have none), which is asked about once.
  public func screenBlanked() -> Bool {
    if dpmsCapable == nil {
      var event: Int32 = 0
      var error: Int32 = 0
      dpmsCapable = DPMSQueryExtension(display, &event, &error) != 0 && DPMSCapable(display) != 0
    }
    guard dpmsCapable == true else { return false }
    var level: CARD16 = 0
    var enabled: BOOL = 0
    guard DPMSInfo(display, &level, &enabled) != 0 else { return false }
    return enabled != 0 && level != CARD16(DPMSModeOn)
  }
}
