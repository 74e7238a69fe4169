import CWayland
import DisplayModel
import DisplayPorts

#if canImport(Glibc)
  import Glibc
#endif

/// The surface port on a wlroots compositor: a `zwlr_layer_shell_v1` surface per head, bound
/// to that head's `wl_output` (matched by the output's name), showing the placeholder from
/// `wl_shm` buffers scaled by `wp_viewporter`. Event-driven: poll `fileDescriptor`, then
/// `dispatch()` and `takeEvents()`; nothing runs while the compositor says nothing.
public final class WaylandSurfaces: SurfaceHost {
  let connection: WaylandConnection
  private let globals: SurfaceGlobals
  private let outputs: SurfaceOutputs
  private var surfaces: [SurfaceID: LayerSurface] = [:]
  /// Surfaces the compositor closed, with their output's global, until `takeEvents` says
  /// whether their head went (an unplug sends `closed` and removes the `wl_output`).
  private var closedByCompositor: [(id: SurfaceID, output: UInt32)] = []
  private var pending: [SurfaceEvent] = []
  private var nextID: UInt = 1

  /// Whether the compositor has screencopy and subsurfaces.
  public var canMirror: Bool { globals.screencopy != nil && globals.subcompositor != nil }
  public var mirrorMissing: String { "the compositor offers no zwlr_screencopy_manager_v1 or wl_subcompositor" }
  /// Frames shown in mirrors so far (each one a source change: a still source sends none).
  public private(set) var frames = 0
  /// The same, per surface; a surface's count goes with it.
  private var surfaceFrames: [SurfaceID: Int] = [:]

  /// Connects to `socket` (default `$WAYLAND_DISPLAY`) and binds the compositor, shm, layer
  /// shell, viewporter and every output; throws naming what the compositor lacks.
  public convenience init(socket: String? = nil) throws(DisplayError) {
    try self.init(socket: socket, outputVersion: 4)
  }

  /// The surfaces of a display server that manages the layout too: a compositor without
  /// the wlroots output manager is refused for that first, as the automatic choice says.
  public convenience init(socket: String?, managingOutputs: Bool) throws(DisplayError) {
    try self.init(socket: socket, outputVersion: 4, managingOutputs: managingOutputs)
  }

  /// `outputVersion` caps the wl_output version bound (below 4, names come from xdg-output).
  init(socket: String?, outputVersion: UInt32, managingOutputs: Bool = false) throws(DisplayError) {
    let connection = try WaylandConnection(socket: socket)
    if managingOutputs, connection.global("zwlr_output_manager_v1") == nil {
      throw .compositor(display: connection.socketName, problem: connection.withoutOutputManager)
    }
    var made: [OpaquePointer] = []
    func bound(_ name: String, _ interface: UnsafePointer<wl_interface>) throws(DisplayError) -> OpaquePointer {
      guard let global = connection.global(name), let proxy = connection.bind(global, interface) else {
        throw .compositor(display: connection.socketName, problem: "it has no \(name)")
      }
      made.append(proxy)
      return proxy
    }
    let compositor: OpaquePointer
    let shm: OpaquePointer
    let layerShell: OpaquePointer
    let viewporter: OpaquePointer
    do throws(DisplayError) {
      compositor = try bound("wl_compositor", cw_compositor_interface())
      shm = try bound("wl_shm", cw_shm_interface())
      layerShell = try bound("zwlr_layer_shell_v1", cw_layer_shell_interface())
      viewporter = try bound("wp_viewporter", cw_viewporter_interface())
    } catch {
      // The globals bound before the missing one are the connection's no more.
      made.reversed().forEach { cw_proxy_destroy_counted($0) }
      throw error
    }
    let subcompositor = try? bound("wl_subcompositor", cw_subcompositor_interface())
    let screencopy = try? bound("zwlr_screencopy_manager_v1", cw_screencopy_manager_interface())
    self.connection = connection
    var globals = SurfaceGlobals(
      compositor: compositor, shm: shm, layerShell: layerShell, viewporter: viewporter, subcompositor: subcompositor,
      screencopy: screencopy)
    if let global = connection.global("zwlr_screencopy_manager_v1") {
      globals.bindScreencopy = { [unowned connection] in connection.bind(global, cw_screencopy_manager_interface()) }
    }
    self.globals = globals
    outputs = SurfaceOutputs(connection: connection, outputVersion: outputVersion)
    let outputs = outputs
    connection.globalAdded = { outputs.added($0) }
    connection.globalRemoved = { outputs.gone($0) }
    outputs.removed = { [unowned self] in self.outputGone($0) }
    // The outputs' names and modes.
    try connection.roundtrip()
  }

