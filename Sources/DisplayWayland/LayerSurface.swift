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

  init?(host: WaylandSurfaceHost, output: OpaquePointer, layer level: zwlr_layer_shell_v1_layer, head: String) {
    guard let surface = wl_compositor_create_surface(host.compositor) else { return nil }
    guard
      let layer = zwlr_layer_shell_v1_get_layer_surface(host.shell, surface, output, level.rawValue, "displayd")
    else {
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

  var objectCount: Int { released ? 0 : 2 + (buffer == nil ? 0 : 1) }

  /// Draws `picture` into a new buffer of the configured size and shows it; the old buffer
  /// goes once the new one is committed.
  func show(_ picture: PlaceholderPicture, shm: OpaquePointer) -> Bool {
    guard !released, configured, let next = ShmBuffer(shm: shm, width: width, height: height) else { return false }
    next.draw(picture)
    wl_surface_attach(surface, next.buffer, 0, 0)
    wl_surface_damage_buffer(surface, 0, 0, Int32(width), Int32(height))
    wl_surface_commit(surface)
    buffer?.destroy()
    buffer = next
    return true
  }

  func release() {
    guard !released else { return }
    released = true
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
  }

  fileprivate func close() { closed = true }
}

private func layerSurface(_ data: UnsafeMutableRawPointer?) -> LayerSurface? {
  data.map { Unmanaged<LayerSurface>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private var layerListener = zwlr_layer_surface_v1_listener(
  configure: { data, _, serial, w, h in layerSurface(data)?.configure(serial, w, h) },
  closed: { data, _ in layerSurface(data)?.close() })

/// The compositor's `wl_output`s by name (`wl_output.name`, version 4), bound as they come.
final class SurfaceOutputs {
  private final class Entry {
    let global: UInt32
    let proxy: OpaquePointer
    var name = ""
    init(_ global: UInt32, _ proxy: OpaquePointer) { (self.global, self.proxy) = (global, proxy) }
  }
  private var entries: [Entry] = []
  /// Held so that the display outlives the outputs released in deinit.
  private let connection: WaylandConnection

  init(_ connection: WaylandConnection) {
    self.connection = connection
    for global in connection.globals.values where global.interface == "wl_output" { add(global) }
    connection.globalAdded = { [unowned self] global in if global.interface == "wl_output" { add(global) } }
    connection.globalRemoved = { [unowned self] name in remove(name) }
  }

  deinit {
    connection.globalAdded = nil
    connection.globalRemoved = nil
    for entry in entries { release(entry.proxy) }
    _ = cw_display_flush(connection.display)
  }

  /// Called with a `wl_output` whose global went (its head unplugged), before it is released.
  var removed: ((OpaquePointer) -> Void)?

  var names: [String] { entries.map(\.name).filter { !$0.isEmpty } }

  func output(named name: String) -> OpaquePointer? { entries.first { $0.name == name }?.proxy }

  private func add(_ global: WaylandConnection.Global) {
    guard let proxy = connection.bind(global, cw_output_interface()) else { return }
    let entry = Entry(global.name, proxy)
    entries.append(entry)
    wl_output_add_listener(proxy, &SurfaceOutputs.outputListener, Unmanaged.passUnretained(entry).toOpaque())
  }

  private func remove(_ global: UInt32) {
    guard let index = entries.firstIndex(where: { $0.global == global }) else { return }
    let proxy = entries.remove(at: index).proxy
    removed?(proxy)
    release(proxy)
  }

  private func release(_ proxy: OpaquePointer) {
    if cw_proxy_get_version(UnsafeMutableRawPointer(proxy)) >= 3 {
      wl_output_release(proxy)
    } else {
      wl_output_destroy(proxy)
    }
  }

  fileprivate static func named(_ data: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?) {
    guard let data else { return }
    Unmanaged<Entry>.fromOpaque(data).takeUnretainedValue().name = compositorString(name, limit: 256)
  }

  nonisolated(unsafe) fileprivate static var outputListener = wl_output_listener(
    geometry: { _, _, _, _, _, _, _, _, _, _ in }, mode: { _, _, _, _, _, _ in }, done: { _, _ in },
    scale: { _, _, _ in }, name: { data, _, name in SurfaceOutputs.named(data, name) },
    description: { _, _, _ in })
}
