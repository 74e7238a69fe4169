import CWayland
import DisplayModel
import DisplayPorts

/// One `zwlr_output_mode_v1` as the compositor described it.
final class ModeState {
  let proxy: OpaquePointer
  var width = 0
  var height = 0
  var refreshMilliHz = 0
  var preferred = false

  init(_ proxy: OpaquePointer) { self.proxy = proxy }

  /// `size`: the compositor's int32 sides, never negative.
  func take(width: Int32, height: Int32) {
    (self.width, self.height) = (size(width), size(height))
  }

  /// `refresh` in mHz: 0 (none said) for a negative one.
  func take(refresh milliHz: Int32) { refreshMilliHz = size(milliHz) }
}

/// One `zwlr_output_head_v1` as the compositor described it, updated event by event.
final class HeadState {
  let proxy: OpaquePointer
  var name = ""
  var description = ""
  var make = ""
  var model = ""
  var serial = ""
  var mmWidth = 0
  var mmHeight = 0
  var modes: [ModeState] = []
  var currentMode: OpaquePointer?
  var enabled = false
  var x = 0
  var y = 0
  var transform = Transform.normal
  /// wlroots' logical scale (the mode divided by it is the area shown).
  var logicalScale = 1.0

  /// The how-manieth head object of this manager: another one is another attachment.
  let instance: UInt64

  init(_ proxy: OpaquePointer, instance: UInt64) { (self.proxy, self.instance) = (proxy, instance) }

  /// `physical_size` as sent: the head's rule (`PhysicalSize.plausible`) makes -1 (KWin's
  /// virtual outputs), 0 and sizes over 10 m unknown.
  func take(physicalWidth width: Int32, height: Int32) { (mmWidth, mmHeight) = (Int(width), Int(height)) }

  /// `position`: wlroots' int32 layout coordinates, kept whole (a configuration refuses to
  /// send what does not fit back).
  func take(x: Int32, y: Int32) { (self.x, self.y) = (Int(x), Int(y)) }

  /// `transform`: a wl_output transform; one outside its eight is read as none.
  func take(transform value: Int32) { transform = Transform(rawValue: Int(value)) ?? .normal }

  /// `scale`: a wl_fixed logical scale; one not positive is read as 1, and the rest kept
  /// within 1/256...256.
  func take(scale fixed: wl_fixed_t) {
    let scale = wl_fixed_to_double(fixed)
    logicalScale = scale.isFinite && scale > 0 ? min(max(scale, 1.0 / 256), 256) : 1
  }

  /// The port's value: the config's scale is 1/logical scale, the area the mode divided by
  /// it as the compositor lays the head out.
  var head: Head {
    let current = enabled ? modes.firstIndex { $0.proxy == currentMode } : nil
    var head = Head(
      name: name, description: description, make: make, model: model, serial: serial, mmWidth: mmWidth,
      mmHeight: mmHeight, connected: true, enabled: enabled,
      modes: modes.map {
        HeadMode(width: $0.width, height: $0.height, refreshMilliHz: $0.refreshMilliHz, preferred: $0.preferred)
      },
      currentMode: current, x: x, y: y, transform: transform, scale: 1 / logicalScale, scaledArea: .logical,
      isInternalPanel: ["eDP", "LVDS", "DSI"].contains { name.hasPrefix($0) },
      capabilities: HeadCapabilities(
        transforms: Set(Transform.allCases), scaling: true, customModes: true, anySize: true))
    head.instance = instance
    return head
  }
}

/// The heads of a `zwlr_output_manager_v1`, kept current from its events; `serial` is the
/// last `done`'s, so a snapshot is consistent only between `done`s.
final class OutputHeads {
  let manager: OpaquePointer
  /// Held so that the display outlives the proxies released in deinit.
  private let connection: WaylandConnection
  private(set) var heads: [HeadState] = []
  private var modeOwners: [OpaquePointer: HeadState] = [:]
  /// Head objects announced so far: each one's instance.
  private var headsAnnounced: UInt64 = 0
  /// The last `done`'s serial; nil before the first.
  private(set) var serial: UInt32?
  /// The compositor stopped the manager (it is going away).
  private(set) var finished = false
  /// Called after each `done`.
  var changed: (() -> Void)?

