// The values the daemon and a display server exchange (`DisplayServer` in DisplayKit): what
// a snapshot reads, what an apply did, windows, pictures, mirrors, the cursor, events. Plain
// values, so the daemon and a fake server speak them without X; the X edge (DisplayX11)
// implements them with X ids.

/// How much a snapshot reads.
public struct ReadOptions: Sendable {
  /// Ask the server to re-probe connectors (`XRRGetScreenResources`). Slow on real hardware:
  /// only at start-up or on explicit request, never on an event path.
  public var probe: Bool
  /// Read the `EDID` and `non-desktop` properties of connected outputs.
  public var properties: Bool

  public init(probe: Bool = false, properties: Bool = true) {
    self.probe = probe
    self.properties = properties
  }
}

/// What applying a plan did.
public struct ApplyOutcome: Sendable {
  /// Changes the server accepted, with the mode it took (nil: turned off).
  public var applied: [(change: CrtcChange, mode: ModeID?)] = []
  /// Changes that failed with every candidate mode, with the reason. When there are any,
  /// everything applied before was rolled back to the snapshot's layout.
  public var failed: [(change: CrtcChange, reason: String)] = []
  /// The screen size set, if it was changed.
  public var screen: (width: Int, height: Int)?
  /// The server's configuration changed since the snapshot the plan was made from: nothing
  /// was applied; read again and plan again.
  public var stale = false
  /// Why nothing was sent at all: the plan would leave no connected output lit (never a dark
  /// desk), or asks CRTCs for rotations they cannot do (`rotationRefused`).
  public var refused: String?
  /// CRTCs the plan asks for a rotation or reflection outside their `Crtc.rotations`: nothing
  /// was applied. The caller plans again without rotation for them and warns, naming the
  /// output and the reason (the rotation changes the monitor's extent, so its neighbours'
  /// places depend on it: the applier cannot drop it alone).
  public var rotationRefused: Set<CrtcID> = []
  /// CRTCs whose transform the server refused (RRSetCrtcTransform BadValue: the CRTC cannot
  /// scale; none of Xvnc, Xephyr and the dummy driver can): nothing was applied. The caller
  /// plans again without `scale` for them and warns, naming the output.
  public var transformRefused: Set<CrtcID> = []
  /// Changes already in force: nothing was sent for them.
  public var unchanged: [CrtcChange] = []
  /// Failures that are no single change's: the screen size, the primary, a read-back that
  /// differs from the plan, a refused transform. Everything was rolled back, as for `failed`.
  public var problems: [String] = []
  /// What a rollback did not restore, as read back from the server; empty when it did.
  public var notRestored: [String] = []
  /// What went wrong without failing the apply: a custom mode the server refused (the output
  /// fell back along its chain).
  public var warnings: [String] = []
  public init() {}
}

/// An X window id.
public struct WindowID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public var description: String { "0x" + String(rawValue, radix: 16) }
}

/// An X pixmap id.
public struct PixmapID: RawRepresentable, Hashable, Sendable {
  public var rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
}

/// A picture shown as a window's background: the pixmap, and the child window holding it
/// when the picture is smaller than the window.
public struct ShownImage: Hashable, Sendable {
  public var pixmap: PixmapID
  public var inner: WindowID?
  public init(pixmap: PixmapID, inner: WindowID?) {
    self.pixmap = pixmap
    self.inner = inner
  }
}

/// What a monitor's window is: where, how it stacks, its colour before content arrives.
public struct WindowSpec: Hashable, Sendable {
  public var output: String
  public var rect: Rect
  public var level: WindowLevel
  public var background: RGBColor
  public init(output: String, rect: Rect, level: WindowLevel, background: RGBColor) {
    self.output = output
    self.rect = rect
    self.level = level
    self.background = background
  }
}

/// Something that happened to one of our windows.
public enum WindowEvent: Hashable, Sendable {
  /// Destroyed by someone else (e.g. `xkill`).
  case destroyed(WindowID)
  /// A window manager asked it to close (`WM_DELETE_WINDOW`): ignored, as a kiosk must.
  case closeRequested(WindowID)
  /// Part of a window needs repainting (only selected for mirror windows).
  case exposed(WindowID, Rect)
  /// The root window was drawn on (DAMAGE).
  case damaged
  /// The pointer moved (XInput 2 raw motion).
  case pointerMoved
  /// The cursor's image changed (XFixes).
  case cursorChanged
  /// An XInput device was added or enabled (XI2 hierarchy): touch globs may match it.
  case inputDeviceAdded
}

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

/// The pointer's image as XFixes reports it: ARGB pixels and the hot spot.
public struct CursorImage: Sendable {
  public var width: Int
  public var height: Int
  public var hotX: Int
  public var hotY: Int
  public var serial: UInt
  public var pixels: [UInt32]
  public init(width: Int, height: Int, hotX: Int, hotY: Int, serial: UInt, pixels: [UInt32]) {
    (self.width, self.height, self.hotX, self.hotY, self.serial, self.pixels) = (
      width, height, hotX, hotY, serial, pixels
    )
  }
}

/// A cursor image uploaded as an ARGB picture.
public struct CursorPicture: Hashable, Sendable {
  public var picture: UInt
  public var pixmap: UInt
  public init(picture: UInt, pixmap: UInt) {
    self.picture = picture
    self.pixmap = pixmap
  }
}

/// An image in the X server's 24-bit layout (xRGB, 32 bits a pixel), as rows with a stride:
/// what a window can be shown (`showImage`). The placeholder's renderer makes one; a test
/// can make another.
public protocol PixelImage: AnyObject {
  var width: Int { get }
  var height: Int { get }
  /// Calls `body` with the first row and the stride in bytes.
  func withPixels<R>(_ body: (UnsafeRawPointer, Int) -> R) -> R
}

extension PixelImage {
  /// The colour at a point, for tests: `0xRRGGBB`.
  public func pixel(x: Int, y: Int) -> UInt32 {
    withPixels { data, stride in data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) & 0xFFFFFF }
  }
}
