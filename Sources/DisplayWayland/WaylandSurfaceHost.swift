import CWayland
import DisplayModel
import DisplayPorts
import DisplayRender

#if canImport(Glibc)
  import Glibc
#endif

/// The surface port on a wlroots compositor: one `zwlr_layer_shell_v1` surface per head,
/// bound to that head's `wl_output`, anchored to all four edges with exclusive zone -1 and no
/// keyboard interactivity (never focused), on the top layer for `normal` and the overlay
/// layer for `above` and `overlay`; pictures drawn into `wl_shm` buffers. A surface the
/// compositor closes (its head unplugged) is released and reported by `takeEvents()`.
public final class WaylandSurfaceHost: SurfaceHost {
  let connection: WaylandConnection
  let compositor: OpaquePointer
  let shm: OpaquePointer
  let shell: OpaquePointer
  let outputs: SurfaceOutputs
  /// `wp_viewporter`, when the compositor has it: buffers at the output's pixels.
  let viewporter: OpaquePointer?
  var surfaces: [SurfaceID: LayerSurface] = [:]
  private var nextID: UInt = 1
  var pending: [SurfaceEvent] = []
  /// How long the compositor may take to configure a new surface.
  var configureSeconds = 5.0

  /// Connects to `socket` (default `$WAYLAND_DISPLAY`); throws without layer shell.
  public init(socket: String? = nil) throws(DisplayError) {
    let connection = try WaylandConnection(socket: socket)
    func bind(_ name: String, _ interface: UnsafePointer<wl_interface>) throws(DisplayError) -> OpaquePointer {
      guard let global = connection.global(name), let proxy = connection.bind(global, interface) else {
        throw .compositor(display: connection.socketName, problem: "it has no \(name)")
      }
      return proxy
    }
    compositor = try bind("wl_compositor", cw_compositor_interface())
    shm = try bind("wl_shm", cw_shm_interface())
    shell = try bind("zwlr_layer_shell_v1", cw_layer_shell_interface())
    viewporter = connection.global("wp_viewporter").flatMap { connection.bind($0, cw_viewporter_interface()) }
    self.connection = connection
    outputs = SurfaceOutputs(connection)
    outputs.removed = { [unowned self] output in headGone(output) }
    try connection.roundtrip()
  }

  deinit {
    for surface in surfaces.values { surface.release() }
    surfaces = [:]
    if let viewporter { wp_viewporter_destroy(viewporter) }
    zwlr_layer_shell_v1_destroy(shell)
    wl_shm_destroy(shm)
    wl_compositor_destroy(compositor)
    _ = cw_display_flush(connection.display)
  }

  /// Mirroring (screencopy) is not implemented on Wayland yet.
  public var canMirror: Bool { false }

  /// The socket to poll; then `dispatch()`.
  public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: connection.fileDescriptor) }

  public func dispatch() throws(DisplayError) {
    try connection.dispatchReady()
    reapClosed()
  }

  /// What happened since the last call (`closed` when the compositor closed a surface).
  public func takeEvents() -> [SurfaceEvent] {
    defer { pending = [] }
    return pending
  }

  /// Live Wayland objects behind the surfaces (surface, layer surface, buffer each).
  public var objectCount: Int { surfaces.values.reduce(0) { $0 + $1.objectCount } }

  /// The size the compositor gave `surface` (its head's logical size).
  public func size(of surface: SurfaceID) -> (width: Int, height: Int)? {
    surfaces[surface].map { ($0.width, $0.height) }
  }

  /// The size a picture for `surface` is drawn at: its head's pixels (the mode, turned), shown
  /// at the logical size through `wp_viewporter`, so that a scaled head gets no blurred one.
  public func pictureSize(of surface: SurfaceID) -> (width: Int, height: Int)? {
    surfaces[surface].map { ($0.bufferWidth, $0.bufferHeight) }
  }

  public func open(_ spec: SurfaceSpec) throws(DisplayError) -> SurfaceID {
    try connection.dispatchReady()
    guard let output = outputs.output(named: spec.head) else {
      throw .unknownOutput(name: spec.head, available: outputs.names)
    }
    let layer = spec.level == .normal ? ZWLR_LAYER_SHELL_V1_LAYER_TOP : ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY
    guard let surface = LayerSurface(host: self, output: output, layer: layer, head: spec.head) else {
      throw .compositor(display: connection.socketName, problem: "cannot make a layer surface on \(spec.head)")
    }
    guard try connection.wait(seconds: configureSeconds, until: { surface.configured || surface.closed }),
      surface.configured, !surface.closed
    else {
      surface.release()
      throw .compositor(display: connection.socketName, problem: "\(spec.head)'s layer surface was not configured")
    }
    let id = SurfaceID(rawValue: nextID)
    nextID += 1
    surfaces[id] = surface
    let background = PlaceholderPicture(
      width: surface.bufferWidth, height: surface.bufferHeight, background: spec.background, patches: [])
    try show(background, on: id)
    return id
  }

  public func show(_ picture: PlaceholderPicture, on surface: SurfaceID) throws(DisplayError) {
    guard let layer = surfaces[surface] else { return }
    guard layer.show(picture, shm: shm) else {
      throw .compositor(display: connection.socketName, problem: "no shared memory for \(layer.head)'s picture")
    }
    guard cw_display_flush(connection.display) >= 0 || errno == EAGAIN else { throw connection.lost() }
  }

  public func mirror(_ request: MirrorRequest, on surface: SurfaceID) -> Bool { false }

  /// A layer surface covers its head whatever the head's place: only another head matters.
  public func move(_ surface: SurfaceID, to spec: SurfaceSpec) {
    guard let layer = surfaces[surface], layer.head != spec.head else { return }
    close(surface)
    if let id = try? open(spec), let moved = surfaces.removeValue(forKey: id) { surfaces[surface] = moved }
  }

  public func close(_ surface: SurfaceID) {
    surfaces.removeValue(forKey: surface)?.release()
    _ = cw_display_flush(connection.display)
  }

  /// sway 1.10 sends no `closed` when a head goes (it configures the surface again, then
  /// removes the `wl_output`): the surface is released all the same.
  private func headGone(_ output: OpaquePointer) {
    for (id, surface) in surfaces where surface.output == output {
      surface.release()
      surfaces[id] = nil
      pending.append(.headGone(id))
    }
  }

  private func reapClosed() {
    for (id, surface) in surfaces where surface.closed {
      surface.release()
      surfaces[id] = nil
      pending.append(.closed(id))
    }
  }
}
