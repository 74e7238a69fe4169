import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport

/// What a compositor's head says beyond the lines every backend prints: its identity (wlroots gives no
/// EDID, only make, model and serial) and the compositor's scale and transform.
extension HeadReport {
  /// `outputs --json` on Wayland: the X11 shape, each output with a `head` object.
  public static func compositorOutputsJSON(_ snapshot: HeadSnapshot) -> JSON {
    // The bridge's bounds (one head a name, at most 1024 modes a head), as the daemon reads.
    let base = outputsJSON(snapshot.bounded().snapshot)
    return .object(
      base.members.map { key, value in
        guard key == "outputs", case .array(let outputs) = value else { return (key, value) }
        return (key, .array(outputs.map { withHead($0, snapshot) }))
      })
  }

  static func withHead(_ output: JSON, _ snapshot: HeadSnapshot) -> JSON {
    let name = output.members.first { $0.0 == "name" }.flatMap { if case .string(let s) = $0.1 { s } else { nil } }
    guard let name, let head = snapshot.head(named: name) else { return output }
    return .object(output.members + [("head", headJSON(head))])
  }

  public static func headJSON(_ head: Head) -> JSON {
    .object([
      ("description", .string(head.description)), ("make", .string(head.make)), ("model", .string(head.model)),
      ("serial", .string(head.serial)), ("enabled", .bool(head.enabled)), ("scale", .double(head.scale)),
      ("transform", .string(transformName(head.transform))),
    ])
  }

  /// wl_output's names: `normal`, `90`, ..., `flipped-270` (counter-clockwise turns).
  public static func transformName(_ t: Transform) -> String {
    let turn = ["normal", "90", "180", "270"][t.rawValue % 4]
    guard t.isFlipped else { return turn }
    return t.rawValue == 4 ? "flipped" : "flipped-" + turn
  }

  /// `outputs` on Wayland: the X11 lines, the Screen line naming the backend, each head's
  /// identity and a scale other than 1 after its line. The heads as the bridge bounds them.
  public static func outputsText(_ snapshot: HeadSnapshot, server: String) -> String {
    let bounded = snapshot.bounded().snapshot
    let screen = bounded.litBounds
    var text =
      "Screen: \(screen.width)x\(screen.height) (the lit heads' bounds; backend wayland, \(printable(server)))\n"
    for head in bounded.heads { text += compositorLine(head, bounded) + "\n" }
    return text
  }

  public static func compositorLine(_ head: Head, _ snapshot: HeadSnapshot) -> String {
    var line = outputLine(head, in: snapshot)
    if head.enabled, head.scale != 1 { line += " scale \(fixed(head.scale, places: 3))" }
    if head.transform.isFlipped { line += " " + transformName(head.transform) }
    let identity = [head.make, head.model, head.serial].filter { !$0.isEmpty }
    if !identity.isEmpty { line += " [" + printable(identity.joined(separator: " ")) + "]" }
    return line
  }

  /// `modes` on Wayland: the X11 lines, each head's line as `outputs` prints it.
  public static func compositorModesText(_ heads: [Head], _ snapshot: HeadSnapshot) -> String {
    heads.map { compositorLine($0, snapshot) + "\n" + modeLines($0) }.joined()
  }
}
