/// What the daemon did to `Xft.dpi` in the root window's resource database, for the
/// daemon's whole life.
struct XftRuntime {
  /// The entry to put back when no profile with `dpi` is in force: the one there before
  /// displayd set its own (nil: none), or what another client wrote over it since.
  var original: [UInt8]?
  /// The entry displayd wrote, while it is in force.
  var written: [UInt8]?
  /// Its value, for `status` and the hooks.
  var dpi: Int?
  /// The XSETTINGS manager seen when displayd last wrote `Xft.dpi`.
  var xsettings: String?
}
