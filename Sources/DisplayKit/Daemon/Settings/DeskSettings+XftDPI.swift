import DisplayModel
import DisplayPorts
import DisplaySupport

extension DeskSettings {
  /// `Xft.dpi` as displayd set it, while a profile with `dpi` is in force.
  var xftDPI: Int? { xft.dpi }
  /// The XSETTINGS manager (owner of `_XSETTINGS_S0`) seen when displayd last set `Xft.dpi`.
  var xsettingsManager: String? { xft.xsettings }

  /// After `profile` came into force: its `dpi` (`planned`: as its plan measured it, nil for
  /// an `auto` that found no size) goes to `Xft.dpi` (Xft, Qt and GTK read it from
  /// RESOURCE_MANAGER, where the screen's millimetres reach no one); a profile without `dpi`
  /// puts back what was there; an `auto` that found no size leaves it.
  func followXftDPI(_ profile: Profile?, planned: Double?) {
    if let dpi = profile == nil ? nil : planned {
      setXftDPI(dpi)
    } else if profile?.dpi == nil {
      restoreXftDPI()
    }
  }

  private func setXftDPI(_ dpi: Double) {
    let name = ResourceDatabase.xftDPI
    guard facilities.resources != nil else {
      // A compositor: toolkits take their scale from it, not from X resources.
      return warnOnce("dpi: this display server has no X resources: \(name) not set")
    }
    let value = ResourceDatabase.value(dpi: dpi)
    let entry = ResourceDatabase.entry(name, value)
    var before: [UInt8]?
    do {
      let readable = try facilities.resources?.editResources { database in
        before = ResourceDatabase.entry(of: name, in: database)
        return ResourceDatabase.setting(name, to: entry, in: database)
      }
      guard readable == true else {
        return log.warning("RESOURCE_MANAGER is not a string displayd can read: \(name) not set")
      }
    } catch {
      return log.warning("could not set \(name) in RESOURCE_MANAGER: \(error)")
    }
    // Not ours (never set, or another client wrote over it): that is what to go back to.
    if xft.written == nil || before != xft.written { xft.original = before }
    (xft.written, xft.dpi) = (entry, Int(value))
    if before != entry { log.info("\(name) \(value) in RESOURCE_MANAGER (was \(Self.show(before)))") }
    noteXSettings()
  }

  private func restoreXftDPI() {
    guard let written = xft.written else { return }
    let name = ResourceDatabase.xftDPI
    let original = xft.original
    var theirs = false
    do {
      let readable = try facilities.resources?.editResources { database in
        guard ResourceDatabase.entry(of: name, in: database) == written else {
          theirs = true
          return nil
        }
        return ResourceDatabase.setting(name, to: original, in: database)
      }
      guard readable == true else {
        return log.warning("RESOURCE_MANAGER is not a string displayd can read: \(name) not restored")
      }
    } catch {
      return log.warning("could not restore \(name) in RESOURCE_MANAGER: \(error)")
    }
    (xft.written, xft.dpi) = (nil, nil)
    if theirs {
      log.info("\(name) was changed by another client since displayd set it: left as it is")
    } else if let original {
      log.info("\(name) restored in RESOURCE_MANAGER: \(Self.show(original))")
    } else {
      log.info("\(name) removed from RESOURCE_MANAGER (there was none before displayd set it)")
    }
  }

  /// Names the XSETTINGS manager, once each time it changes: its `Xft/DPI` is what GTK (and
  /// Qt on some desktops) read first, and displayd never writes over another program's
  /// settings.
  private func noteXSettings() {
    var owner = facilities.resources?.xsettingsOwner()
    if let pid = owner?.pid, owner?.wmClass == nil { owner?.command = Self.processName(pid) }
    let name = owner.map { Self.shortLine($0.description) }
    if let name, name != xft.xsettings {
      log.info(
        "an XSETTINGS manager owns _XSETTINGS_S0: \(name); displayd leaves its settings alone, and its Xft/DPI "
          + "may win over Xft.dpi for GTK applications")
    }
    xft.xsettings = name
  }

  /// `/proc/PID/comm`, nil when unreadable.
  static func processName(_ pid: Int) -> String? {
    guard case .success(let bytes) = readFile("/proc/\(pid)/comm", limit: 64) else { return nil }
    let name = shortLine(String(decoding: bytes, as: UTF8.self))
    return name.isEmpty ? nil : name
  }

  /// What another client wrote, fit for one log line: tabs as spaces, other control characters (C0, DEL, C1) dropped, at most
  /// 64 characters.
  static func shortLine(_ text: String) -> String {
    var result = ""
    let scalars = text.unicodeScalars.map { $0 == "\t" ? " " : $0 }.filter {
      $0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value)
    }
    result.unicodeScalars.append(contentsOf: scalars.prefix(64))
    return result
  }

  static func show(_ entry: [UInt8]?) -> String {
    entry.map { "'" + shortLine(String(decoding: $0, as: UTF8.self)) + "'" } ?? "none"
  }
}
