import CXrandr
import DisplayModel
import DisplayPorts
import DisplaySupport
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

// Xlib's handlers are process-wide C function pointers with no context argument, so what
// they learn goes into process-wide state; displayd drives Xlib from one thread only.
nonisolated(unsafe) private var pendingErrors: [XErrorRecord] = []
// Lost connections by their Display address, locked: tests open connections on many threads,
// and an address freed by XCloseDisplay is reused by the next XOpenDisplay.
private let lostDisplays = Mutex<Set<UInt>>([])

func address(_ display: OpaquePointer) -> UInt { UInt(bitPattern: UnsafeMutableRawPointer(display)) }

private let recordError: XErrorHandler = { display, event in
  guard let display, let event else { return 0 }
  var buffer = [CChar](repeating: 0, count: 256)
  XGetErrorText(display, Int32(event.pointee.error_code), &buffer, Int32(buffer.count))
  let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  pendingErrors.append(
    XErrorRecord(
      errorCode: event.pointee.error_code, requestCode: event.pointee.request_code,
      minorCode: event.pointee.minor_code, resourceID: UInt(event.pointee.resourceid),
      serial: UInt(event.pointee.serial), text: text))
  return 0
}

// Called first on a broken connection; returning lets the exit handler below decide.
private let noteIOError: XIOErrorHandler = { _ in 0 }

// Replaces Xlib's exit(1): marks the display lost and returns, so the caller sees a typed error.
private let markLost: XIOErrorExitHandler = { display, _ in
  if let display { _ = lostDisplays.withLock { $0.insert(address(display)) } }
}

/// An open connection to an X server with RandR 1.2 or later; closes it on deinit.
///
/// X errors are recorded, never fatal; a broken connection becomes
/// `DisplayError.connectionLost` on the next call that notices it.
public final class XConnection {
  let display: OpaquePointer
  /// The display name as given, or as `$DISPLAY` resolved it.
  public let name: String
  let root: Window
  let screenNumber: Int32
  let randrEventBase: Int32
  public let randrVersion: (major: Int, minor: Int)
  var atomCache: [String: Atom] = [:]
  var screenRange: (minW: Int, minH: Int, maxW: Int, maxH: Int)?
  /// The modes of the last screen resources read, which the next read reuses when the server
  /// lists the same ones.
  var lastModes: ReadModes?
  /// DAMAGE's first event number, once `canMirror` has asked.
  var damageEventBase = -1
  /// Whether the server has DPMS and can use it: asked once, on the first `screenBlanked`.
  var dpmsCapable: Bool?
  /// XInput's major opcode and XFixes' first event, once XI2 is first used (`xiReady`).
  var xiOpcode = -1
  /// What the XI2 mask on the root asks for all devices: raw motion (pointer tracking) and
  /// hierarchy changes (touch mapping).
  var xiRawMotion = false
  var xiHierarchy = false
  var fixesEventBase = -1
  /// The XFixes region damage is taken into, once created.
  var damageRegion: UInt = 0
  /// The intermediate levels of mirrors that halve first, by their source picture.
  var mirrorLevels: [UInt: MirrorLevels] = [:]
  /// The surfaces made on this connection: the drain hands them the events about their
  /// windows, the root's damage, the pointer and the cursor.
  weak var surfaceSink: XSurfaces?

  /// Opens `name` (nil: `$DISPLAY`).
  public init(name: String? = nil) throws(DisplayError) {
    XSetErrorHandler(recordError)
    XSetIOErrorHandler(noteIOError)
    // displayd reads no keys: without XKB, opening a display takes two round trips less.
    XkbIgnoreExtension(1)
    let shown = name ?? getenv("DISPLAY").map { String(cString: $0) } ?? ""
    guard let display = XOpenDisplay(name) else { throw .cannotOpen(display: shown) }
    XSetIOErrorExitHandler(display, markLost, nil)
    _ = lostDisplays.withLock { $0.remove(address(display)) }
    guard let version = Self.randr(display) else {
      XCloseDisplay(display)
      throw .extensionMissing(display: shown, lacking: "RandR 1.2")
    }
    self.display = display
    self.name = String(cString: XDisplayString(display))
    root = cx_default_root(display)
    screenNumber = cx_default_screen(display)
    randrEventBase = version.eventBase
    randrVersion = (version.major, version.minor)
  }

