import CXrandr
import DisplayModel

/// The requests that make and unmake the modes displayd creates: `XRRCreateMode`,
/// `XRRAddOutputMode`, `XRRDeleteOutputMode`, `XRRDestroyMode`, each with its own error check.
extension XConnection {
  /// Makes `mode` (its name and timings) a mode of the server: the one already there under
  /// that name when its timings are the same, else a new one (which the server refuses when
  /// the name is taken). The id, and whether it is new.
  func createMode(_ mode: Mode, _ resources: ScreenResources) -> Result<(ModeID, created: Bool), ModeRequestError> {
    // Another name's timings are the server's to refuse (BadName), not ours to guess.
    if let existing = serverMode(named: mode.name, resources), existing.sameTimings(as: mode) {
      return .success((existing.id, false))
    }
    let first = nextRequest
    let id = mode.name.withCString { name -> RRMode in
      var info = XRRModeInfo()
      info.width = UInt32(clamping: mode.width)
      info.height = UInt32(clamping: mode.height)
      info.dotClock = UInt(clamping: mode.dotClock)
      info.hSyncStart = UInt32(clamping: mode.hSyncStart)
      info.hSyncEnd = UInt32(clamping: mode.hSyncEnd)
      info.hTotal = UInt32(clamping: mode.hTotal)
      info.vSyncStart = UInt32(clamping: mode.vSyncStart)
      info.vSyncEnd = UInt32(clamping: mode.vSyncEnd)
      info.vTotal = UInt32(clamping: mode.vTotal)
      info.name = UnsafeMutablePointer(mutating: name)
      info.nameLength = UInt32(clamping: mode.name.utf8.count)
      info.modeFlags = XRRModeFlags(mode.flags.xBits)
      return XRRCreateMode(display, root, &info)
    }
    if let error = modeRequestError(since: first) { return .failure(ModeRequestError(text: error)) }
    guard id != 0 else { return .failure(ModeRequestError(text: "the server gave no id")) }
    return .success((ModeID(rawValue: UInt(id)), true))
  }

  /// One `XRRAddOutputMode`; the error text when the server refused it.
  func addOutputMode(_ output: OutputID, _ mode: ModeID) -> String? {
    let first = nextRequest
    XRRAddOutputMode(display, RROutput(output.rawValue), RRMode(mode.rawValue))
    return modeRequestError(since: first)
  }

  /// One `XRRDeleteOutputMode`; the error text when the server refused it.
  func deleteOutputMode(_ output: OutputID, _ mode: ModeID) -> String? {
    let first = nextRequest
    XRRDeleteOutputMode(display, RROutput(output.rawValue), RRMode(mode.rawValue))
    return modeRequestError(since: first)
  }

  /// One `XRRDestroyMode`; the error text when the server refused it (BadAccess: an output
  /// still lists it or a CRTC shows it).
  func destroyMode(_ mode: ModeID) -> String? {
    let first = nextRequest
    XRRDestroyMode(display, RRMode(mode.rawValue))
    return modeRequestError(since: first)
  }

  /// Removes each mode from the outputs listing it, then destroys it; what the server refused.
  public func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String] {
    var problems: [String] = []
    for release in releases {
      for output in release.outputs {
        if let error = deleteOutputMode(output, release.mode) {
          problems.append("mode \(release.name): removing it from output \(output): \(error)")
        }
      }
      if let error = destroyMode(release.mode) { problems.append("mode \(release.name): destroying it: \(error)") }
    }
    try checkAlive()
    return problems
  }

  /// The server's mode of this name, from the screen resources read under the grab.
  private func serverMode(named name: String, _ resources: ScreenResources) -> Mode? {
    guard let res = resources.pointer?.pointee, let modes = res.modes else { return nil }
    for i in 0..<Int(max(0, res.nmode)) {
      let m = modes[i]
      guard let text = m.name else { continue }
      let bytes = UnsafeRawBufferPointer(start: text, count: Int(m.nameLength))
      guard String(decoding: bytes, as: UTF8.self) == name else { continue }
      var mode = Mode(
        id: ModeID(rawValue: UInt(m.id)), name: name, width: Int(m.width), height: Int(m.height),
        dotClock: UInt64(m.dotClock), hTotal: Int(m.hTotal), vTotal: Int(m.vTotal),
        flags: ModeFlags(xBits: UInt(m.modeFlags)))
      (mode.hSyncStart, mode.hSyncEnd) = (Int(m.hSyncStart), Int(m.hSyncEnd))
      (mode.vSyncStart, mode.vSyncEnd) = (Int(m.vSyncStart), Int(m.vSyncEnd))
      return mode
    }
    return nil
  }

  private func modeRequestError(since serial: UInt) -> String? {
    XSync(display, 0)
    return takeErrors().first { $0.serial >= serial }?.text
  }
}

/// Why the server would not make a mode.
struct ModeRequestError: Error {
  var text: String
}
