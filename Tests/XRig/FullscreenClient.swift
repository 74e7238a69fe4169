import CWayland
import CWaylandRig
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The rig's own Wayland client: one xdg toplevel made full-screen on a named output, filled
/// with one solid colour from `wl_shm`, that records what the seat's keyboard tells it
/// (`enter`, `leave`, keys) about its surface. It runs in the test process over the project's
/// generated glue; poll `fileDescriptor`, then `dispatch()`.
public final class FullscreenClient {
  /// Keyboard focus events for this client's surface, in order.
  public enum KeyboardEvent: Equatable, Sendable {
    case enter
    case leave
    /// A key pressed (evdev code, as `wl_keyboard.key` gives it).
    case key(UInt32)
  }

  public let appID: String
  private let display: OpaquePointer
  private var registry: OpaquePointer?
  private var globals: [(name: UInt32, interface: String, version: UInt32)] = []
  private var compositor: OpaquePointer?
  private var shm: OpaquePointer?
  private var wmBase: OpaquePointer?
  private var seat: OpaquePointer?
  private var keyboard: OpaquePointer?
  private var outputs: [OpaquePointer: (name: String, width: Int32, height: Int32)] = [:]
  private var surface: OpaquePointer?
  private var xdgSurface: OpaquePointer?
  private var toplevel: OpaquePointer?
  private var buffer: SolidBuffer?
  private var pendingSize: (width: Int32, height: Int32) = (0, 0)
  private let colour: UInt32
  private var fullscreenOutput: OpaquePointer?

  /// What the keyboard said about this client's surface.
  public private(set) var keyboardEvents: [KeyboardEvent] = []
  /// Whether the seat offers a keyboard now (a virtual keyboard exists).
  public private(set) var seatHasKeyboard = false
  /// The size of the buffer last attached (the compositor's configured size); nil before.
  public private(set) var drawnSize: (width: Int, height: Int)?
  /// Whether the compositor said the toplevel is full-screen in its last configure.
  public private(set) var isFullscreen = false

  /// Whether the keyboard's focus is on this client's surface now.
  public var hasKeyboardFocus: Bool {
    keyboardEvents.last { $0 == .enter || $0 == .leave } == .enter
  }

  /// Connects to `socket` (a path or a name in `XDG_RUNTIME_DIR`) and maps a toplevel,
  /// full-screen on `output`, filled with `colour` (0xRRGGBB).
  public init(socket: String, output: String, colour: UInt32, appID: String = "displayd-rig-fullscreen") throws {
    guard cw_load() != 0 else { throw RigError(String(cString: cw_load_error())) }
    guard let display = cw_display_connect(socket) else { throw RigError("cannot connect to \(socket)") }
    self.display = display
    self.colour = colour
    self.appID = appID
    let me = Unmanaged.passUnretained(self).toOpaque()
    registry = wl_display_get_registry(display)
    wl_registry_add_listener(registry, &rigRegistryListener, me)
    try roundtrip()
    try bindGlobals()
    // The outputs' names and modes, the seat's capabilities.
    try roundtrip()
    guard let target = outputs.first(where: { $0.value.name == output })?.key else {
      throw RigError("no wl_output named \(output): \(outputs.values.map(\.name))")
    }
    fullscreenOutput = target
    try mapToplevel(on: target)
  }

  deinit {
    buffer = nil
    toplevel.map { xdg_toplevel_destroy($0) }
    xdgSurface.map { xdg_surface_destroy($0) }
    surface.map { wl_surface_destroy($0) }
    keyboard.map { wl_keyboard_destroy($0) }
    outputs.keys.forEach { wl_output_destroy($0) }
    seat.map { wl_seat_destroy($0) }
    wmBase.map { xdg_wm_base_destroy($0) }
    shm.map { wl_shm_destroy($0) }
    compositor.map { wl_compositor_destroy($0) }
    registry.map { wl_registry_destroy($0) }
    cw_display_disconnect(display)
  }

  /// The socket to poll.
  public var fileDescriptor: Int32 { cw_display_get_fd(display) }

  /// Handles whatever the compositor sent, without blocking, and sends the answers (acks,
  /// commits) the listeners queued.
  public func dispatch() throws {
    guard cw_display_dispatch_ready(display) >= 0, cw_display_flush(display) >= 0 || errno == EAGAIN else {
      throw RigError("the client lost its connection")
    }
  }

