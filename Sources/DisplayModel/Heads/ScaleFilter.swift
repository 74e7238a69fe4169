/// How a scale transform samples the framebuffer (xrandr's `scale_filter`).
public enum ScaleFilter: String, Hashable, Sendable, CaseIterable {
  case bilinear, nearest
}
