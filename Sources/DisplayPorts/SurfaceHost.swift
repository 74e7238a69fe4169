import DisplayModel

/// A surface's handle: opaque to the daemon (an X window, a layer surface).
public struct SurfaceID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// Where a surface is and how it stacks.
public struct SurfaceSpec: Hashable, Sendable {
  /// The head it covers.
  public var head: String
  /// The head's area in desktop coordinates.
  public var rect: Rect
  public var level: WindowLevel
  /// Its colour before content arrives.
  public var background: RGBColor
  /// Whether it covers the whole head (a monitor's surface), or only `rect`, a part of the
  /// head centred on it (`identify`'s card): on X the window is `rect` either way; a
  /// wlroots layer surface is anchored to the four edges, or to none at `rect`'s size.
  public var coversHead: Bool

  public init(head: String, rect: Rect, level: WindowLevel, background: RGBColor, coversHead: Bool = true) {
    self.head = head
    self.rect = rect
    self.level = level
    self.background = background
    self.coversHead = coversHead
  }
}

/// What a surface mirrors, and how.
public struct MirrorRequest: Hashable, Sendable {
  /// The source head's name.
  public var source: String
  public var geometry: MirrorGeometry
  public var filter: MirrorFilter
  /// Whether the pointer is drawn into the mirror.
  public var cursor: Bool
  /// The refresh rate of the surface's head: the backend paces the mirror's frames to the
  /// fastest mirroring head.
  public var refreshHz: Double

  public init(source: String, geometry: MirrorGeometry, filter: MirrorFilter, cursor: Bool, refreshHz: Double = 60) {
    self.source = source
    self.geometry = geometry
    self.filter = filter
    self.cursor = cursor
    self.refreshHz = refreshHz
  }
}

/// Something that happened to a surface.
public enum SurfaceEvent: Hashable, Sendable {
  /// Closed by someone else (`xkill`, a compositor's `closed`): its resources are released.
  case closed(SurfaceID)
  /// Needs its picture again (the backend repaints mirrors itself).
  case exposed(SurfaceID)
  /// Its head went away, and the host released it with the head (as for `closed`).
  case headGone(SurfaceID)
  /// A mirror's source is gone: the surface shows its background until told otherwise.
  case mirrorSourceLost(SurfaceID)
}

extension SurfaceEvent {
  /// The surface it is about.
  public var surface: SurfaceID {
    switch self {
    case .closed(let id), .exposed(let id), .headGone(let id), .mirrorSourceLost(let id): return id
    }
  }
}

/// The surface port: one surface per monitor that shows a picture or mirrors another head.
/// The backend owns every server resource behind a surface (pixmaps, pictures, damage,
/// cursor images, shm buffers) and paces its frames; `close` releases them all.
public protocol SurfaceHost: AnyObject {
  /// Whether `mirror` can work here (RandR: XRender, DAMAGE; wlroots: screencopy).
  var canMirror: Bool { get }
  /// What the server lacks when `canMirror` is false, for the log.
  var mirrorMissing: String { get }
  /// Whether a monitor's picture is to be drawn at its head's pixels (`PlaceholderContent`'s
  /// `density`; a wlroots head's logical size is its pixels over its scale), not at `rect`'s
  /// size (an X window is screen pixels, whatever a CRTC transform does to them).
  var picturesAtHeadPixels: Bool { get }
  func open(_ spec: SurfaceSpec) throws(DisplayError) -> SurfaceID
  func show(_ picture: PlaceholderPicture, on surface: SurfaceID) throws(DisplayError)
  /// Mirrors until `show`, another `mirror` or `close`; false when it cannot (the surface
  /// keeps its background).
  func mirror(_ request: MirrorRequest, on surface: SurfaceID) -> Bool
  func move(_ surface: SurfaceID, to spec: SurfaceSpec)
  /// Releases the surface and everything behind it; a surface already closed (by someone
  /// else, reported as `.closed`) is not closed again.
  func close(_ surface: SurfaceID)

  // The event loop: the backend's events arrive with the display server's (one descriptor
  // on X), and the daemon asks the host what they meant once they are read.
  /// Does what the events read since the last call ask (repaints, frames of mirrors) and
  /// returns what the daemon must know.
  func takeEvents() -> [SurfaceEvent]
  /// Nanoseconds until the backend wants `frame()` (a mirror's damage waits for its next
  /// frame); nil while nothing waits, so an idle daemon arms no timer.
  var frameDelay: UInt64? { get }
  /// Draws what waits for the frame.
  func frame()
  /// Frames drawn into mirrors so far (paced composites, and one whenever a mirror is set
  /// up), for `status`.
  var frames: Int { get }
  /// Frames shown in that surface's mirrors so far (0 for a surface unknown): whether one
  /// mirror shows anything cannot be read from `frames` while another one animates.
  func frames(on surface: SurfaceID) -> Int
}

extension SurfaceHost {
  public var mirrorMissing: String { "the display server cannot mirror" }
  public var picturesAtHeadPixels: Bool { false }
}
