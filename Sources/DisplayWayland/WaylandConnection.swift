import CWayland
import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// One connection to a Wayland compositor and its registry: the globals it announces, the
/// socket to poll, and dispatching what arrived. The client library is loaded on the first
/// connection.
final class WaylandConnection {
  /// A global the compositor announced.
  struct Global: Hashable {
    var name: UInt32
    var interface: String
    var version: UInt32
  }

  let display: OpaquePointer
  /// The socket's name (`wayland-1`).
  let socketName: String
  /// The compositor's process name from the socket's peer (`sway`, `labwc`); empty when unknown.
  let compositor: String
  private var registry: OpaquePointer?
  private(set) var globals: [UInt32: Global] = [:]
  /// Called when a global goes (a `wl_output` unplugged).
  var globalRemoved: ((UInt32) -> Void)?
  /// Called when a global comes after the first roundtrip (a `wl_output` plugged).
  var globalAdded: ((Global) -> Void)?

  /// Connects to `socket` (default: `$WAYLAND_DISPLAY`, else `wayland-0`) and reads the globals.
  init(socket: String? = nil) throws(DisplayError) {
    let name = socket ?? WaylandConnection.defaultSocket
    guard cw_load() != 0 else {
      throw .compositor(display: name, problem: String(cString: cw_load_error()))
    }
    guard let display = cw_display_connect(name) else {
      throw .compositor(display: name, problem: "cannot connect: \(String(cString: strerror(errno)))")
    }
    self.display = display
    socketName = name
    compositor = WaylandConnection.peerName(cw_display_get_fd(display))
    registry = wl_display_get_registry(display)
    wl_registry_add_listener(registry, &registryListener, Unmanaged.passUnretained(self).toOpaque())
    try roundtrip()
  }

  deinit {
    if let registry { wl_registry_destroy(registry) }
    cw_display_disconnect(display)
  }

  /// `$WAYLAND_DISPLAY`, or libwayland's default.
  static var defaultSocket: String {
    guard let value = getenv("WAYLAND_DISPLAY").map({ String(cString: $0) }), !value.isEmpty else {
      return "wayland-0"
    }
    return value
  }

  /// The descriptor to poll for input.
  var fileDescriptor: Int32 { cw_display_get_fd(display) }

  /// The newest announced global of `interface`.
  func global(_ interface: String) -> Global? {
    globals.values.filter { $0.interface == interface }.max { $0.name < $1.name }
  }

  /// What a compositor without `zwlr_output_manager_v1` is: its process where the socket
  /// tells it, and the desktop its globals suggest (`WaylandDesktopGuess`).
  var withoutOutputManager: String {
    let who = compositor.isEmpty ? "the compositor" : "the compositor '\(compositor)'"
    let guess = WaylandDesktopGuess.name(interfaces: globals.values.map(\.interface)).map { " (\($0)?)" } ?? ""
    return "\(who) offers no zwlr_output_manager_v1\(guess)"
  }

  /// Binds `global` at min(compositor's version, the XML's): every request and event used
  /// then exists on both sides.
  func bind(_ global: Global, _ interface: UnsafePointer<wl_interface>) -> OpaquePointer? {
    let version = min(global.version, UInt32(clamping: interface.pointee.version))
    guard version >= 1, let registry else { return nil }
    return cw_registry_bind(registry, global.name, interface, version).map(OpaquePointer.init)
  }

  /// How long a compositor may take to answer a roundtrip: one alive but hung (stopped, deadlocked)
  /// must not block a command forever.
  static let answerSeconds = 3.0

  /// Sends what is queued and waits until the compositor has handled it and answered, at most
  /// `seconds`; a compositor that does not answer in time is an error naming it.
  func roundtrip(seconds: Double = WaylandConnection.answerSeconds) throws(DisplayError) {
    guard let callback = wl_display_sync(display) else { throw lost() }
    let answer = SyncAnswer()
    defer { wl_callback_destroy(callback) }
    wl_callback_add_listener(callback, &syncListener, Unmanaged.passUnretained(answer).toOpaque())
    guard try wait(seconds: seconds, until: { answer.done }) else {
      let name = compositor.isEmpty ? socketName : "\(socketName) (\(compositor))"
      throw .compositor(display: socketName, problem: "\(name) did not answer within \(seconds) s (hung or stopped?)")
    }
  }

  /// Whether the last flush found the socket full (EAGAIN) and left requests in libwayland's
  /// buffer: poll for POLLOUT and flush again.
  private(set) var hasUnsent = false

  /// What to poll the socket for: POLLOUT too only while requests wait for room (an idle
  /// connection must not wake on a writable socket).
  var pollEvents: Int16 { hasUnsent ? Int16(POLLIN | POLLOUT) : Int16(POLLIN) }

