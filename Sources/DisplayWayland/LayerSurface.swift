import CWayland
import DisplayModel
import DisplayPorts

/// The globals a layer surface is made from.
struct SurfaceGlobals {
  let compositor: OpaquePointer
  let shm: OpaquePointer
  let layerShell: OpaquePointer
  let viewporter: OpaquePointer
  /// For mirrors; nil where the compositor lacks them.
  let subcompositor: OpaquePointer?
  let screencopy: OpaquePointer?
  /// A screencopy manager of its own for each mirror: wlroots keeps the damage of copies
  /// with damage per bound manager and output, so two mirrors of one output sharing a
  /// manager would each see only the changes the other did not take first.
  var bindScreencopy: () -> OpaquePointer? = { nil }
}

/// One `zwlr_layer_surface_v1` covering one output: anchored to its four edges, exclusive
/// zone -1 (over panels, moving nothing), no keyboard ever (or, for a spec that does not
/// cover its head, a card of the spec's size centred on the output, taking no input). Its
/// buffer holds the picture at the output's pixels (a card's at the picture's own), or one
/// pixel of the background (the middle of three) until a picture comes; the viewport scales
/// either to the logical size the compositor configured.
final class LayerSurface {
  let id: SurfaceID
  let output: OutputState
  private(set) var spec: SurfaceSpec
  private let globals: SurfaceGlobals
  private let surface: OpaquePointer
  private let layer: OpaquePointer
  private let viewport: OpaquePointer
  private var buffer: ShmBuffer?
  /// A picture not yet drawn (it waits for the first `configure`); dropped once drawn.
  private var picture: PlaceholderPicture?
  /// Whether `buffer` holds a drawn picture, which a new logical size only rescales.
  private var painted = false
  /// The mirror shown over the background, if any.
  private(set) var mirror: MirrorStream?
  /// The logical size of the last `configure`; nil before the first.
  private(set) var configured: (width: Int, height: Int)?
  private var released = false
  /// Called once when the compositor closes it.
  var onClosed: ((LayerSurface) -> Void)?

  /// Makes the surface and commits it bare: the compositor answers with `configure`.
  init?(id: SurfaceID, spec: SurfaceSpec, output: OutputState, globals: SurfaceGlobals) {
    guard let surface = wl_compositor_create_surface(globals.compositor) else { return nil }
    guard
      let layer = zwlr_layer_shell_v1_get_layer_surface(
        globals.layerShell, surface, output.proxy, Self.layer(for: spec.level), "displayd")
    else {
      wl_surface_destroy(surface)
      return nil
    }
    guard let viewport = wp_viewporter_get_viewport(globals.viewporter, surface) else {
      zwlr_layer_surface_v1_destroy(layer)
      wl_surface_destroy(surface)
      return nil
    }
    self.id = id
    self.spec = spec
    self.output = output
    self.globals = globals
    self.surface = surface
    self.layer = layer
    self.viewport = viewport
    if spec.coversHead {
      let edges =
        ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
        | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
      zwlr_layer_surface_v1_set_anchor(layer, edges)
      zwlr_layer_surface_v1_set_size(layer, 0, 0)
    } else {
      Self.placeCard(layer, surface, spec, globals)
    }
    zwlr_layer_surface_v1_set_exclusive_zone(layer, -1)
    zwlr_layer_surface_v1_set_keyboard_interactivity(layer, ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE.rawValue)
    zwlr_layer_surface_v1_add_listener(layer, &layerListener, Unmanaged.passUnretained(self).toOpaque())
    wl_surface_commit(surface)
  }

  deinit { release() }

  /// A card: anchored to no edge, so the compositor centres it on the output, at the
  /// spec's size, with an empty input region (the pointer's clicks go to what is below).
  private static func placeCard(
    _ layer: OpaquePointer, _ surface: OpaquePointer, _ spec: SurfaceSpec, _ globals: SurfaceGlobals
  ) {
    zwlr_layer_surface_v1_set_anchor(layer, 0)
    zwlr_layer_surface_v1_set_size(
      layer, UInt32(min(max(spec.rect.width, 1), ShmBuffer.maximumSide)),
      UInt32(min(max(spec.rect.height, 1), ShmBuffer.maximumSide)))
    if let region = wl_compositor_create_region(globals.compositor) {
      wl_surface_set_input_region(surface, region)
      wl_region_destroy(region)
    }
  }

  /// `normal` on top of windows; `above` and `overlay` over full-screen ones too.
  static func layer(for level: WindowLevel) -> UInt32 {
    level == .normal ? ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue : ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue
  }

  /// Shows `picture` (now when configured, else at the first `configure`).
  func show(_ picture: PlaceholderPicture) throws(DisplayError) {
    guard !released else { return }
    stopMirror()
    self.picture = picture
    try redraw()
  }

