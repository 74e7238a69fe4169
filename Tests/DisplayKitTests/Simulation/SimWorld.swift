import DisplayKit
import DisplayModel
import DisplayRender

/// The simulated world the daemon lives in: the one adapter between the simulation and the
/// fake server. The daemon talks to it as to any display server; it forwards to
/// `FakeDisplayServer`, injects the faults the simulation draws (the Nth apply fails, a
/// window cannot be created), keeps the cursor pictures the fake does not make, and watches
/// every apply for one that would change nothing. The simulation's steps and invariants
/// see the world only through this type, so a new fake behind other ports changes this
/// file alone.
final class SimWorld: DisplayServer {
  let fake: FakeDisplayServer
  /// Connector names, in output order; the first is the built-in panel.
  let connectors: [String]

  init(connectors: [String]) {
    self.connectors = connectors
    fake = FakeDisplayServer(TopologyBuilder.topology(connectors, on: [connectors[0]: TopologyBuilder.m1080]))
  }

  // Faults.

  /// Applies from now until the one to fail (1: the next).
  private var applyFault: Int?
  /// Window creations from now until the one to fail (1: the next).
  private var windowFault: Int?
  /// Applies that changed nothing: each a description of the plan.
  private(set) var redundantApplies: [String] = []
  private(set) var applies = 0
  /// Whether the last apply failed (and was rolled back).
  private(set) var lastApplyFailed = false
  /// Applies that failed, from the start.
  private(set) var failedApplies = 0
  private(set) var windowsCreated = 0

  func failApply(_ n: Int) { applyFault = n }
  func failWindow(_ n: Int) { windowFault = n }
  func clearFaults() { (applyFault, windowFault) = (nil, nil) }

  /// Counts down a fault; true when this call is the one to fail.
  private static func strikes(_ fault: inout Int?) -> Bool {
    guard let n = fault else { return false }
    fault = n > 1 ? n - 1 : nil
    return n == 1
  }

  // The world's side: monitors, events, other clients.

  var topology: Topology { fake.topology }

  func output(_ connector: Int) -> Output { fake.topology.outputs[connector] }

  /// A monitor plugged into (or swapped on) a connector; one RandR event.
  func plug(_ connector: Int, edid: [UInt8]?) {
    fake.change {
      $0.outputs[connector].connection = .connected
      $0.outputs[connector].edid = edid
    }
  }

  /// The monitor goes: as on real hardware, its CRTC stays set until a client turns it off.
  func unplug(_ connector: Int) {
    fake.change {
      $0.outputs[connector].connection = .disconnected
      $0.outputs[connector].edid = nil
    }
  }

  /// RandR events waiting for the daemon.
  var pendingRandR: Int {
    get { fake.pendingRandR }
    set { fake.pendingRandR = newValue }
  }
  var pendingWindowEvents: Int { fake.pendingWindowEvents.count }
  var blanked: Bool {
    get { fake.blanked }
    set { fake.blanked = newValue }
  }

  /// Another client destroys one of our windows (the `k`th by id).
  func destroyWindow(_ k: Int) {
    let ids = fake.windows.keys.sorted { $0.rawValue < $1.rawValue }
    guard !ids.isEmpty else { return }
    fake.destroyFromOutside(ids[k % ids.count])
    destroyedOutside.insert(ids[k % ids.count])
  }

  /// Windows another client destroyed whose event the daemon has not read yet: until it
  /// does, it cannot know, and its own free of them (a BadWindow a real server answers,
  /// logged and harmless) is a race, not a double free.
  private var destroyedOutside: Set<WindowID> = []
  private(set) var racedFrees = 0

  /// Something draws on the root: damage for the mirrors.
  func draw(_ area: Rect) { fake.draw(area) }

  // What the daemon holds, for the invariants.

