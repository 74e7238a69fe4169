import CWayland
import DisplayModel

/// One `wl_output` as the compositor described it: its name (wl_output v4's `name`, the
/// same as the output manager's head name), current mode in hardware pixels and transform.
final class OutputState {
  let proxy: OpaquePointer
  /// The registry's name of the global, to see it go.
  let global: UInt32
  var name = ""
  var modeWidth = 0
  var modeHeight = 0
  var transform: Int32 = 0
  /// Whether a `done` has come since the output was bound (its name and mode are in).
  var described = false

  init(proxy: OpaquePointer, global: UInt32) {
    self.proxy = proxy
    self.global = global
  }

  /// The output's pixels as shown (the mode, turned by a quarter turn's transform); nil
  /// before a mode arrived.
  var physicalSize: (width: Int, height: Int)? {
    guard modeWidth > 0, modeHeight > 0 else { return nil }
    // Odd transforms (90, 270 and their flipped forms) swap the axes.
    return transform & 1 == 1 ? (modeHeight, modeWidth) : (modeWidth, modeHeight)
  }
}

/// The compositor's `wl_output`s, bound as they are announced and released as they go.
final class SurfaceOutputs {
  private let connection: WaylandConnection
  private(set) var outputs: [OutputState] = []
  /// Called with an output's global name after it went and its proxy was released.
  var removed: ((UInt32) -> Void)?

  init(connection: WaylandConnection) {
    self.connection = connection
    for global in connection.globals.values where global.interface == "wl_output" { bind(global) }
  }

  deinit {
    for output in outputs { release(output) }
  }

  /// The described output called `name`.
  func output(named name: String) -> OutputState? {
    outputs.first { $0.described && $0.name == name }
  }

  func output(global: UInt32) -> OutputState? { outputs.first { $0.global == global } }

  func added(_ global: WaylandConnection.Global) {
    if global.interface == "wl_output" { bind(global) }
  }

  func gone(_ global: UInt32) {
    guard let index = outputs.firstIndex(where: { $0.global == global }) else { return }
    release(outputs.remove(at: index))
    removed?(global)
  }

  private func bind(_ global: WaylandConnection.Global) {
    guard outputs.allSatisfy({ $0.global != global.name }),
      let proxy = connection.bind(global, cw_output_interface())
    else { return }
    let output = OutputState(proxy: proxy, global: global.name)
    outputs.append(output)
    wl_output_add_listener(proxy, &outputListener, Unmanaged.passUnretained(self).toOpaque())
  }

  private func release(_ output: OutputState) {
    // `release` (v3) tells the compositor; older ones only forget the proxy.
    if cw_proxy_get_version(UnsafeMutableRawPointer(output.proxy)) >= 3 {
      wl_output_release(output.proxy)
    } else {
      wl_output_destroy(output.proxy)
    }
  }

  fileprivate func with(_ proxy: OpaquePointer?, _ body: (OutputState) -> Void) {
    guard let proxy, let output = outputs.first(where: { $0.proxy == proxy }) else { return }
    body(output)
  }
}

private func outputs(_ data: UnsafeMutableRawPointer?) -> SurfaceOutputs? {
  data.map { Unmanaged<SurfaceOutputs>.fromOpaque($0).takeUnretainedValue() }
}

nonisolated(unsafe) private var outputListener = wl_output_listener(
  geometry: { data, output, _, _, _, _, _, _, _, transform in
    outputs(data)?.with(output) { $0.transform = (0...7).contains(transform) ? transform : 0 }
  },
  mode: { data, output, flags, width, height, _ in
    guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
    outputs(data)?.with(output) {
      $0.modeWidth = min(max(Int(width), 0), ShmBuffer.maximumSide)
      $0.modeHeight = min(max(Int(height), 0), ShmBuffer.maximumSide)
    }
  },
  done: { data, output in outputs(data)?.with(output) { $0.described = true } },
  scale: { _, _, _ in },
  name: { data, output, text in outputs(data)?.with(output) { $0.name = compositorString(text, limit: 256) } },
  description: { _, _, _ in })
