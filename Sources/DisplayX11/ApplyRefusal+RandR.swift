import DisplayModel

extension ApplyRefusal.Problem {
  /// No CRTC is free to drive `head`: the X server's way a head cannot be lit.
  public static func noFreeCrtc(_ head: String) -> Self {
    .cannotLight(head: head, reason: "no free CRTC can drive \(head)")
  }

  /// The CRTC of `head` refused a scale transform, now or before.
  public static func crtcRefusedTransform(_ head: String) -> Self {
    .transform(head: head, reason: "its CRTC refused a transform (RRSetCrtcTransform)")
  }
}
