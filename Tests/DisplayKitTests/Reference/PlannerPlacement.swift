import DisplayX11

@testable import DisplayModel

// Where the RandR-shaped reference rule planner (`Planner`) puts monitors, and the CRTC
// changes and screen size that follow.
extension Planner {
  /// Where a monitor of `size` goes: beside its target, then pushed along the same direction
  /// past any monitor already there, so monitors placed alike end up in a row, not stacked.
  func place(
    _ size: (Int, Int), _ request: PositionRequest, main: Output?, rects: [OutputID: Rect]
  ) -> (x: Int, y: Int) {
    let targetOutput = request.anchor.flatMap { $0 == "main" ? main : topology.output(named: $0) }
    let target = targetOutput.flatMap { rects[$0.id] } ?? main.flatMap { rects[$0.id] }
    return request.origin(size, beside: target, avoiding: Array(rects.values))
  }

  /// RandR's screen starts at 0,0: monitors placed left of or above it shift everything.
  func normalize(_ rects: inout [OutputID: Rect]) { Rect.shiftToOrigin(&rects) }

  /// CRTC changes for the outputs being configured and for active ones that had to move.
  /// A scaled monitor is unchanged only at the size its transform gives: a CRTC's size is
  /// its transformed size (RandR's snapshot carries no transform).
  func changes(rects: [OutputID: Rect], targets: [OutputID: Target]) -> [CrtcChange] {
    var result: [CrtcChange] = []
    for output in topology.outputs {
      guard let rect = rects[output.id] else { continue }
      if let t = targets[output.id] {
        let same =
          t.crtc.mode == t.modes[0].id && t.crtc.x == rect.x && t.crtc.y == rect.y && t.crtc.outputs == [output.id]
          && t.crtc.rotation == t.rotation && (!t.scaled || (t.crtc.width, t.crtc.height) == (rect.width, rect.height))
        if !same {
          var change = CrtcChange(
            crtc: t.crtc.id, mode: t.modes[0].id, x: rect.x, y: rect.y, rotation: t.rotation,
            outputs: [output.id], fallbacks: t.modes.dropFirst().map(\.id), outputName: output.name)
          change.transform = t.transform
          result.append(change)
        }
      } else if let crtc = topology.activeCrtc(of: output), crtc.x != rect.x || crtc.y != rect.y {
        // Moved as it is: its rotation and its transform (a scale) stay.
        result.append(
          CrtcChange(
            crtc: crtc.id, mode: crtc.mode, x: rect.x, y: rect.y, rotation: crtc.rotation,
            outputs: crtc.outputs, fallbacks: [], outputName: output.name, transform: crtc.transform))
      }
    }
    return result
  }

  /// Active CRTCs that drive only disconnected outputs: turned off.
  func releases() -> [CrtcChange] {
    topology.crtcs.filter { crtc in
      crtc.isActive && !crtc.outputs.isEmpty
        && crtc.outputs.allSatisfy { topology.output($0)?.isConnected != true }
    }.map { crtc in
      CrtcChange(
        crtc: crtc.id, mode: nil, x: 0, y: 0, rotation: .normal, outputs: [], fallbacks: [],
        outputName: crtc.outputs.compactMap { topology.output($0)?.name }.joined(separator: ","))
    }
  }

  /// The bounding box of every monitor, within the server's limits; nil when unchanged.
  func screenSize(rects: [OutputID: Rect], changed: Bool, warnings: inout [PlanWarning]) -> (width: Int, height: Int)? {
    guard changed else { return nil }
    let s = topology.screen
    let w = max(s.minWidth, rects.values.map { $0.x + $0.width }.max() ?? 0)
    let h = max(s.minHeight, rects.values.map { $0.y + $0.height }.max() ?? 0)
    if w > s.maxWidth || h > s.maxHeight {
      warnings.append(.screenTooLarge(width: w, height: h, maxWidth: s.maxWidth, maxHeight: s.maxHeight))
    }
    let size = (min(w, s.maxWidth), min(h, s.maxHeight))
    return size == (s.width, s.height) ? nil : size
  }
}
