import CWayland
import CWaylandRig
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A pointer for the seat of a compositor that has none (the headless rig): a
/// `zwlr_virtual_pointer_v1` of the rig's own connection, moved to absolute places in the
/// layout. The seat has a pointer (and the compositor a cursor) while it lives.
public final class VirtualPointer {
  private let display: OpaquePointer
  private var registry: OpaquePointer?
  private var managerGlobal: (name: UInt32, version: UInt32)?
  private var manager: OpaquePointer?
  private var pointer: OpaquePointer?
  private var milliseconds: UInt32 = 1

  /// Connects to `socket` (a path, or a name in `XDG_RUNTIME_DIR`) and makes a pointer on
  /// the compositor's default seat.
  public init(socket: String) throws {
    guard cw_load() != 0 else { throw RigError(String(cString: cw_load_error())) }
    guard let display = cw_display_connect(socket) else { throw RigError("cannot connect to \(socket)") }
    self.display = display
    registry = wl_display_get_registry(display)
    wl_registry_add_listener(registry, &pointerRegistryListener, Unmanaged.passUnretained(self).toOpaque())
    try roundtrip()
    guard let global = managerGlobal else {
      throw RigError("the compositor has no zwlr_virtual_pointer_manager_v1")
    }
    let interface: UnsafePointer<wl_interface> = cw_rig_virtual_pointer_manager_interface()
    let version = min(global.version, UInt32(clamping: interface.pointee.version))
    manager = cw_registry_bind(registry, global.name, interface, version).map(OpaquePointer.init)
    // A null seat is the compositor's default one.
    pointer = manager.flatMap { zwlr_virtual_pointer_manager_v1_create_virtual_pointer($0, nil) }
    guard pointer != nil else { throw RigError("cannot make a virtual pointer") }
    try roundtrip()
  }

  deinit {
    pointer.map { zwlr_virtual_pointer_v1_destroy($0) }
    manager.map { zwlr_virtual_pointer_manager_v1_destroy($0) }
    registry.map { wl_registry_destroy($0) }
    _ = cw_display_flush(display)
    cw_display_disconnect(display)
  }

  /// Moves the pointer to (`x`, `y`) of a layout `width` x `height` (the bounding box of
  /// every output, from the origin), and waits until the compositor has handled it.
  public func move(x: Int, y: Int, width: Int, height: Int) throws {
    guard let pointer else { return }
    milliseconds &+= 16
    zwlr_virtual_pointer_v1_motion_absolute(
      pointer, milliseconds, UInt32(clamping: x), UInt32(clamping: y), UInt32(clamping: width),
      UInt32(clamping: height))
    zwlr_virtual_pointer_v1_frame(pointer)
    try roundtrip()
  }

  fileprivate func global(_ name: UInt32, _ interface: String, _ version: UInt32) {
    if interface == "zwlr_virtual_pointer_manager_v1" { managerGlobal = (name, version) }
  }

  /// Sends what is queued and waits until the compositor has answered it.
  private func roundtrip() throws {
    guard let callback = wl_display_sync(display) else { throw RigError("wl_display_sync failed") }
    defer { wl_callback_destroy(callback) }
    let answer = PointerAnswer()
    wl_callback_add_listener(callback, &pointerSyncListener, Unmanaged.passUnretained(answer).toOpaque())
    let deadline = Date().addingTimeInterval(5)
    _ = cw_display_flush(display)
    while !answer.done {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { throw RigError("the compositor did not answer a roundtrip") }
      var p = pollfd(fd: cw_display_get_fd(display), events: Int16(POLLIN), revents: 0)
      _ = poll(&p, 1, Int32(left * 1000) + 1)
      guard cw_display_dispatch_ready(display) >= 0 else { throw RigError("the pointer lost its connection") }
    }
  }
}

private final class PointerAnswer {
  var done = false
}

nonisolated(unsafe) private var pointerSyncListener = wl_callback_listener(
  done: { data, _, _ in data.map { Unmanaged<PointerAnswer>.fromOpaque($0).takeUnretainedValue().done = true } })

nonisolated(unsafe) private var pointerRegistryListener = wl_registry_listener(
  global: { data, _, name, interface, version in
    let me = data.map { Unmanaged<VirtualPointer>.fromOpaque($0).takeUnretainedValue() }
    me?.global(name, interface.map { String(cString: $0) } ?? "", version)
  },
  global_remove: { _, _, _ in })