  var windows: [WindowID: Rect] { fake.windows }
  var pixmaps: Set<PixmapID> { fake.pixmaps }
  var pictures: Set<UInt> { fake.pictures }
  var damages: Set<DamageID> { fake.damages }
  private(set) var cursorPictures: Set<CursorPicture> = []
  private var cursorBadFrees = 0
  /// Frees of something not held, of every kind.
  var badFrees: Int { fake.badFrees + cursorBadFrees }

  // DisplayServer: forwarded, but for the faults and the watch on applies.

  var name: String { fake.name }
  var fileDescriptor: FileDescriptor { fake.fileDescriptor }
  var queuedEvents: Int { fake.queuedEvents }
  func readAvailable() throws(DisplayError) -> Int { try fake.readAvailable() }
  func flush() { fake.flush() }
  func sync() throws(DisplayError) { try fake.sync() }
  func selectRandREvents() throws(DisplayError) { try fake.selectRandREvents() }
  func drainEvents(_ onWindow: (WindowEvent) -> Void) throws(DisplayError) -> Int {
    defer { destroyedOutside = [] }
    return try fake.drainEvents(onWindow)
  }
  func screenBlanked() -> Bool { fake.screenBlanked() }
  func snapshot(_ options: ReadOptions) throws(DisplayError) -> Topology { try fake.snapshot(options) }
  func releaseModes(_ releases: [ModeRelease]) throws(DisplayError) -> [String] { try fake.releaseModes(releases) }

  func apply(_ plan: Plan, in planned: Topology) throws(DisplayError) -> ApplyOutcome {
    applies += 1
    if Self.changesNothing(plan, fake.topology) { redundantApplies.append(Self.describe(plan)) }
    if Self.strikes(&applyFault) { fake.failRequest(1) }
    let outcome = try fake.apply(plan, in: planned)
    fake.failingRequest = nil
    lastApplyFailed = !outcome.failed.isEmpty
    failedApplies += lastApplyFailed ? 1 : 0
    // The fake leaves the primary; a server sets it with the rest.
    if outcome.failed.isEmpty, let primary = plan.primary { fake.topology.primary = primary }
    return outcome
  }

  /// Whether every part of `plan` is as the server has it already.
  static func changesNothing(_ plan: Plan, _ t: Topology) -> Bool {
    guard plan.customModes.isEmpty, plan.screenMillimetres == nil else { return false }
    if let size = plan.screen, size.width != t.screen.width || size.height != t.screen.height { return false }
    if let primary = plan.primary, primary != t.primary { return false }
    return plan.changes.allSatisfy { change in
      guard let crtc = t.crtcs.first(where: { $0.id == change.crtc }) else { return false }
      guard change.mode != nil else { return crtc.mode == nil }
      return crtc.mode == change.mode && crtc.x == change.x && crtc.y == change.y
        && crtc.rotation == change.rotation && Set(crtc.outputs) == Set(change.outputs) && change.transform.isIdentity
    }
  }

  static func describe(_ plan: Plan) -> String {
    let changes = plan.changes.map { c in
      "\(c.outputName) " + (c.mode.map { "mode \($0.rawValue) at \(c.x),\(c.y)" } ?? "off")
    }
    let screen = plan.screen.map { ["screen \($0.width)x\($0.height)"] } ?? []
    let primary = plan.primary.map { ["primary \($0.rawValue)"] } ?? []
    return (changes + screen + primary).joined(separator: ", ")
  }

  /// Outputs whose last window creation failed.
  private(set) var windowless: Set<String> = []

  func createWindow(_ spec: WindowSpec) throws(DisplayError) -> WindowID {
    if Self.strikes(&windowFault) {
      windowless.insert(spec.output)
      throw .request(
        XErrorRecord(
          errorCode: 11, requestCode: 1, minorCode: 0, resourceID: 0, serial: 0,
          text: "BadAlloc (simulated: the window cannot be created)"))
    }
    windowsCreated += 1
    windowless.remove(spec.output)
    return try fake.createWindow(spec)
  }