  /// Dispatches until `condition` holds or `seconds` pass; false on timeout.
  public func wait(within seconds: Double = 5, until condition: () -> Bool) throws -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    _ = cw_display_flush(display)
    while !condition() {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      var p = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&p, 1, Int32(left * 1000) + 1)
      try dispatch()
    }
    return true
  }

  /// Sends what is queued and waits until the compositor has answered it.
  public func roundtrip() throws {
    guard let callback = wl_display_sync(display) else { throw RigError("wl_display_sync failed") }
    defer { wl_callback_destroy(callback) }
    let answer = RigAnswer()
    wl_callback_add_listener(callback, &rigSyncListener, Unmanaged.passUnretained(answer).toOpaque())
    guard try wait(until: { answer.done }) else { throw RigError("the compositor did not answer a roundtrip") }
  }

  private func bindGlobals() throws {
    func bind(_ interface: UnsafePointer<wl_interface>, _ name: UInt32, _ version: UInt32) -> OpaquePointer? {
      cw_registry_bind(registry!, name, interface, min(version, UInt32(clamping: interface.pointee.version)))
        .map(OpaquePointer.init)
    }
    let me = Unmanaged.passUnretained(self).toOpaque()
    for global in globals {
      switch global.interface {
      case "wl_compositor": compositor = bind(cw_compositor_interface(), global.name, global.version)
      case "wl_shm": shm = bind(cw_shm_interface(), global.name, global.version)
      case "xdg_wm_base":
        wmBase = bind(cw_rig_xdg_wm_base_interface(), global.name, global.version)
        xdg_wm_base_add_listener(wmBase, &rigWmBaseListener, me)
      case "wl_seat" where seat == nil:
        seat = bind(cw_rig_seat_interface(), global.name, global.version)
        wl_seat_add_listener(seat, &rigSeatListener, me)
      case "wl_output":
        if let output = bind(cw_output_interface(), global.name, min(global.version, 4)) {
          outputs[output] = ("", 0, 0)
          wl_output_add_listener(output, &rigOutputListener, me)
        }
      default: break
      }
    }
    guard compositor != nil, shm != nil, wmBase != nil, seat != nil else {
      throw RigError("the compositor lacks wl_compositor, wl_shm, xdg_wm_base or wl_seat")
    }
  }

  private func mapToplevel(on output: OpaquePointer) throws {
    guard let surface = wl_compositor_create_surface(compositor),
      let xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface),
      let toplevel = xdg_surface_get_toplevel(xdgSurface)
    else { throw RigError("cannot make the toplevel") }
    self.surface = surface
    self.xdgSurface = xdgSurface
    self.toplevel = toplevel
    let me = Unmanaged.passUnretained(self).toOpaque()
    xdg_surface_add_listener(xdgSurface, &rigXdgSurfaceListener, me)
    xdg_toplevel_add_listener(toplevel, &rigToplevelListener, me)
    xdg_toplevel_set_app_id(toplevel, appID)
    xdg_toplevel_set_title(toplevel, appID)
    xdg_toplevel_set_fullscreen(toplevel, output)
    wl_surface_commit(surface)
    _ = cw_display_flush(display)
  }

  /// Asks for full-screen on the output it was made for, or to leave it (as a program's own
  /// full-screen key would).
  public func setFullscreen(_ on: Bool) {
    if on { xdg_toplevel_set_fullscreen(toplevel, fullscreenOutput) } else { xdg_toplevel_unset_fullscreen(toplevel) }
    _ = cw_display_flush(display)
  }

  fileprivate func global(_ name: UInt32, _ interface: String, _ version: UInt32) {
    globals.append((name, interface, version))
  }

  fileprivate func ping(_ serial: UInt32) {
    xdg_wm_base_pong(wmBase, serial)
  }

  fileprivate func capabilities(_ caps: UInt32) {
    seatHasKeyboard = caps & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
    if seatHasKeyboard, keyboard == nil {
      keyboard = wl_seat_get_keyboard(seat)
      wl_keyboard_add_listener(keyboard, &rigKeyboardListener, Unmanaged.passUnretained(self).toOpaque())
    } else if !seatHasKeyboard, let keyboard {
      wl_keyboard_destroy(keyboard)
      self.keyboard = nil
    }
  }

  fileprivate func keyboardEvent(_ event: KeyboardEvent, on target: OpaquePointer?) {
    // A key names no surface: it goes to the focused one.
    guard target == nil || target == surface else { return }
    keyboardEvents.append(event)
  }

  fileprivate func output(_ output: OpaquePointer?, name: String? = nil, mode: (Int32, Int32)? = nil) {
    guard let output, var entry = outputs[output] else { return }
    if let name { entry.name = name }
    if let mode { (entry.width, entry.height) = mode }
    outputs[output] = entry
  }

  fileprivate func toplevelConfigure(width: Int32, height: Int32, fullscreen: Bool) {
    pendingSize = (width, height)
    isFullscreen = fullscreen
  }

  /// Acks and draws at the configured size (the output's mode when the compositor leaves it
  /// to the client).
  fileprivate func surfaceConfigure(_ serial: UInt32) {
    xdg_surface_ack_configure(xdgSurface, serial)
    let mode = fullscreenOutput.flatMap { outputs[$0] }
    let width = Int(pendingSize.width > 0 ? pendingSize.width : mode?.width ?? 640)
    let height = Int(pendingSize.height > 0 ? pendingSize.height : mode?.height ?? 480)
    if drawnSize.map({ $0 != (width, height) }) ?? true,
      let made = SolidBuffer(shm: shm, width: width, height: height, colour: colour)
    {
      buffer = made
      drawnSize = (width, height)
      wl_surface_attach(surface, made.buffer, 0, 0)
      wl_surface_damage_buffer(surface, 0, 0, Int32(width), Int32(height))
    }
    wl_surface_commit(surface)
  }
}

