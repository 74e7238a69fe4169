import DisplayModel
import DisplayService
import DisplaySupport
import DisplayX11

@testable import DisplayCLI

// `outputs` and `modes` over RandR's topology: the RandR-shaped reference the heads' reports
// are pinned against byte for byte.
extension HeadReport {
  /// `outputs --json` of a topology, the shape the heads' report keeps byte for byte.
  static func outputsJSON(_ topology: Topology) -> JSON {
    .object([
      ("screen", screenJSON(topology.screen)),
      ("outputs", .array(topology.outputs.map { JSON.record(OutputRecord($0, in: topology)) })),
    ])
  }

  static func modesJSON(_ outputs: [Output], in topology: Topology) -> JSON {
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

  static func outputsText(_ topology: Topology) -> String {
    let s = topology.screen
    var text =
      "Screen: \(s.width)x\(s.height) (minimum \(s.minWidth)x\(s.minHeight), maximum \(s.maxWidth)x\(s.maxHeight))\n"
    for output in topology.outputs { text += outputLine(output, in: topology) + "\n" }
    return text
  }

  /// `NAME connected [primary] [main] GEOMETRY MODE (mm) [identity]`.
  static func outputLine(_ output: Output, in topology: Topology) -> String {
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

  static func modesText(_ outputs: [Output], in topology: Topology) -> String {
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