  func moveWindow(_ window: WindowID, to rect: Rect) {
    // A window another client destroyed stays gone (the fake's move would make it again).
    guard fake.windows[window] != nil else {
      racedFrees += 1
      return
    }
    fake.moveWindow(window, to: rect)
  }
  func destroyWindow(_ window: WindowID) {
    guard !destroyedOutside.contains(window) else {
      racedFrees += 1
      return
    }
    fake.destroyWindow(window)
  }
  func showImage(_ image: any PixelImage, in window: WindowID, size: (width: Int, height: Int), background: RGBColor)
    throws(DisplayError) -> ShownImage
  { try fake.showImage(image, in: window, size: size, background: background) }
  func showPicture(_ picture: PlaceholderPicture, in window: WindowID, size: (width: Int, height: Int))
    throws(DisplayError) -> ShownImage
  { try fake.showPicture(picture, in: window, size: size) }
  func freePixmap(_ pixmap: PixmapID) { fake.freePixmap(pixmap) }
  func selectExposures(_ window: WindowID) { fake.selectExposures(window) }
  func clearWindow(_ window: WindowID) { fake.clearWindow(window) }
  func editResources(_ edit: ([UInt8]) -> [UInt8]?) throws(DisplayError) -> Bool { try fake.editResources(edit) }
  func xsettingsOwner() -> XSettingsOwner? { fake.xsettingsOwner() }

  var canMirror: Bool { fake.canMirror }
  func createMirror(_ window: WindowID, geometry: MirrorGeometry, filter: MirrorFilter) -> MirrorPictures? {
    fake.createMirror(window, geometry: geometry, filter: filter)
  }
  func setMirror(_ pictures: MirrorPictures, geometry: MirrorGeometry, filter: MirrorFilter) {
    fake.setMirror(pictures, geometry: geometry, filter: filter)
  }
  func composite(_ pictures: MirrorPictures, _ rects: [Rect]) { fake.composite(pictures, rects) }
  func freeMirror(_ pictures: MirrorPictures, destination: Bool) {
    // Its destination went with a window destroyed by another client, unknown to the daemon yet.
    let raced = destination && !fake.pictures.contains(pictures.destination) && !destroyedOutside.isEmpty
    if raced { racedFrees += 1 }
    fake.freeMirror(pictures, destination: destination && !raced)
  }
  func createRootDamage() -> DamageID { fake.createRootDamage() }
  func takeDamage(_ damage: DamageID) -> [Rect] { fake.takeDamage(damage) }
  func freeDamage(_ damage: DamageID) { fake.freeDamage(damage) }

  // The pointer: tracked, a 16x16 arrow at the middle of the panel, its pictures counted.
  private var nextCursor: UInt = 0x80_0000
  func selectPointerTracking() -> Bool { true }
  func deselectPointerTracking() {}
  func pointerPosition() -> (x: Int, y: Int)? { (960, 540) }
  func cursorImage() -> CursorImage? {
    CursorImage(width: 16, height: 16, hotX: 0, hotY: 0, serial: 1, pixels: Array(repeating: 0xFF00_0000, count: 256))
  }
  func createCursorPicture(_ image: CursorImage, scale: Double) -> CursorPicture? {
    nextCursor += 2
    let cursor = CursorPicture(picture: nextCursor, pixmap: nextCursor + 1)
    cursorPictures.insert(cursor)
    return cursor
  }
  func freeCursorPicture(_ cursor: CursorPicture) {
    if cursorPictures.remove(cursor) == nil { cursorBadFrees += 1 }
  }
  func compositeCursor(_ cursor: CursorPicture, into pictures: MirrorPictures, at rect: Rect) {}

  func outputProperties(_ output: OutputID, names: Set<String>?) -> [String: OutputProperty] {
    fake.outputProperties(output, names: names)
  }
  func setOutputProperty(_ output: OutputID, _ write: PropertyWrite) throws(DisplayError) {
    try fake.setOutputProperty(output, write)
  }
  func selectInputHierarchy(_ on: Bool) -> Bool { false }
  func inputDevices() -> [InputDevice] { [] }
  func setTransformMatrix(device: Int, _ matrix: [Double]) throws(DisplayError) {}
}
