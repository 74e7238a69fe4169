/// How a CRTC transform samples the framebuffer (RandR's `scale_filter`).
public enum ScaleFilter: String, Hashable, Sendable, CaseIterable {
  case bilinear, nearest
}
