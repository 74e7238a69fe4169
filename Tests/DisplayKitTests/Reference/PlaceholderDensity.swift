import DisplayX11

@testable import DisplayModel

extension PlaceholderContent {
  /// The output's pixels per unit of its area, over RandR's topology (for the reference
  /// `wantedWindows`): its mode's width (turned as the output is) over the area's width,
  /// within 0.25...4; 1 without a mode.
  static func density(of output: Output, in topology: Topology) -> Double {
    guard let crtc = topology.activeCrtc(of: output), let mode = topology.currentMode(of: output),
      crtc.rect.width > 0
    else { return 1 }
    let across = Double(crtc.rotation.turned(mode.width, mode.height).width) / Double(crtc.rect.width)
    return across.isFinite ? min(max(across, 0.25), 4) : 1
  }
}
