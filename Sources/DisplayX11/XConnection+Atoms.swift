import CXrandr

#if canImport(Glibc)
  import Glibc
#endif

extension XConnection {
  /// The atoms every window is made with: interned together, in one round trip, before the
  /// first window; after that every one comes from the cache.
  static let windowAtoms = [
    "_NET_WM_NAME", "UTF8_STRING", "_DISPLAYD_OUTPUT", "WM_PROTOCOLS", "WM_DELETE_WINDOW", "_NET_WM_STATE",
    "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_FULLSCREEN",
  ]
  /// The output properties a snapshot reads.
  static let propertyAtoms = ["EDID", "non-desktop"]

  /// Interns those of `names` not yet cached, all in one round trip (Xlib's own cache, which
  /// `XSetWMProtocols` uses, is filled too).
  func internAtoms(_ names: [String]) {
    let missing = names.filter { atomCache[$0] == nil }
    guard !missing.isEmpty else { return }
    var cnames = missing.map { strdup($0) }
    defer { cnames.forEach { free($0) } }
    var atoms = [Atom](repeating: 0, count: missing.count)
    guard XInternAtoms(display, &cnames, Int32(missing.count), 0, &atoms) != 0 else { return }
    for (name, atom) in zip(missing, atoms) where atom != 0 { atomCache[name] = atom }
  }
}
