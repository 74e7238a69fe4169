import CWayland

/// The compositor's `wl_output`s by name (`wl_output.name`, version 4), bound as they come.
final class SurfaceOutputs {
  fileprivate final class Entry {
    let global: UInt32
    let proxy: OpaquePointer
    var name = ""
    /// The current mode in the output's pixels, and whether its transform trades the axes.
    var modeWidth = 0
    var modeHeight = 0
    var swapsAxes = false
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

  /// The pixels `output` shows, in its desktop orientation (its mode, turned); nil when unknown.
  func pixels(of output: OpaquePointer) -> (width: Int, height: Int)? {
    guard let e = entries.first(where: { $0.proxy == output }), e.modeWidth > 0, e.modeHeight > 0 else { return nil }
    return e.swapsAxes ? (e.modeHeight, e.modeWidth) : (e.modeWidth, e.modeHeight)
  }

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

  fileprivate static func entry(_ data: UnsafeMutableRawPointer?) -> Entry? {
    data.map { Unmanaged<Entry>.fromOpaque($0).takeUnretainedValue() }
  }

  fileprivate static func named(_ data: UnsafeMutableRawPointer?, _ name: UnsafePointer<CChar>?) {
    guard let data else { return }
    Unmanaged<Entry>.fromOpaque(data).takeUnretainedValue().name = compositorString(name, limit: 256)
  }

  nonisolated(unsafe) fileprivate static var outputListener = wl_output_listener(
    geometry: { data, _, _, _, _, _, _, _, _, transform in
      SurfaceOutputs.entry(data)?.swapsAxes = transform % 2 == 1
    },
    mode: { data, _, flags, w, h, _ in
      guard flags & UInt32(WL_OUTPUT_MODE_CURRENT.rawValue) != 0, let e = SurfaceOutputs.entry(data) else { return }
      (e.modeWidth, e.modeHeight) = (min(max(0, Int(w)), 16384), min(max(0, Int(h)), 16384))
    },
    done: { _, _ in },
    scale: { _, _, _ in }, name: { data, _, name in SurfaceOutputs.named(data, name) },
    description: { _, _, _ in })
}