  init(manager: OpaquePointer, on connection: WaylandConnection) {
    self.manager = manager
    self.connection = connection
    zwlr_output_manager_v1_add_listener(manager, &managerListener, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    for head in heads { release(head) }
    if !finished { zwlr_output_manager_v1_stop(manager) }
    zwlr_output_manager_v1_destroy(manager)
    try? connection.flush()
  }

  /// The heads as of the last `done`: a consistent state, never one half-way through a change.
  private(set) var committed = HeadSnapshot(heads: [])

  /// Every head that has a name (a head is announced before its properties), as now.
  var snapshot: HeadSnapshot {
    let named = heads.filter { !$0.name.isEmpty }.sorted { naturalOrder($0.name, $1.name) }
    return HeadSnapshot(heads: named.map(\.head), generation: UInt64(serial ?? 0))
  }

  func head(named name: String) -> HeadState? { heads.first { $0.name == name } }

  /// Live Wayland objects this client holds for the heads (the manager, heads, modes).
  var objectCount: Int { 1 + heads.count + modeOwners.count }

  private func release(_ head: HeadState) {
    for mode in head.modes {
      modeOwners[mode.proxy] = nil
      zwlr_output_mode_v1_destroy(mode.proxy)
    }
    head.modes = []
    zwlr_output_head_v1_destroy(head.proxy)
  }

  /// Objects kept from a compositor that announces without end: each event looks its object
  /// up, so a flood would cost its square. Past these the new proxy is destroyed at once (its
  /// events are dropped) and the bridge's own bounds (`HeadSnapshot.bounded`) warn.
  static let headLimit = HeadSnapshot.maxHeads * 4
  static let modeLimit = HeadSnapshot.maxModes * 4

  fileprivate func added(_ proxy: OpaquePointer) {
    cw_proxy_adopted()
    guard heads.count < Self.headLimit else {
      zwlr_output_head_v1_destroy(proxy)
      return
    }
    headsAnnounced += 1
    heads.append(HeadState(proxy, instance: headsAnnounced))
    zwlr_output_head_v1_add_listener(proxy, &headListener, Unmanaged.passUnretained(self).toOpaque())
  }

  fileprivate func done(_ serial: UInt32) {
    self.serial = serial
    committed = snapshot
    changed?()
  }

  fileprivate func stopped() { finished = true }

  fileprivate func with(_ proxy: OpaquePointer?, _ body: (HeadState) -> Void) {
    guard let proxy, let head = heads.first(where: { $0.proxy == proxy }) else { return }
    body(head)
  }

  fileprivate func headGone(_ proxy: OpaquePointer?) {
    guard let index = heads.firstIndex(where: { $0.proxy == proxy }) else { return }
    release(heads.remove(at: index))
  }

  fileprivate func modeAdded(_ head: OpaquePointer?, _ mode: OpaquePointer?) {
    guard let mode else { return }
    cw_proxy_adopted()
    guard let owner = heads.first(where: { $0.proxy == head }), owner.modes.count < Self.modeLimit else {
      zwlr_output_mode_v1_destroy(mode)
      return
    }
    owner.modes.append(ModeState(mode))
    modeOwners[mode] = owner
    zwlr_output_mode_v1_add_listener(mode, &modeListener, Unmanaged.passUnretained(self).toOpaque())
  }

  fileprivate func withMode(_ proxy: OpaquePointer?, _ body: (ModeState) -> Void) {
    guard let proxy, let owner = modeOwners[proxy], let mode = owner.modes.first(where: { $0.proxy == proxy })
    else { return }
    body(mode)
  }

  fileprivate func modeGone(_ proxy: OpaquePointer?) {
    guard let proxy, let owner = modeOwners.removeValue(forKey: proxy) else { return }
    owner.modes.removeAll { $0.proxy == proxy }
    if owner.currentMode == proxy { owner.currentMode = nil }
    zwlr_output_mode_v1_destroy(proxy)
  }
}

/// Names in connector order (`DP-2` before `DP-10`): wlroots announces its newest head first.
func naturalOrder(_ a: String, _ b: String) -> Bool {
  let (x, y) = (connectorParts(a), connectorParts(b))
  return x.stem != y.stem ? x.stem < y.stem : x.number != y.number ? x.number < y.number : a < b
}

/// A name's stem and its trailing ASCII number (its first 9 digits; -1 without one). Read as
/// UTF-8 bytes, not Characters: every snapshot sorts by it, on the plug path.
private func connectorParts(_ name: String) -> (stem: Substring, number: Int) {
  let bytes = name.utf8
  var start = bytes.endIndex
  while start > bytes.startIndex, (48...57).contains(bytes[bytes.index(before: start)]) {
    start = bytes.index(before: start)
  }
  guard start != bytes.endIndex else { return (name[...], -1) }
  let number = bytes[start...].prefix(9).reduce(0) { $0 * 10 + Int($1 - 48) }
  return (name[..<start], number)
}

private func heads(_ data: UnsafeMutableRawPointer?) -> OutputHeads? {
  data.map { Unmanaged<OutputHeads>.fromOpaque($0).takeUnretainedValue() }
}

/// A size or position from the compositor, never negative where it cannot be.
private func size(_ value: Int32) -> Int { max(0, Int(value)) }

nonisolated(unsafe) private var managerListener = zwlr_output_manager_v1_listener(
  head: { data, _, head in head.map { heads(data)?.added($0) } },
  done: { data, _, serial in heads(data)?.done(serial) },
  finished: { data, _ in heads(data)?.stopped() })

nonisolated(unsafe) private var headListener = zwlr_output_head_v1_listener(
  name: { data, head, text in heads(data)?.with(head) { $0.name = compositorString(text, limit: 256) } },
  description: { data, head, text in heads(data)?.with(head) { $0.description = compositorString(text) } },
  physical_size: { data, head, w, h in heads(data)?.with(head) { $0.take(physicalWidth: w, height: h) } },
  mode: { data, head, mode in heads(data)?.modeAdded(head, mode) },
  enabled: { data, head, on in heads(data)?.with(head) { $0.enabled = on != 0 } },
  current_mode: { data, head, mode in heads(data)?.with(head) { $0.currentMode = mode } },
  position: { data, head, x, y in heads(data)?.with(head) { $0.take(x: x, y: y) } },
  transform: { data, head, t in heads(data)?.with(head) { $0.take(transform: t) } },
  scale: { data, head, fixed in heads(data)?.with(head) { $0.take(scale: fixed) } },
  finished: { data, head in heads(data)?.headGone(head) },
  make: { data, head, text in heads(data)?.with(head) { $0.make = compositorString(text, limit: 256) } },
  model: { data, head, text in heads(data)?.with(head) { $0.model = compositorString(text, limit: 256) } },
  serial_number: { data, head, text in heads(data)?.with(head) { $0.serial = compositorString(text, limit: 256) } })

nonisolated(unsafe) private var modeListener = zwlr_output_mode_v1_listener(
  size: { data, mode, w, h in heads(data)?.withMode(mode) { $0.take(width: w, height: h) } },
  refresh: { data, mode, r in heads(data)?.withMode(mode) { $0.take(refresh: r) } },
  preferred: { data, mode in heads(data)?.withMode(mode) { $0.preferred = true } },
  finished: { data, mode in heads(data)?.modeGone(mode) })
