/// How a source is scaled into a mirror window.
public enum MirrorScale: String, Hashable, Sendable, CaseIterable {
  /// Keep the aspect ratio, letterbox the rest with the placeholder background.
  case fit
  /// Keep the aspect ratio, crop what does not fit.
  case fill
  /// Ignore the aspect ratio.
  case stretch
}

/// How the server samples the source when scaling.
public enum MirrorFilter: String, Hashable, Sendable, CaseIterable {
  /// Box quality at bilinear cost, so text stays readable: below 0.5, 2x2 halvings of the
  /// source (each one bilinear sample at the corner of four pixels) then one bilinear pass;
  /// from 0.5 to 0.75, one bilinear pass with its samples on pixel corners; bilinear above.
  case auto
  case bilinear
  case nearest
  /// XRender's convolution filter with a box kernel below 0.75, bilinear above: the same
  /// quality on pixman's generic (slow) path; kept to compare `auto` against.
  case box
}

/// Where a mirror's content goes and how root coordinates map into it; pure.
public struct MirrorGeometry: Hashable, Sendable {
  /// The source rectangle on the root window.
  public var source: Rect
  /// The mirror window's size.
  public var width: Int
  public var height: Int
  /// The content's origin and scale in window coordinates (origin may be negative: cropped).
  public var originX: Double
  public var originY: Double
  public var scaleX: Double
  public var scaleY: Double

  public init(source: Rect, width: Int, height: Int, scale: MirrorScale) {
    self.source = source
    self.width = width
    self.height = height
    // A zero-size window or source (a head mid-change) must not make an infinite transform.
    let sx = Double(max(1, width)) / Double(max(1, source.width))
    let sy = Double(max(1, height)) / Double(max(1, source.height))
    switch scale {
    case .stretch: (scaleX, scaleY) = (sx, sy)
    case .fit: (scaleX, scaleY) = (min(sx, sy), min(sx, sy))
    case .fill: (scaleX, scaleY) = (max(sx, sy), max(sx, sy))
    }
    originX = ((Double(width) - Double(source.width) * scaleX) / 2).rounded()
    originY = ((Double(height) - Double(source.height) * scaleY) / 2).rounded()
  }

  /// The part of the window the content covers (the rest are bars).
  public var content: Rect {
    let x0 = max(0, Int(originX))
    let y0 = max(0, Int(originY))
    let x1 = min(width, Int((originX + Double(source.width) * scaleX).rounded()))
    let y1 = min(height, Int((originY + Double(source.height) * scaleY).rounded()))
    return Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  /// The 3×3 matrix (row-major) taking window coordinates to root coordinates, as XRender
  /// transforms map destination to source.
  public var transform: [Double] {
    [
      1 / scaleX, 0, Double(source.x) - originX / scaleX,
      0, 1 / scaleY, Double(source.y) - originY / scaleY,
      0, 0, 1,
    ]
  }

  /// The largest box the convolution filter gets: its weights are sent and applied per
  /// pixel, so a tiny mirror of a large source must not ask for n² of them.
  public static let maxKernel = 8

  /// The last pass's filter and, for the box filter, its kernel size.
  public func filter(_ choice: MirrorFilter) -> (name: String, kernel: Int) {
    switch choice {
    case .nearest: return ("nearest", 0)
    case .bilinear, .auto: return ("bilinear", 0)
    case .box:
      let kernel = boxKernel
      return kernel == 0 ? ("bilinear", 0) : ("convolution", kernel)
    }
  }

  /// The box filter's kernel below 0.75 (0 above): the widest any filter reaches.
  var boxKernel: Int {
    let s = min(scaleX, scaleY)
    guard s < 0.75 else { return 0 }
    let reach = (1 / s).rounded(.up)
    return reach.isFinite ? Int(min(reach, Double(Self.maxKernel))) : Self.maxKernel
  }

  /// `value` in XRender's 16.16 fixed point, saturated to its range (NaN is 0).
  public static func fixed(_ value: Double) -> Int32 {
    let scaled = (value * 65536).rounded()
    guard !scaled.isNaN else { return 0 }
    return scaled >= Double(Int32.max) ? Int32.max : scaled <= Double(Int32.min) ? Int32.min : Int32(scaled)
  }

  /// A damaged root rectangle in window coordinates: clipped to the source, scaled, grown by
  /// a pixel for the filter, clipped to the content; nil when none of it shows.
  public func windowRect(forDamage d: Rect) -> Rect? {
    guard let d = d.intersection(source) else { return nil }
    let grow = Double(boxKernel) + 1
    let wx0 = Int((originX + Double(d.x - source.x) * scaleX - grow).rounded(.down))
    let wy0 = Int((originY + Double(d.y - source.y) * scaleY - grow).rounded(.down))
    let wx1 = Int((originX + Double(d.x + d.width - source.x) * scaleX + grow).rounded(.up))
    let wy1 = Int((originY + Double(d.y + d.height - source.y) * scaleY + grow).rounded(.up))
    return Rect(x: wx0, y: wy0, width: wx1 - wx0, height: wy1 - wy0).intersection(content)
  }
}
