import DisplayModel
import DisplayService
import DisplaySupport

/// Text and JSON renderings of a topology for `displayd outputs` and `displayd modes`.
public enum TopologyReport {
  // MARK: JSON

  /// `outputs --json` of the heads a backend reads: their screen (the lit heads' bounds
  /// where the backend states none) and one record a head, in the snapshot's order.
  public static func outputsJSON(_ snapshot: HeadSnapshot) -> JSON {
    let s = snapshot.screen ?? snapshot.litBounds
    return .object([
      ("screen", screenJSON(s)),
      ("outputs", .array(snapshot.heads.map { JSON.record(OutputRecord($0, in: snapshot)) })),
    ])
  }

  static func screenJSON(_ s: ScreenSize) -> JSON {
    .object([
      ("width", .int(s.width)), ("height", .int(s.height)),
      ("min_width", .int(s.minWidth)), ("min_height", .int(s.minHeight)),
      ("max_width", .int(s.maxWidth)), ("max_height", .int(s.maxHeight)),
    ])
  }

  /// `outputs --json` of a topology, the shape the heads' report keeps byte for byte.
  public static func outputsJSON(_ topology: Topology) -> JSON {
    .object([
      ("screen", screenJSON(topology.screen)),
      ("outputs", .array(topology.outputs.map { JSON.record(OutputRecord($0, in: topology)) })),
    ])
  }

  /// `modes --json` of `heads`: each one's modes as the wire lists them (preferred first),
  /// the one shown and the preferred ones marked as their server marks them (by its mode
  /// ids, which a server may list twice).
  public static func modesJSON(_ heads: [Head]) -> JSON {
    .object([
      (
        "outputs",
        .array(
          heads.map { head in
            let (order, ids) = HeadWireIDs.modeIDs(head)
            let records = order.map { index in
              let mode = head.modes[index]
              let bridgeID = ids[index] ?? ModeID(rawValue: 0)
              var record = ModeRecord(mode, bridgeID: bridgeID, current: shows(head, index))
              record.preferred = marked(head, index, \.preferred)
              return JSON.record(record)
            }
            return .object([
              ("name", .string(head.name)), ("connected", .bool(head.connected)), ("modes", .array(records)),
            ])
          })
      )
    ])
  }

  /// Whether `head` shows the mode at `index`: while lit, its current mode, or one the
  /// server gives the same id.
  static func shows(_ head: Head, _ index: Int) -> Bool {
    guard head.rect != nil, let current = head.currentMode else { return false }
    guard let id = head.modes[index].serverID, head.modes.indices.contains(current) else { return index == current }
    return head.modes[current].serverID == id
  }

  /// Whether the mode at `index`, or one the server gives the same id, has `flag`.
  static func marked(_ head: Head, _ index: Int, _ flag: KeyPath<HeadMode, Bool>) -> Bool {
    guard let id = head.modes[index].serverID else { return head.modes[index][keyPath: flag] }
    return head.modes.contains { $0.serverID == id && $0[keyPath: flag] }
  }

  public static func modesJSON(_ outputs: [Output], in topology: Topology) -> JSON {
    .object([
      (
        "outputs",
        .array(
          outputs.map { output in
            let current = topology.currentMode(of: output)?.id
            return .object([
              ("name", .string(output.name)), ("connected", .bool(output.isConnected)),
              (
                "modes",
                .array(
                  topology.modes(of: output).map {
                    JSON.record(ModeRecord($0, current: $0.id == current, preferred: isPreferred($0, output)))
                  })
              ),
            ])
          })
      )
    ])
  }

  // MARK: Text

  public static func outputsText(_ topology: Topology) -> String {
    let s = topology.screen
    var text =
      "Screen: \(s.width)x\(s.height) (minimum \(s.minWidth)x\(s.minHeight), maximum \(s.maxWidth)x\(s.maxHeight))\n"
    for output in topology.outputs { text += outputLine(output, in: topology) + "\n" }
    return text
  }

  /// `NAME connected [primary] [main] GEOMETRY MODE (mm) [identity]`.
  public static func outputLine(_ output: Output, in topology: Topology) -> String {
    var words = [output.name, output.connection.rawValue]
    if topology.primary == output.id { words.append("primary") }
    if topology.mainOutput?.id == output.id { words.append("main") }
    if let crtc = topology.activeCrtc(of: output) {
      words.append(crtc.rect.description)
      if crtc.rotation.name != "normal" { words.append(crtc.rotation.name) }
    }
    if let mode = topology.currentMode(of: output) { words.append(mode.label) }
    if output.isConnected { words.append("\(output.mmWidth)mm x \(output.mmHeight)mm") }
    if let edid = output.identity {
      words.append("[" + EDIDReport.identityLine(edid) + "]")
    }
    return printable(words.joined(separator: " "))
  }

  public static func modesText(_ outputs: [Output], in topology: Topology) -> String {
    var text = ""
    for output in outputs {
      text += outputLine(output, in: topology) + "\n"
      let current = topology.currentMode(of: output)?.id
      for mode in topology.modes(of: output) {
        let mark = (mode.id == current ? "*" : " ") + (isPreferred(mode, output) ? "+" : " ")
        var flags = ""
        if mode.isInterlaced { flags += " interlace" }
        if mode.isDoubleScan { flags += " doublescan" }
        text +=
          "  " + pad(printable(mode.name), 12) + " " + pad(mode.id.description, 6) + " "
          + padLeft(fixed(mode.refreshHz, places: 2), 7) + mark + flags + "\n"
      }
    }
    return text
  }

  static func isPreferred(_ mode: Mode, _ output: Output) -> Bool {
    output.preferredModes.contains(mode.id)
  }
}

func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
func padLeft(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
