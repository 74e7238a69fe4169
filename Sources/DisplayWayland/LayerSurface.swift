import CWayland
import DisplayModel
import DisplayRender

/// One `wl_surface` with its `zwlr_layer_surface_v1` on one output, and the buffer it shows.
final class LayerSurface {
  let head: String
  let surface: OpaquePointer
  let layer: OpaquePointer
  /// The `wl_output` it is on.
  let output: OpaquePointer
  private(set) var configured = false
  private(set) var closed = false
  private(set) var width = 0
  private(set) var height = 0
  private var buffer: ShmBuffer?
  private var released = false
  /// Scales the buffer (the output's pixels) to the configured (logical) size.
  private let viewport: OpaquePointer?
  /// The buffer's size: the output's pixels when known and a viewport exists, else logical.
  private(set) var bufferWidth = 0
  private(set) var bufferHeight = 0
  private let pixels: () -> (width: Int, height: Int)?

  init?(host: WaylandSurfaceHost, output: OpaquePointer, layer level: zwlr_layer_shell_v1_layer, head: String) {
    guard let surface = wl_compositor_create_surface(host.compositor) else { return nil }
    viewport = host.viewporter.flatMap { wp_viewporter_get_viewport($0, surface) }
    let outputs = host.outputs
    pixels = { [unowned outputs] in outputs.pixels(of: output) }
    guard
      let layer = zwlr_layer_shell_v1_get_layer_surface(host.shell, surface, output, level.rawValue, "displayd")
    else {
      if let viewport { wp_viewport_destroy(viewport) }
      wl_surface_destroy(surface)
      return nil
    }
    (self.head, self.surface, self.layer, self.output) = (head, surface, layer, output)
    zwlr_layer_surface_v1_add_listener(layer, &layerListener, Unmanaged.passUnretained(self).toOpaque())
    let edges =
      ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM.rawValue
      | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT.rawValue
    zwlr_layer_surface_v1_set_anchor(layer, edges)
    zwlr_layer_surface_v1_set_size(layer, 0, 0)
    zwlr_layer_surface_v1_set_exclusive_zone(layer, -1)
    zwlr_layer_surface_v1_set_keyboard_interactivity(layer, 0)
    // The first commit has no buffer: it asks the compositor for a configure.
    wl_surface_commit(surface)
  }

  deinit { release() }

  var objectCount: Int { released ? 0 : 2 + (viewport == nil ? 0 : 1) + (buffer == nil ? 0 : 1) }

  /// Draws `picture` into a new buffer of the configured size and shows it; the old buffer
  /// goes once the new one is committed.
  func show(_ picture: PlaceholderPicture, shm: OpaquePointer) -> Bool {
    guard !released, configured, let next = ShmBuffer(shm: shm, width: bufferWidth, height: bufferHeight) else {
      return false
    }
    next.draw(picture)
    wl_surface_attach(surface, next.buffer, 0, 0)
    if let viewport { wp_viewport_set_destination(viewport, Int32(width), Int32(height)) }
    wl_surface_damage_buffer(surface, 0, 0, Int32(bufferWidth), Int32(bufferHeight))
    wl_surface_commit(surface)
    buffer?.destroy()
    buffer = next
    return true
  }

  func release() {
    guard !released else { return }
    released = true
    if let viewport { wp_viewport_destroy(viewport) }
    zwlr_layer_surface_v1_destroy(layer)
    wl_surface_destroy(surface)
    buffer?.destroy()
    buffer = nil
  }

  fileprivate func configure(_ serial: UInt32, _ w: UInt32, _ h: UInt32) {
    guard !released else { return }
    zwlr_layer_surface_v1_ack_configure(layer, serial)
    // A new size (the head's mode changed) shows once the picture is drawn again.
    (width, height, configured) = (min(Int(w), 16384), min(Int(h), 16384), true)
    let physical = viewport == nil ? nil : pixels()
    (bufferWidth, bufferHeight) = physical.map { ($0.width, $0.height) } ?? (width, height)
  }

  fileprivate func close() { closed = true }
}

private func layerSurface(_ data: UnsafeMutableRawPointer?) -> LayerSurface? {
  data.map { Unmanaged<LayerSurface>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private var layerListener = zwlr_layer_surface_v1_listener(
  configure: { data, _, serial, w, h in layerSurface(data)?.configure(serial, w, h) },
  closed: { data, _ in layerSurface(data)?.close() })