  /// Sends what is queued; a full socket (EAGAIN) is sent later, by the next flush.
  func flush() throws(DisplayError) {
    let sent = cw_display_flush(display) >= 0
    guard sent || errno == EAGAIN else { throw lost() }
    hasUnsent = !sent
  }

  /// Dispatches whatever the socket holds now, without blocking, then sends what the
  /// handlers asked (an ack and its commit, a screencopy `copy`, a new output's bind): no
  /// event may come until it is sent. Call it too when poll says writable.
  func dispatchReady() throws(DisplayError) {
    guard cw_display_dispatch_ready(display) >= 0 else { throw lost() }
    try flush()
  }

  /// Waits for events until `done()` holds or `seconds` pass; false on timeout. Every
  /// dispatch is followed by a flush, and a full socket is polled for room.
  func wait(seconds: Double, until done: () -> Bool) throws(DisplayError) -> Bool {
    // Clamped in Double: a huge or infinite wait becomes a day, not a trap converting to Int.
    let limit = seconds.isNaN ? 0 : min(max(seconds, 0), 86_400)
    let deadline = monotonicNanoseconds() &+ UInt64(limit * 1e9)
    try flush()
    while !done() {
      let now = monotonicNanoseconds()
      guard now < deadline else { return false }
      let milliseconds = (deadline - now + 999_999) / 1_000_000
      var p = pollfd(fd: fileDescriptor, events: pollEvents, revents: 0)
      let n = poll(&p, 1, Int32(clamping: milliseconds))
      if n < 0 && errno != EINTR { throw lost() }
      try dispatchReady()
    }
    return true
  }

  /// The connection's error: the display's recorded one, else the call's errno.
  func lost() -> DisplayError {
    let code = errno
    let recorded = cw_display_get_error(display)
    let reason = String(cString: strerror(recorded != 0 ? recorded : code))
    return .compositor(display: socketName, problem: "lost the connection (\(reason))")
  }

  fileprivate func announce(_ name: UInt32, _ interface: String, _ version: UInt32) {
    let global = Global(name: name, interface: interface, version: version)
    globals[name] = global
    globalAdded?(global)
  }

  fileprivate func remove(_ name: UInt32) {
    globals[name] = nil
    globalRemoved?(name)
  }

  /// The peer process's name, from SO_PEERCRED and its command line (a compositor run
  /// through a loader, `ld-linux-x86-64.so.2 --library-path DIR .../sway`, is named by the
  /// program it runs).
  private static func peerName(_ fd: Int32) -> String {
    let pid = cw_peer_pid(fd)
    guard pid > 0, let file = fopen("/proc/\(pid)/cmdline", "r") else { return "" }
    defer { fclose(file) }
    var bytes = [UInt8](repeating: 0, count: 4096)
    let count = fread(&bytes, 1, bytes.count, file)
    var args = bytes.prefix(count).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    if let first = args.first, baseName(first).hasPrefix("ld-") {
      args.removeFirst()
      while let arg = args.first, arg.hasPrefix("--") {
        args.removeFirst(min(args.count, arg.contains("=") ? 1 : 2))
      }
    }
    let name = args.first.map(baseName) ?? ""
    return String(name.prefix(64).filter { $0.isLetter || $0.isNumber || "-_.".contains($0) })
  }

  private static func baseName(_ path: String) -> String {
    String(path.split(separator: "/").last ?? "")
  }
}

/// A string the compositor sent, bounded (a hostile one could send megabytes).
func compositorString(_ text: UnsafePointer<CChar>?, limit: Int = 1024) -> String {
  guard let text else { return "" }
  let length = strnlen(text, limit)
  return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
}

private func connection(_ data: UnsafeMutableRawPointer?) -> WaylandConnection? {
  data.map { Unmanaged<WaylandConnection>.fromOpaque($0).takeUnretainedValue() }
}

/// Whether a roundtrip's `wl_callback.done` came.
private final class SyncAnswer {
  var done = false
}

nonisolated(unsafe) private var syncListener = wl_callback_listener(
  done: { data, _, _ in
    data.map { Unmanaged<SyncAnswer>.fromOpaque($0).takeUnretainedValue().done = true }
  })

nonisolated(unsafe) private var registryListener = wl_registry_listener(
  global: { data, _, name, interface, version in
    connection(data)?.announce(name, compositorString(interface, limit: 128), version)
  },
  global_remove: { data, _, name in connection(data)?.remove(name) })

/// The desktop a compositor belongs to, told by a global only its compositor offers: a
/// guess, for a message. Only what was seen on a real compositor: mutter 43 offers
/// `gtk_shell1` (GTK's own protocol) and no wlroots protocol.
enum WaylandDesktopGuess {
  static func name(interfaces: some Sequence<String>) -> String? {
    for interface in interfaces where interface == "gtk_shell1" { return "GNOME's mutter" }
    return nil
  }
}
