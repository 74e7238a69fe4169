import DisplayX11

@testable import DisplayModel

extension Topology {
  /// What the server would hold after `plan`, were every request to succeed: CRTCs, the
  /// outputs on them, the screen's size, primary and physical size. What the tests read a plan
  /// over CRTCs back by.
  func after(_ plan: Plan) -> Topology {
    var t = self
    for (id, mode) in plan.customModes { t.modes[id] = mode }
    for change in plan.changes {
      guard let ci = t.crtcs.firstIndex(where: { $0.id == change.crtc }) else { continue }
      for i in t.outputs.indices where t.outputs[i].crtc == change.crtc { t.outputs[i].crtc = nil }
      var crtc = t.crtcs[ci]
      (crtc.mode, crtc.x, crtc.y, crtc.rotation, crtc.outputs) = (change.mode, change.x, change.y, change.rotation, [])
      (crtc.width, crtc.height, crtc.transform) = (0, 0, .identity)
      if let id = change.mode, let mode = t.modes[id], let size = mode.footprint(change.rotation, change.transform) {
        (crtc.width, crtc.height, crtc.transform) = (size.width, size.height, change.transform)
        crtc.outputs = change.outputs
        for i in t.outputs.indices where change.outputs.contains(t.outputs[i].id) { t.outputs[i].crtc = crtc.id }
      }
      t.crtcs[ci] = crtc
    }
    if let s = plan.screen { (t.screen.width, t.screen.height) = s }
    if let p = plan.primary { t.primary = p }
    if let mm = plan.screenMillimetres { (t.screen.mmWidth, t.screen.mmHeight) = mm }
    return t
  }
}
