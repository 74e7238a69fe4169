import DisplayX11

@testable import DisplayModel

extension Mode {
  /// The size of the screen area this mode covers on a CRTC turned by `rotation` under
  /// `transform` (`CrtcTransform.footprint`); nil when the transform has no finite one.
  func footprint(_ rotation: Rotation, _ transform: CrtcTransform = .identity) -> (width: Int, height: Int)? {
    transform.footprint(width: width, height: height, rotation: rotation).map { ($0.width, $0.height) }
  }
}