private final class RigAnswer {
  var done = false
}

private func client(_ data: UnsafeMutableRawPointer?) -> FullscreenClient? {
  data.map { Unmanaged<FullscreenClient>.fromOpaque($0).takeUnretainedValue() }
}

private func text(_ value: UnsafePointer<CChar>?) -> String {
  value.map { String(cString: $0) } ?? ""
}

nonisolated(unsafe) private var rigSyncListener = wl_callback_listener(
  done: { data, _, _ in data.map { Unmanaged<RigAnswer>.fromOpaque($0).takeUnretainedValue().done = true } })

nonisolated(unsafe) private var rigRegistryListener = wl_registry_listener(
  global: { data, _, name, interface, version in client(data)?.global(name, text(interface), version) },
  global_remove: { _, _, _ in })

nonisolated(unsafe) private var rigWmBaseListener = xdg_wm_base_listener(
  ping: { data, _, serial in client(data)?.ping(serial) })

nonisolated(unsafe) private var rigSeatListener = wl_seat_listener(
  capabilities: { data, _, caps in client(data)?.capabilities(caps) },
  name: { _, _, _ in })

nonisolated(unsafe) private var rigKeyboardListener = wl_keyboard_listener(
  keymap: { _, _, _, fd, _ in close(fd) },
  enter: { data, _, _, surface, _ in client(data)?.keyboardEvent(.enter, on: surface) },
  leave: { data, _, _, surface in client(data)?.keyboardEvent(.leave, on: surface) },
  key: { data, _, _, _, key, state in
    guard state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue else { return }
    client(data)?.keyboardEvent(.key(key), on: nil)
  },
  modifiers: { _, _, _, _, _, _, _ in },
  repeat_info: { _, _, _, _ in })

nonisolated(unsafe) private var rigOutputListener = wl_output_listener(
  geometry: { _, _, _, _, _, _, _, _, _, _ in },
  mode: { data, output, flags, width, height, _ in
    guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0 else { return }
    client(data)?.output(output, mode: (width, height))
  },
  done: { _, _ in },
  scale: { _, _, _ in },
  name: { data, output, name in client(data)?.output(output, name: text(name)) },
  description: { _, _, _ in })

nonisolated(unsafe) private var rigToplevelListener = xdg_toplevel_listener(
  configure: { data, _, width, height, states in
    var fullscreen = false
    if let states, let base = states.pointee.data {
      let count = states.pointee.size / MemoryLayout<UInt32>.size
      let values = base.bindMemory(to: UInt32.self, capacity: count)
      fullscreen = (0..<count).contains { values[$0] == XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue }
    }
    client(data)?.toplevelConfigure(width: width, height: height, fullscreen: fullscreen)
  },
  close: { _, _ in },
  configure_bounds: { _, _, _, _ in },
  wm_capabilities: { _, _, _ in })

nonisolated(unsafe) private var rigXdgSurfaceListener = xdg_surface_listener(
  configure: { data, _, serial in client(data)?.surfaceConfigure(serial) })
