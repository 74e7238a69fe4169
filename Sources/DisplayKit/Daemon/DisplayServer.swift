import DisplayModel
import DisplayRender
import DisplaySupport

/// Everything the daemon asks of a display server, and nothing more: the X connection
/// implements it (`XConnection`), and so does the tests' `FakeDisplayServer`, which has no I/O
/// and lets the daemon's logic (settling, retries, resync, mirror source loss) be tested in
/// milliseconds, beside the tests against real servers.
public protocol DisplayServer: AnyObject {
  /// The display's name, for logs and status.
  var name: String { get }

  /// Whether the server has the extension `name` (`XWAYLAND` tells of a compositor).
  func hasExtension(_ name: String) -> Bool

  // The event loop.
  /// A descriptor that becomes readable when events arrive, for `poll()`.
  var fileDescriptor: FileDescriptor { get }
  /// Events read and queued, not yet drained.
  var queuedEvents: Int { get }
  /// Reads what has arrived without blocking; returns how many events are queued.
  func readAvailable() throws(DisplayError) -> Int
  /// Sends what is buffered.
  func flush()
  /// Waits until the server has handled everything sent.
  func sync() throws(DisplayError)
  /// Asks for the topology's change events.
  func selectRandREvents() throws(DisplayError)
  /// Takes every queued event; reports those about our windows and returns how many may
  /// have changed the topology.
  func drainEvents(_ onWindow: (WindowEvent) -> Void) throws(DisplayError) -> Int

  /// Whether DPMS has blanked the screen (standby, suspend or off); false on a server
  /// without the DPMS extension, or with DPMS disabled.
  func screenBlanked() -> Bool

  // Topology.
  /// One consistent snapshot.
  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology
  /// Applies a plan made from `topology`, all or nothing.
  func apply(_ plan: Plan, in topology: Topology) throws(DisplayError) -> ApplyOutcome
  /// Removes modes displayd made from the outputs listing them and destroys them; what the
  /// server refused.
  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String]

  // Windows.
  func createWindow(_ spec: WindowSpec) throws(DisplayError) -> WindowID
  func moveWindow(_ window: WindowID, to rect: Rect)
  func destroyWindow(_ window: WindowID)
  func showImage(_ image: any PixelImage, in window: WindowID, size: (width: Int, height: Int), background: RGBColor)
    throws(DisplayError) -> ShownImage
  /// Shows a placeholder picture: the server fills its background, only its patches upload.
  func showPicture(_ picture: PlaceholderPicture, in window: WindowID, size: (width: Int, height: Int))
    throws(DisplayError) -> ShownImage
  func freePixmap(_ pixmap: PixmapID)
  func selectExposures(_ window: WindowID)
  func clearWindow(_ window: WindowID)

  // Resources.
  /// Edits the root window's `RESOURCE_MANAGER` atomically (the server grabbed): `edit` gets
  /// the database (empty when unset) and returns the new one (empty: deleted), or nil to
  /// leave it. False, and nothing written, when the property is not a readable string.
  @discardableResult
  func editResources(_ edit: ([UInt8]) -> [UInt8]?) throws(DisplayError) -> Bool
  /// The client owning the screen's XSETTINGS selection, nil when none does.
  func xsettingsOwner() -> XSettingsOwner?

  // Mirrors.
  var canMirror: Bool { get }
  func createMirror(_ window: WindowID, geometry: MirrorGeometry, filter: MirrorFilter) -> MirrorPictures?
  func setMirror(_ pictures: MirrorPictures, geometry: MirrorGeometry, filter: MirrorFilter)
  func composite(_ pictures: MirrorPictures, _ rects: [Rect])
  func freeMirror(_ pictures: MirrorPictures, destination: Bool)
  func createRootDamage() -> DamageID
  func takeDamage(_ damage: DamageID) -> [Rect]
  func freeDamage(_ damage: DamageID)

  // The pointer in mirrors.
  func selectPointerTracking() -> Bool
  func deselectPointerTracking()
  func pointerPosition() -> (x: Int, y: Int)?
  func cursorImage() -> CursorImage?
  func createCursorPicture(_ image: CursorImage, scale: Double) -> CursorPicture?
  func freeCursorPicture(_ cursor: CursorPicture)
  func compositeCursor(_ cursor: CursorPicture, into pictures: MirrorPictures, at rect: Rect)

  // Output properties and touch devices (defaults in DaemonExtras.swift: a server without).
  /// The output's properties named in `names` (nil: all), as the server describes them.
  func outputProperties(_ output: OutputID, names: Set<String>?) -> [String: OutputProperty]
  func setOutputProperty(_ output: OutputID, _ write: PropertyWrite) throws(DisplayError)
  /// Asks for (or stops) XInput hierarchy events; false without XInput 2.
  func selectInputHierarchy(_ on: Bool) -> Bool
  /// Pointer devices that have a `Coordinate Transformation Matrix`.
  func inputDevices() -> [InputDevice]
  func setTransformMatrix(device: Int, _ matrix: [Double]) throws(DisplayError)
}

extension DisplayServer {
  /// A server without extensions, for stand-ins.
  public func hasExtension(_ name: String) -> Bool { false }

  /// One consistent snapshot, without probing connectors.
  public func snapshot() throws(DisplayError) -> Topology { try snapshot(ReadOptions()) }
}
