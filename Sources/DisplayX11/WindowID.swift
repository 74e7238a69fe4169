import DisplayModel

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
