import DisplayModel
import DisplayX11

/// Random RandR desks and configurations for them, drawn from a seed: outputs that share
/// CRTCs, modes of one size at two rates, CRTCs that turn or not, clones, monitors gone but
/// still lit, small maximum screens; and rules and profiles with modes, places, turns,
/// scales, `same-as`, `enabled: false`, a primary, a dpi.
enum RandomDesk {
  static let modes: [Mode] = [
    TopologyBuilder.m1080, TopologyBuilder.m1024, TopologyBuilder.m768,
    Mode(
      id: ModeID(rawValue: 4), name: "1920x1080", width: 1920, height: 1080, dotClock: 148_500_000, hTotal: 2640,
      vTotal: 1125),
    Mode(
      id: ModeID(rawValue: 5), name: "1280x720", width: 1280, height: 720, dotClock: 74_250_000, hTotal: 1650,
      vTotal: 750),
    Mode(
      id: ModeID(rawValue: 6), name: "3840x2160", width: 3840, height: 2160, dotClock: 594_000_000, hTotal: 4400,
      vTotal: 2250),
  ]
  static let names = ["eDP-1", "DP-1", "HDMI-1", "DP-2"]
  static let turning: Rotation = [.normal, .left, .inverted, .right, .reflectX, .reflectY]

  static func topology(_ r: inout SimRandom) -> Topology {
    let n = 1 + r.below(names.count)
    let crtcCount = n + r.below(2)
    let crtcIDs = (0..<crtcCount).map { CrtcID(rawValue: UInt(200 + $0)) }
    var crtcs = crtcIDs.map { Crtc(id: $0, rotations: r.chance(50) ? turning : .normal) }
    var outputs: [Output] = []
    for i in 0..<n {
      var possible = crtcIDs.filter { _ in r.chance(40) }
      if possible.isEmpty || r.chance(50) { possible = [crtcIDs[i]] + possible.filter { $0 != crtcIDs[i] } }
      var list = modes.filter { _ in r.chance(60) }.map(\.id)
      if list.isEmpty { list = [modes[r.below(modes.count)].id] }
      var output = Output(
        id: OutputID(rawValue: UInt(100 + i)), name: names[i],
        connection: i == 0 || r.chance(80) ? .connected : .disconnected,
        mmWidth: r.chance(70) ? 344 + r.below(300) : 0, mmHeight: r.chance(70) ? 194 + r.below(200) : 0, modes: list,
        preferredCount: 1, possibleCrtcs: possible)
      output.mmHeight = output.mmWidth == 0 ? 0 : max(output.mmHeight, 1)
      outputs.append(output)
    }
    for c in crtcs.indices where r.chance(70) {
      crtcs[c].possibleOutputs = outputs.filter { $0.possibleCrtcs.contains(crtcs[c].id) }.map(\.id)
    }
    let big = r.chance(75)
    var x = 0
    for i in outputs.indices where outputs[i].isConnected ? r.chance(65) : r.chance(20) {
      guard outputs[i].crtc == nil,
        let c = crtcs.firstIndex(where: { !$0.isActive && outputs[i].possibleCrtcs.contains($0.id) }),
        let mode = modes.first(where: { $0.id == outputs[i].modes[r.below(outputs[i].modes.count)] })
      else { continue }
      let rotation: Rotation = crtcs[c].rotations.contains(.left) && r.chance(25) ? .left : .normal
      let (w, h) = rotation.turned(mode.width, mode.height)
      // A desk the server holds: within its maximum screen.
      guard x + w <= (big ? 16384 : 4096), h <= (big ? 16384 : 2160) else { continue }
      crtcs[c] = Crtc(
        id: crtcs[c].id, x: x, y: 0, width: w, height: h, mode: mode.id, rotation: rotation, outputs: [outputs[i].id],
        possibleOutputs: crtcs[c].possibleOutputs, rotations: crtcs[c].rotations)
      outputs[i].crtc = crtcs[c].id
      x += w
      clone(into: c, &crtcs, &outputs, &r)
    }
    let height = max(200, crtcs.map { $0.y + $0.height }.max() ?? 0)
    return Topology(
      screen: ScreenSize(
        width: max(x, 320), height: height, minWidth: 320, minHeight: 200, maxWidth: big ? 16384 : 4096,
        maxHeight: big ? 16384 : 2160, mmWidth: r.chance(50) ? 500 : 0, mmHeight: r.chance(50) ? 300 : 0),
      outputs: outputs, crtcs: crtcs, modes: Dictionary(uniqueKeysWithValues: modes.map { ($0.id, $0) }),
      primary: r.chance(50) ? outputs[r.below(outputs.count)].id : nil)
  }

