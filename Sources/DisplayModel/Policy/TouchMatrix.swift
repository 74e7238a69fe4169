/// The XInput `Coordinate Transformation Matrix` that makes an absolute device (a touch
/// screen, a pen) cover exactly one output's rectangle of the screen, turned and mirrored as
/// the output is: what `xinput map-to-output` sets. Pure.
///
/// The device reports a point of its panel as (u, v), each 0...1 along the panel's own
/// scan-out axes; the matrix takes (u, v, 1) to the point of the whole screen, each 0...1.
/// The matrix undoes the head's rotation, then its reflection along the output's own axes, in
/// the words of the spelling the head holds (so `left` with `x` mirrors the turned picture
/// left to right, as xinput reads the X server's reflection), then places the output's
/// rectangle on the screen.
public enum TouchMatrix {
  /// Row-major 3x3, as the property holds it; the identity when the screen has no area.
  public static func matrix(
    rect: Rect, transform: Transform, spelling: TransformSpelling = .turned, screenWidth: Int, screenHeight: Int
  ) -> [Double] {
    guard screenWidth > 0, screenHeight > 0 else { return identity }
    let (sw, sh) = (Double(screenWidth), Double(screenHeight))
    let (x, y, w, h) = (Double(rect.x) / sw, Double(rect.y) / sh, Double(rect.width) / sw, Double(rect.height) / sh)
    // The output-local point (p, q) as an affine function of (u, v): rows [a, b, c].
    let (rotate, reflect) = transform.words(spelling)
    let local = mirror(reflect).compose(turn(rotate))
    return [
      w * local.p.0, w * local.p.1, x + w * local.p.2,
      h * local.q.0, h * local.q.1, y + h * local.q.2,
      0, 0, 1,
    ]
  }

  public static let identity: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]

  /// An affine map of the unit square: p = p.0 u + p.1 v + p.2, and q alike.
  struct Affine {
    var p: (Double, Double, Double)
    var q: (Double, Double, Double)

    /// This map after `inner`: self(inner(u, v)).
    func compose(_ inner: Affine) -> Affine {
      func row(_ r: (Double, Double, Double)) -> (Double, Double, Double) {
        (
          r.0 * inner.p.0 + r.1 * inner.q.0, r.0 * inner.p.1 + r.1 * inner.q.1,
          r.0 * inner.p.2 + r.1 * inner.q.2 + r.2
        )
      }
      return Affine(p: row(p), q: row(q))
    }
  }

  /// Undoes the reflection along the output's axes.
  static func mirror(_ reflect: ReflectRequest) -> Affine {
    let fx = reflect == .x || reflect == .xy
    let fy = reflect == .y || reflect == .xy
    return Affine(p: fx ? (-1, 0, 1) : (1, 0, 0), q: fy ? (0, -1, 1) : (0, 1, 0))
  }

  /// Undoes the rotation: where on the output's rectangle a point of the panel shows.
  /// `left` turns the picture a quarter counter-clockwise, so the panel's top edge shows the
  /// rectangle's right edge.
  static func turn(_ rotate: RotateRequest) -> Affine {
    switch rotate {
    case .left: return Affine(p: (0, -1, 1), q: (1, 0, 0))
    case .inverted: return Affine(p: (-1, 0, 1), q: (0, -1, 1))
    case .right: return Affine(p: (0, 1, 0), q: (-1, 0, 1))
    case .normal: return Affine(p: (1, 0, 0), q: (0, 1, 0))
    }
  }
}