  // RandR's first event and version through XCB, one round trip each; libXrandr would also
  // ask for the Generic Event extension (two more) before its first answer, so it is left to
  // set itself up at its first call, which only the daemon makes: the CLI starts without
  // those round trips.
  private static func randr(_ display: OpaquePointer) -> (eventBase: Int32, major: Int, minor: Int)? {
    guard let c = XGetXCBConnection(display), let ext = cx_randr_extension(c), ext.pointee.present != 0
    else { return nil }
    let cookie = xcb_randr_query_version(c, UInt32(XCB_RANDR_MAJOR_VERSION), UInt32(XCB_RANDR_MINOR_VERSION))
    var error: UnsafeMutablePointer<xcb_generic_error_t>?
    let reply = xcb_randr_query_version_reply(c, cookie, &error)
    defer {
      free(reply)
      free(error)
    }
    guard let version = reply?.pointee,
      version.major_version > 1 || (version.major_version == 1 && version.minor_version >= 2)
    else { return nil }
    return (Int32(ext.pointee.first_event), Int(version.major_version), Int(version.minor_version))
  }

  deinit {
    OutputChangeTimes.forget(display)
    XCloseDisplay(display)
    // After closing: closing a broken connection may mark it lost once more.
    _ = lostDisplays.withLock { $0.remove(address(display)) }
  }

  /// The connection's file descriptor, for `poll()`.
  public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: cx_connection_number(display)) }

  /// Whether Xlib has found the connection broken.
  public var isLost: Bool { lostDisplays.withLock { $0.contains(address(display)) } }

  /// Throws `connectionLost` when the connection broke.
  func checkAlive() throws(DisplayError) {
    if isLost { throw .connectionLost(display: name) }
  }

  /// Sends everything buffered, waits for the server to process it, and throws the first X
  /// error any of it caused.
  public func sync() throws(DisplayError) {
    try checkAlive()
    XSync(display, 0)
    try checkAlive()
    if let first = takeErrors().first { throw .request(first.failure) }
  }

  /// Sends buffered requests without waiting.
  public func flush() { XFlush(display) }

  /// The serial number the next request will carry: errors with this serial or a later one
  /// come from requests made after this call.
  public var nextRequest: UInt { UInt(cx_next_request(display)) }

  /// Waits for the server to process everything sent, then returns the errors caused by
  /// requests from `serial` on; errors of earlier requests (another operation's, arriving
  /// late) are dropped, so that no error is blamed on the wrong request.
  public func syncErrors(since serial: UInt) throws(DisplayError) -> [XErrorRecord] {
    try checkAlive()
    XSync(display, 0)
    try checkAlive()
    return takeErrors().filter { $0.serial >= serial }
  }

  /// Errors recorded since the last call, oldest first.
  public func takeErrors() -> [XErrorRecord] {
    defer { pendingErrors.removeAll() }
    return pendingErrors
  }

  /// The atom for `name`, interned once a connection.
  func atom(_ name: String, create: Bool = true) -> Atom {
    if let atom = atomCache[name] { return atom }
    let atom = XInternAtom(display, name, create ? 0 : 1)
    if atom != 0 { atomCache[name] = atom }
    return atom
  }
}

extension XConnection {
  /// Whether the server has the extension `name` (`XWAYLAND`, ...).
  public func hasExtension(_ name: String) -> Bool {
    var (opcode, event, error): (Int32, Int32, Int32) = (0, 0, 0)
    return XQueryExtension(display, name, &opcode, &event, &error) != 0
  }
}