  deinit {
    for surface in surfaces.values { surface.release() }
    surfaces = [:]
    connection.globalAdded = nil
    connection.globalRemoved = nil
    globals.screencopy.map(destroyScreencopyManager)
    globals.subcompositor.map { wl_subcompositor_destroy($0) }
    wp_viewporter_destroy(globals.viewporter)
    if cw_proxy_get_version(UnsafeMutableRawPointer(globals.layerShell)) >= 3 {
      zwlr_layer_shell_v1_destroy(globals.layerShell)
    } else {
      cw_proxy_destroy_counted(globals.layerShell)
    }
    wl_shm_destroy(globals.shm)
    wl_compositor_destroy(globals.compositor)
    try? connection.flush()
  }

  /// The socket to poll for input.
  public var fileDescriptor: Int32 { connection.fileDescriptor }

  /// Whether the last flush found the socket full (EAGAIN): poll `fileDescriptor` for
  /// POLLOUT too, then `dispatch()` again.
  public var hasUnsent: Bool { connection.hasUnsent }

  /// Handles what the socket holds now, without blocking (call when poll says readable).
  public func dispatch() throws(DisplayError) {
    // What the events' handlers asked (an ack and its commit, a new output's bind) goes with it.
    try connection.dispatchReady()
  }

  /// Sends what is queued and waits for the compositor's answer (tests, start-up).
  public func roundtrip() throws(DisplayError) { try connection.roundtrip() }

  /// The names of the outputs known now.
  public var outputNames: [String] { outputs.outputs.filter(\.described).map(\.name) }

  /// Wayland objects made and not yet destroyed by this process's Wayland code on the
  /// calling thread (counted in the glue, whatever made them): for leak checks.
  public static var objectsOnThisThread: Int { Int(cw_proxies_alive()) }

  /// Open surfaces.
  public var openSurfaces: [SurfaceID] { Array(surfaces.keys) }

  // What a capture (OutputCapture.swift) takes from here.
  var screencopyManager: OpaquePointer? { globals.screencopy }
  var shm: OpaquePointer { globals.shm }
  func outputProxy(named name: String) -> OpaquePointer? { outputs.output(named: name)?.proxy }

  /// Whether `surface` has had its first `configure` (it shows its content).
  public func isConfigured(_ surface: SurfaceID) -> Bool { surfaces[surface]?.configured != nil }

  // SurfaceHost.

  /// A monitor's buffer is at its output's pixels, which the viewport shows over the
  /// logical size: a picture drawn at the logical size would fill 1/scale of it.
  public var picturesAtHeadPixels: Bool { true }

  public func open(_ spec: SurfaceSpec) throws(DisplayError) -> SurfaceID {
    guard let output = try output(named: spec.head) else {
      throw .compositor(display: connection.socketName, problem: "no output \(spec.head) to put a surface on")
    }
    let id = SurfaceID(rawValue: nextID)
    guard let surface = LayerSurface(id: id, spec: spec, output: output, globals: globals) else {
      throw .compositor(display: connection.socketName, problem: "cannot make a layer surface on \(spec.head)")
    }
    nextID += 1
    surface.onClosed = { [unowned self] in self.compositorClosed($0) }
    surfaces[id] = surface
    try connection.flush()
    return id
  }

