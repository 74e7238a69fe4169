import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport

/// The text of `displayd outputs` and `displayd modes` made from heads: each line what the
/// topology the heads report prints, with the server's mode ids, names and timed refresh
/// where the backend states them (RandR) and the bridge's where it does not (wlroots).
extension HeadReport {
  /// `outputs`: the screen's line, then one line a head.
  public static func outputsText(_ snapshot: HeadSnapshot) -> String {
    let s = snapshot.screen ?? snapshot.litBounds
    var text =
      "Screen: \(s.width)x\(s.height) (minimum \(s.minWidth)x\(s.minHeight), maximum \(s.maxWidth)x\(s.maxHeight))\n"
    for head in snapshot.heads { text += outputLine(head, in: snapshot) + "\n" }
    return text
  }

  /// `NAME connected [primary] [main] GEOMETRY MODE (mm) [identity]`.
  public static func outputLine(_ head: Head, in snapshot: HeadSnapshot) -> String {
    var words = [head.name, head.connection.rawValue]
    if snapshot.primary == head.name { words.append("primary") }
    if snapshot.mainHead?.name == head.name { words.append("main") }
    if let rect = head.rect {
      words.append(rect.description)
      let rotate = head.transform.words(head.spelling).rotate
      if rotate != .normal { words.append(rotate.rawValue) }
      if let index = head.currentMode, head.modes.indices.contains(index) {
        words.append(WireMode(head, index).label)
      }
    }
    // An unknown size prints as xrandr prints a monitor without one.
    if head.connected {
      let mm = head.physicalSize
      words.append("\(mm?.width ?? 0)mm x \(mm?.height ?? 0)mm")
    }
    if let edid = head.edid.flatMap({ try? EDID(bytes: $0) }) {
      words.append("[" + EDIDReport.identityLine(edid) + "]")
    }
    return printable(words.joined(separator: " "))
  }

  /// `modes`: each head's line, then its modes as the wire lists them (preferred first),
  /// `*` on the one shown and `+` on the preferred ones.
  public static func modesText(_ heads: [Head], in snapshot: HeadSnapshot) -> String {
    var text = ""
    for head in heads {
      text += outputLine(head, in: snapshot) + "\n"
      text += modeLines(head)
    }
    return text
  }

  static func modeLines(_ head: Head) -> String {
    var text = ""
    // The ids and the preferred ones once a head, not once a mode: a server may list tens
    // of thousands.
    let (order, ids) = HeadWireIDs.modeIDs(head)
    let preferredIDs = preferredIDs(head)
    for index in order {
      let mode = WireMode(head, index, ids: ids)
      let mark = (shows(head, index) ? "*" : " ") + (preferred(head, index, preferredIDs) ? "+" : " ")
      var flags = ""
      if mode.interlaced { flags += " interlace" }
      if head.modes[index].doubleScan { flags += " doublescan" }
      text +=
        "  " + pad(printable(mode.name), 12) + " " + pad(mode.id.description, 6) + " "
        + padLeft(fixed(mode.refreshHz, places: 2), 7) + mark + flags + "\n"
    }
    return text
  }
}