  /// Sometimes a second connected, dark output that lists the mode joins the CRTC as a clone.
  static func clone(into c: Int, _ crtcs: inout [Crtc], _ outputs: inout [Output], _ r: inout SimRandom) {
    guard r.chance(25), let mode = crtcs[c].mode,
      let j = outputs.indices.first(where: { j in
        outputs[j].isConnected && outputs[j].crtc == nil && outputs[j].modes.contains(mode)
          && outputs[j].possibleCrtcs.contains(crtcs[c].id)
          && (crtcs[c].possibleOutputs.isEmpty || crtcs[c].possibleOutputs.contains(outputs[j].id))
      })
    else { return }
    crtcs[c].outputs.append(outputs[j].id)
    outputs[j].crtc = crtcs[c].id
  }

  static func name(_ t: Topology, _ r: inout SimRandom) -> String {
    let connected = t.connectedOutputs
    return connected.isEmpty ? "main" : connected[r.below(connected.count)].name
  }

  /// `{monitors: [...]}`: a rule for some connected outputs.
  static func rules(_ t: Topology, _ r: inout SimRandom) -> String {
    var rules: [String] = []
    for output in t.connectedOutputs where r.chance(70) {
      var keys = ["match: {output: '\(output.name)'}"]
      if r.chance(30) { keys.append("mode: '\(r.pick(["1280x1024", "1024x768", "1920x1080@50", "3840x2160"]))'") }
      if r.chance(30) { keys.append("position: '\(r.pick(["right-of", "left-of", "below", "above"])) main'") }
      if r.chance(15) { keys.append("rotate: 'left'") }
      if r.chance(15) { keys.append("scale: \(r.pick(["0.5", "1.5", "2"]))") }
      if r.chance(10) { keys.append("enabled: false") }
      if r.chance(15) { keys.append("primary: true") }
      rules.append("{" + keys.joined(separator: ", ") + "}")
    }
    return "{monitors: [" + rules.joined(separator: ", ") + "]}"
  }

  /// `{profiles: [...]}`: one profile naming every connected output, sometimes with a dpi.
  static func profile(_ t: Topology, _ r: inout SimRandom) -> String {
    var entries: [String] = []
    let connected = t.connectedOutputs
    var primary = false
    for (i, output) in connected.enumerated() {
      var keys = ["match: {output: '\(output.name)'}"]
      if r.chance(25) { keys.append("mode: '\(r.pick(["1280x1024", "1024x768", "1920x1080@50", "1280x720"]))'") }
      // Only earlier entries as anchors: no cycles.
      if i > 0 && r.chance(50) {
        let other = connected[r.below(i)].name
        let position = r.pick(["same-as", "same-as", "right-of", "below", "left-of"]) + " " + other
        keys.append("position: '\(r.chance(15) ? "0,0" : position)'")
      }
      if r.chance(15) { keys.append("rotate: '\(r.pick(["left", "inverted"]))'") }
      if r.chance(15) { keys.append("scale: \(r.pick(["0.5", "1.5", "2"]))") }
      if r.chance(10) { keys.append("enabled: false") }
      if !primary && r.chance(15) {
        keys.append("primary: true")
        primary = true
      }
      entries.append("{" + keys.joined(separator: ", ") + "}")
    }
    let dpi = r.chance(25) ? ", dpi: \(r.pick(["96", "144", "'auto'"]))" : ""
    let lid = r.chance(30) ? "defaults: {lid_closed: 'disable'}, " : ""
    return "{\(lid)profiles: [{name: 'p'\(dpi), outputs: [" + entries.joined(separator: ", ") + "]}]}"
  }
}