  /// The output of that name; a plugged one may not have told its name yet: one roundtrip.
  private func output(named name: String) throws(DisplayError) -> OutputState? {
    if let output = outputs.output(named: name) { return output }
    try connection.roundtrip()
    return outputs.output(named: name)
  }

  public func show(_ picture: PlaceholderPicture, on surface: SurfaceID) throws(DisplayError) {
    guard let layer = surfaces[surface] else {
      throw .compositor(display: connection.socketName, problem: "no surface \(surface)")
    }
    try layer.show(picture)
    try connection.flush()
  }

  public func mirror(_ request: MirrorRequest, on surface: SurfaceID) -> Bool {
    guard let layer = surfaces[surface], let source = try? output(named: request.source),
      layer.startMirror(request, from: source), let stream = layer.mirror
    else { return false }
    stream.shown = { [unowned self] in
      self.frames += 1
      if self.surfaces[surface] != nil { self.surfaceFrames[surface, default: 0] += 1 }
    }
    stream.failed = { [unowned self] in
      // Once per mirror: the output's removal, which often follows, finds it stopped.
      self.surfaces[surface]?.stopMirror()
      self.pending.append(.mirrorSourceLost(surface))
    }
    try? connection.flush()
    return true
  }

  /// A new place or level; a new head closes the surface and opens one on it under the
  /// same id (a layer surface belongs to one output for its life).
  public func move(_ surface: SurfaceID, to spec: SurfaceSpec) {
    guard let layer = surfaces[surface] else { return }
    if spec.head == layer.spec.head {
      layer.update(spec)
    } else {
      layer.release()
      surfaces[surface] = nil
      if let output = try? output(named: spec.head),
        let moved = LayerSurface(id: surface, spec: spec, output: output, globals: globals)
      {
        moved.onClosed = { [unowned self] in self.compositorClosed($0) }
        surfaces[surface] = moved
      } else {
        pending.append(.headGone(surface))
      }
    }
    try? connection.flush()
  }

  public func close(_ surface: SurfaceID) {
    guard let layer = surfaces.removeValue(forKey: surface) else { return }
    surfaceFrames[surface] = nil
    layer.release()
    try? connection.flush()
  }

  /// What happened since the last call: surfaces closed by the compositor (`headGone` when
  /// their output went with them).
  public func takeEvents() -> [SurfaceEvent] {
    for (id, global) in closedByCompositor {
      pending.append(outputs.output(global: global) == nil ? .headGone(id) : .closed(id))
    }
    closedByCompositor = []
    defer { pending = [] }
    return pending
  }

  public func frames(on surface: SurfaceID) -> Int { surfaceFrames[surface] ?? 0 }

  /// No frames wait: nothing is paced without a mirror.
  public var frameDelay: UInt64? { nil }
  public func frame() {}

  private func compositorClosed(_ surface: LayerSurface) {
    guard surfaces[surface.id] === surface else { return }
    surfaces[surface.id] = nil
    surfaceFrames[surface.id] = nil
    closedByCompositor.append((surface.id, surface.output.global))
  }

  /// An output went: its surfaces are released (the compositor may not say `closed`), and
  /// mirrors of it stop, showing their background.
  private func outputGone(_ global: UInt32) {
    for (id, surface) in surfaces where surface.mirror?.source.global == global {
      surface.stopMirror()
      pending.append(.mirrorSourceLost(id))
    }
    for (id, surface) in surfaces where surface.output.global == global {
      surface.release()
      surfaces[id] = nil
      surfaceFrames[id] = nil
      pending.append(.headGone(id))
    }
  }
}

/// Destroys a screencopy manager (`destroy` is a request from version 2 on; before, the
/// proxy alone goes).
func destroyScreencopyManager(_ manager: OpaquePointer) {
  if cw_proxy_get_version(UnsafeMutableRawPointer(manager)) >= 2 {
    zwlr_screencopy_manager_v1_destroy(manager)
  } else {
    cw_proxy_destroy_counted(manager)
  }
}
