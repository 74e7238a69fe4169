/// The XRender pictures behind one mirror window: the root (with IncludeInferiors, so every
/// window on the source shows) transformed onto the window.
public struct MirrorPictures: Hashable, Sendable {
  public var source: UInt
  public var destination: UInt
  public init(source: UInt, destination: UInt) {
    self.source = source
    self.destination = destination
  }
}

/// A DAMAGE object on the root window.
public struct DamageID: RawRepresentable, Hashable, Sendable {
  public var rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
}
