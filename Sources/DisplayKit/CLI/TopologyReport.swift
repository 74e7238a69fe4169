/// Text and JSON renderings of a topology for `displayd outputs` and `displayd modes`.
public enum TopologyReport {
  // MARK: JSON

  public static func modeJSON(_ mode: Mode, current: Bool, preferred: Bool) -> JSON {
    .object([
      ("id", .int(Int(mode.id.rawValue))), ("name", .string(mode.name)),
      ("width", .int(mode.width)), ("height", .int(mode.height)),
      ("refresh_hz", .double(rounded(mode.refreshHz, places: 3))),
      ("current", .bool(current)), ("preferred", .bool(preferred)),
      ("interlaced", .bool(mode.isInterlaced)), ("doublescan", .bool(mode.isDoubleScan)),
      ("dot_clock_hz", .int(Int(mode.dotClock))),
    ])
  }

  public static func rectJSON(_ rect: Rect?) -> JSON {
    JSON.optional(rect) {
      .object([("x", .int($0.x)), ("y", .int($0.y)), ("width", .int($0.width)), ("height", .int($0.height))])
    }
  }

  /// The state of one output, as `outputs --json` and `watch --json` print it.
  public static func outputJSON(_ output: Output, in topology: Topology) -> [(String, JSON)] {
    let current = topology.currentMode(of: output)
    let identity = output.identity
    return [
      ("name", .string(output.name)), ("id", .int(Int(output.id.rawValue))),
      ("connected", .bool(output.isConnected)), ("connection", .string(output.connection.rawValue)),
      ("primary", .bool(topology.primary == output.id)),
      ("main", .bool(topology.mainOutput?.id == output.id)),
      ("crtc", rectJSON(topology.geometry(of: output))),
      ("rotation", JSON.optional(topology.activeCrtc(of: output)) { .string($0.rotation.name) }),
      ("current_mode", JSON.optional(current) { modeJSON($0, current: true, preferred: isPreferred($0, output)) }),
      ("mm", .object([("width", .int(output.mmWidth)), ("height", .int(output.mmHeight))])),
      ("non_desktop", .bool(output.nonDesktop)),
      ("identity", JSON.optional(identity) { EDIDReport.identityJSON($0) }),
    ]
  }

  public static func outputsJSON(_ topology: Topology) -> JSON {
    let s = topology.screen
    return .object([
      (
        "screen",
        .object([
          ("width", .int(s.width)), ("height", .int(s.height)),
          ("min_width", .int(s.minWidth)), ("min_height", .int(s.minHeight)),
          ("max_width", .int(s.maxWidth)), ("max_height", .int(s.maxHeight)),
        ])
      ),
      ("outputs", .array(topology.outputs.map { .object(outputJSON($0, in: topology)) })),
    ])
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
                    modeJSON($0, current: $0.id == current, preferred: isPreferred($0, output))
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
    if let mode = topology.currentMode(of: output) { words.append(modeLabel(mode)) }
    if output.isConnected { words.append("\(output.mmWidth)mm x \(output.mmHeight)mm") }
    if let edid = output.identity {
      words.append("[" + EDIDReport.identityLine(edid) + "]")
    }
    return words.joined(separator: " ")
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
          "  " + pad(mode.name, 12) + " " + pad(mode.id.description, 6) + " "
          + padLeft(fixed(mode.refreshHz, places: 2), 7) + mark + flags + "\n"
      }
    }
    return text
  }

  public static func modeLabel(_ mode: Mode) -> String { mode.label }

  static func isPreferred(_ mode: Mode, _ output: Output) -> Bool {
    output.preferredModes.contains(mode.id)
  }
}

/// `value` rounded half away from zero to `places` decimals.
public func rounded(_ value: Double, places: Int) -> Double {
  var scale = 1.0
  for _ in 0..<places { scale *= 10 }
  return (value * scale).rounded() / scale
}

func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }
func padLeft(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
