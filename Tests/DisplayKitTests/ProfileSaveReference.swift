import DisplayX11

@testable import DisplayModel

/// `profile save` over RandR's topology (`ProfileMatcher.desk`, CRTCs and their modes, the
/// CRTC's outputs for clones): the reference the text over heads must equal byte for byte
/// (`ProfileSaveOverHeads`), and what the tests of the saved text pin on topologies.
extension ProfileSave {
  /// The scale of a CRTC's transform matrix, when it is one scale both ways.
  static func uniformScale(_ m: [Double]) -> Double? {
    guard m.count == 9, m[0] == m[4], m[8] == 1, [m[1], m[2], m[3], m[5], m[6], m[7]].allSatisfy({ $0 == 0 }) else {
      return nil
    }
    return uniformScale(m[0])
  }

  /// The match for one output among the desk's (`match` over monitors).
  static func match(_ output: Output, _ desk: [Output]) -> String {
    let monitor = { (o: Output) in Monitor(name: o.name, identity: o.identity, said: o.headIdentity) }
    return match(monitor(output), desk.map(monitor))
  }

  static func text(
    name: String, topology t: Topology, properties: [OutputID: [String: OutputProperty]] = [:]
  ) -> String {
    let desk = ProfileMatcher.desk(t)
    let lit = desk.compactMap { o in t.geometry(of: o).map { (o, $0) } }
      .sorted { a, b in (a.1.x, a.1.y, a.0.name) < (b.1.x, b.1.y, b.0.name) }.map(\.0)
    let off = desk.filter { t.activeCrtc(of: $0) == nil }
    var entries: [String] = []
    var cloneSource: [CrtcID: String] = [:]
    for output in lit + off {
      var fields = ["match: " + match(output, desk)]
      if let crtc = t.activeCrtc(of: output), let mode = t.currentMode(of: output) {
        if let first = cloneSource[crtc.id] {
          fields += modeFields(mode, output, t) + ["position: " + quoted("same-as " + first)]
        } else {
          if crtc.outputs.count > 1 {
            cloneSource[crtc.id] = output.name
            fields.append("alias: " + quoted(output.name))
          }
          fields += layout(output, crtc, mode, t)
        }
        if t.primary == output.id { fields.append("primary: true") }
      } else {
        fields.append("enabled: false")
      }
      fields += propertyFields(properties[output.id] ?? [:])
      entries.append("{ " + fields.joined(separator: ", ") + " }")
    }
    return object(name: name, outputs: entries)
  }

  /// Mode, position, rotation, reflection and scale of a lit output.
  static func layout(_ output: Output, _ crtc: Crtc, _ mode: Mode, _ t: Topology) -> [String] {
    var fields = modeFields(mode, output, t) + ["position: " + quoted("\(crtc.x),\(crtc.y)")]
    fields += rotationFields(crtc.rotation.transform, crtc.rotation.spelling)
    if let s = uniformScale(crtc.transform.matrix) {
      if ProfileOutput.scales.contains(s) { fields.append("scale: \(s)") }
      return fields
    }
    let (w, h) = crtc.rotation.turned(mode.width, mode.height)
    if (crtc.width, crtc.height) != (w, h), w > 0, h > 0 {
      let s = Double(crtc.width) / Double(w)
      let f = FixedScale.fixed(s)
      if ProfileOutput.scales.contains(s), let size = mode.footprint(crtc.rotation, FixedScale.transform(f, f)),
        size == (crtc.width, crtc.height)
      {
        fields.append("scale: \(s)")
      }
    }
    return fields
  }

  /// The mode's fields, checked against the mode policy over the output's modes.
  static func modeFields(_ mode: Mode, _ output: Output, _ t: Topology) -> [String] {
    modeFields(mode, width: mode.width, height: mode.height, refreshHz: mode.refreshHz) { request, custom in
      ModePolicy.candidates(request, custom: custom, for: output, in: t).modes.first?.id == mode.id
    }
  }
}