  /// Mirrors `source` over the background (the bars of `fit`); false when it cannot.
  func startMirror(_ request: MirrorRequest, from source: OutputState) -> Bool {
    guard !released else { return false }
    stopMirror()
    guard let stream = MirrorStream(request, from: source, into: surface, globals: globals) else { return false }
    mirror = stream
    picture = nil
    painted = false
    // The background under it, and the subsurface's place, with the parent's commit.
    if (try? redraw()) == nil || configured == nil { wl_surface_commit(surface) }
    return true
  }

  func stopMirror() {
    mirror?.stop()
    mirror = nil
  }

  /// Takes a new spec: the layer changes in place (layer shell v2); the place is the
  /// compositor's, from the output.
  func update(_ new: SurfaceSpec) {
    guard !released else { return }
    let changedLayer = Self.layer(for: new.level) != Self.layer(for: spec.level)
    spec = new
    if changedLayer, cw_proxy_get_version(UnsafeMutableRawPointer(layer)) >= 2 {
      zwlr_layer_surface_v1_set_layer(layer, Self.layer(for: new.level))
    }
    if picture == nil, !painted { try? redraw() }
    wl_surface_commit(surface)
  }

  /// Draws the content into a new buffer, attaches and commits it; the old buffer goes
  /// (the compositor keeps what it needs of a committed shm buffer itself). A drawn picture
  /// is at the output's pixels whatever the logical size: a new size only moves the viewport.
  private func redraw() throws(DisplayError) {
    guard let configured else { return }
    if picture == nil, painted, buffer != nil {
      wp_viewport_set_destination(viewport, Int32(configured.width), Int32(configured.height))
      wl_surface_commit(surface)
      return
    }
    let next: ShmBuffer
    do {
      if let picture {
        // A card's picture is drawn at its own size; a monitor's at the output's pixels.
        let own = (width: picture.width, height: picture.height)
        let size = spec.coversHead ? output.physicalSize ?? own : own
        next = try ShmBuffer(shm: globals.shm, width: size.width, height: size.height)
        next.paint(picture)
        next.releaseResidentPages()
        // The pixels are in the buffer: the picture (its text patches) need not stay here.
        self.picture = nil
        painted = true
      } else {
        next = try ShmBuffer(shm: globals.shm, width: 3, height: 3)
        next.fill(spec.background)
        painted = false
      }
    } catch {
      throw .compositor(display: spec.head, problem: "cannot make a surface buffer: \(error)")
    }
    if !painted {
      // The middle pixel of three: a compositor that scales with a bilinear filter (labwc)
      // samples the ring of the same colour at the edges, where one pixel alone would be
      // blended with nothing and show at half strength (1.0 in wl_fixed is 256).
      wp_viewport_set_source(viewport, 256, 256, 256, 256)
    } else {
      wp_viewport_set_source(viewport, -256, -256, -256, -256)
    }
    wp_viewport_set_destination(viewport, Int32(configured.width), Int32(configured.height))
    wl_surface_attach(surface, next.buffer, 0, 0)
    wl_surface_damage_buffer(surface, 0, 0, Int32(next.width), Int32(next.height))
    wl_surface_commit(surface)
    buffer = next
  }

  /// Releases every object, once (the surface first, so that nothing shows a freed buffer).
  func release() {
    guard !released else { return }
    released = true
    stopMirror()
    wp_viewport_destroy(viewport)
    zwlr_layer_surface_v1_destroy(layer)
    wl_surface_destroy(surface)
    buffer = nil
    picture = nil
  }

  fileprivate func configure(serial: UInt32, width: UInt32, height: UInt32) {
    guard !released else { return }
    zwlr_layer_surface_v1_ack_configure(layer, serial)
    // 0 leaves the size to the client: the head's logical size, as the daemon knows it.
    let size = (
      Self.side(width) ?? min(max(spec.rect.width, 1), ShmBuffer.maximumSide),
      Self.side(height) ?? min(max(spec.rect.height, 1), ShmBuffer.maximumSide)
    )
    let first = configured == nil
    let changed = configured.map { $0 != size } ?? true
    configured = size
    if first || changed {
      try? redraw()
    } else {
      wl_surface_commit(surface)
    }
  }

  /// A configured side: 0 (the client's choice) and absurd sizes are no size.
  static func side(_ value: UInt32) -> Int? {
    guard let side = Int(exactly: value), (1...ShmBuffer.maximumSide).contains(side) else { return nil }
    return side
  }

  fileprivate func closed() {
    guard !released else { return }
    release()
    onClosed?(self)
  }
}

private func surface(_ data: UnsafeMutableRawPointer?) -> LayerSurface? {
  data.map { Unmanaged<LayerSurface>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private var layerListener = zwlr_layer_surface_v1_listener(
  configure: { data, _, serial, width, height in surface(data)?.configure(serial: serial, width: width, height: height)
  },
  closed: { data, _ in surface(data)?.closed() })
