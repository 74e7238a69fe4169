import CXrandr
import DisplayModel
import DisplayPorts

#if canImport(Glibc)
  import Glibc
#endif

/// One monitor's window and everything the server holds for it.
struct XSurface {
  var window: WindowID
  var rect: Rect
  var background: RGBColor
  /// The picture shown as the window's background, and its child window when smaller.
  var shown: ShownImage?
  /// What it mirrors, and the pictures doing it (nil when the server could not make them).
  var mirror: MirrorRequest?
  var pictures: MirrorPictures?
  /// Whether Expose events are selected (mirrors repaint exposed areas themselves).
  var exposures = false
  /// The pointer drawn into the mirror: its picture and where it was drawn.
  var cursorPicture: CursorPicture?
  var cursorRect: Rect?
  /// Frames composited into it, for `frames(on:)`.
  var frames = 0
}

/// How loud a line of the surface host is.
public enum SurfaceNote: Sendable {
  case debug, info, warning, error
}

/// The surface port on X: a window per monitor (override-redirect at the overlay level),
/// its picture as a background pixmap the server repaints itself, its mirror as XRender
/// composites from the root driven by one root DAMAGE, the pointer drawn in with XFixes'
/// cursor image and XInput 2 motion. Every server resource behind a surface lives here and
/// goes with `close`; events about the windows arrive through the connection's drain.
public final class XSurfaces: SurfaceHost {
  let connection: XConnection
  var surfaces: [SurfaceID: XSurface] = [:]
  /// Window events the drain handed over, handled by `takeEvents`.
  var inbox: [WindowEvent] = []
  /// Whether RENDER, DAMAGE and XFixes 2 are there: asked once.
  var supported: Bool?
  /// The root DAMAGE while any mirror exists.
  var damage: DamageID?
  /// Pointer tracking (selected once a mirror first draws the pointer) and the cursor image.
  var tracking: Bool?
  var cursorImage: CursorImage?
  var pacer = FramePacer()
  public internal(set) var frames = 0
  /// Monotonic nanoseconds, the frames' pace.
  let now: () -> UInt64
  /// Where its log lines go.
  public var note: (SurfaceNote, String) -> Void = { _, _ in }

  /// Surfaces on `connection`, whose drain hands them the events about their windows.
  public init(connection: XConnection, now: @escaping () -> UInt64 = XSurfaces.monotonic) {
    self.connection = connection
    self.now = now
    connection.surfaceSink = self
  }

  /// CLOCK_MONOTONIC in nanoseconds.
  public static func monotonic() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(clamping: ts.tv_sec) &* 1_000_000_000 &+ UInt64(clamping: ts.tv_nsec)
  }

  public func open(_ spec: SurfaceSpec) throws(DisplayError) -> SurfaceID {
    let window = try connection.createWindow(spec)
    let id = SurfaceID(rawValue: window.rawValue)
    surfaces[id] = XSurface(window: window, rect: spec.rect, background: spec.background)
    return id
  }

  /// Shows `picture` over the whole surface: the old picture (or mirror) is freed once the
  /// new one is up. When the server refuses, the surface keeps its background colour.
  public func show(_ picture: PlaceholderPicture, on id: SurfaceID) throws(DisplayError) {
    guard var s = surfaces[id] else { throw .request(connection.unknownFailure("a picture on \(id)")) }
    if s.pictures != nil || s.mirror != nil { stopMirror(&s) }
    defer { surfaces[id] = s }
    let shown = try connection.showPicture(picture, in: s.window, size: (s.rect.width, s.rect.height))
    let old = s.shown
    s.shown = shown
    if let pixmap = old?.pixmap { connection.freePixmap(pixmap) }
    if let inner = old?.inner { connection.destroyWindow(inner) }
    connection.flush()
  }

  /// Moves and resizes the window; its level stays (a new level is a new surface).
  public func move(_ id: SurfaceID, to spec: SurfaceSpec) {
    guard var s = surfaces[id] else { return }
    connection.moveWindow(s.window, to: spec.rect)
    s.rect = spec.rect
    surfaces[id] = s
    connection.flush()
  }

  public func close(_ id: SurfaceID) {
    guard let s = surfaces.removeValue(forKey: id) else { return }
    free(s, windowGone: false)
    updateTracking()
    // The frames follow the mirrors left, not the fastest monitor that was.
    updateInterval()
    connection.flush()
  }

  /// Frees every server resource behind a surface: the one place that knows them all. When
  /// another client destroyed the window, the server already freed what lived on it (its
  /// picture, its child) and only the rest is freed.
  func free(_ s: XSurface, windowGone: Bool) {
    if let pictures = s.pictures { connection.freeMirror(pictures, destination: !windowGone) }
    if let cursor = s.cursorPicture { connection.freeCursorPicture(cursor) }
    if !windowGone { connection.destroyWindow(s.window) }
    if let pixmap = s.shown?.pixmap { connection.freePixmap(pixmap) }
  }

  /// The drain found an event about a window (or the root's damage, pointer, cursor).
  func receive(_ event: WindowEvent) { inbox.append(event) }

  public func takeEvents() -> [SurfaceEvent] {
    let events = inbox
    inbox = []
    var out: [SurfaceEvent] = []
    for event in events {
      switch event {
      case .destroyed(let window):
        let id = SurfaceID(rawValue: window.rawValue)
        guard let s = surfaces.removeValue(forKey: id) else { continue }
        free(s, windowGone: true)
        updateTracking()
        updateInterval()
        out.append(.closed(id))
      case .closeRequested(let window):
        note(.info, "ignoring a request to close window \(window)")
      case .exposed(let window, let rect):
        exposed(SurfaceID(rawValue: window.rawValue), rect)
      case .damaged:
        // Damage already queued when the last mirror went: nothing left to draw it into.
        guard damage != nil else { continue }
        pacer.damagePending = true
        scheduleFrame()
      case .pointerMoved:
        guard tracking == true else { continue }
        pacer.cursorPending = true
        scheduleFrame()
      case .cursorChanged:
        cursorShapeChanged()
      case .inputDeviceAdded:
        continue
      }
    }
    return out
  }
}
