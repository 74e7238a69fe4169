import CLinux
import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// The desktop programs that manage displays, as the session bus tells them: which of their
/// well-known names have an owner, followed by `NameOwnerChanged` signals matched per name,
/// so the bus wakes the daemon only when one of them comes or goes. The bus descriptor goes
/// into the service's `poll()`; nothing is polled on a timer. Without a session bus (no
/// `DBUS_SESSION_BUS_ADDRESS` and no `$XDG_RUNTIME_DIR/bus`) libsystemd is not even loaded.
final class DesktopWatcher {
  private let bus: UnsafeMutablePointer<cl_session>
  private let log: Logger
  private var connected = true
  /// What the bus said last.
  private(set) var signals = DesktopSignals()

  /// Connects and reads the names; nil with one info line saying why when it cannot.
  static func start(log: Logger) -> DesktopWatcher? {
    guard sessionBusExists() else {
      log.info("no session bus: desktop display managers are seen only from the X server")
      return nil
    }
    let bus = UnsafeMutablePointer<cl_session>.allocate(capacity: 1)
    bus.initialize(to: cl_session())
    let fail = { (why: String) -> DesktopWatcher? in
      log.info("\(why): desktop display managers are seen only from the X server")
      cl_session_close(bus)
      bus.deallocate()
      return nil
    }
    guard cl_session_load(bus) == 0 else {
      return fail("libsystemd not loaded (\(String(cString: cl_logind_dlerror())))")
    }
    var r = cl_session_connect(bus)
    guard r >= 0 else { return fail("no session bus (\(describe(errno: r)))") }
    for name in DesktopSignals.busNames {
      r = cl_session_watch(bus, name)
      guard r >= 0 else { return fail("the session bus refused a match for \(name) (\(describe(errno: r)))") }
    }
    return DesktopWatcher(bus: bus, log: log)
  }

  private init(bus: UnsafeMutablePointer<cl_session>, log: Logger) {
    self.bus = bus
    self.log = log
    read()
    // What arrived during the calls (the bus's NameAcquired, an owner change) waits inside
    // sd-bus, which asks poll() for nothing until it is processed.
    _ = handle()
  }

  deinit {
    cl_session_close(bus)
    bus.deallocate()
  }

  /// Whether sd-bus would find a session bus: its address, or the user bus socket.
  static func sessionBusExists() -> Bool {
    if let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 { return true }
    guard let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 else { return false }
    var info = stat()
    return stat(String(cString: runtime) + "/bus", &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
  }

  /// The bus descriptor with the events sd-bus waits for; none once the bus is gone.
  var descriptor: (fd: FileDescriptor, events: Int16)? {
    guard connected else { return nil }
    let fd = cl_session_fd(bus)
    let events = cl_session_events(bus)
    guard fd >= 0, events >= 0 else { return nil }
    return (FileDescriptor(rawValue: fd), Int16(truncatingIfNeeded: events))
  }

  func owns(_ fd: FileDescriptor) -> Bool { connected && cl_session_fd(bus) == fd.rawValue }

  /// Processes what the bus has; returns the new signals when a watched name changed hands.
  func handle() -> DesktopSignals? {
    let before = signals
    // Method calls read synchronously and queue what arrives meanwhile inside sd-bus, where
    // poll() cannot see it (sd-bus asks for no event until it is processed): process after
    // every read. Names still changing hands after three reads keep the flag set, read again
    // at the next wake-up their own signals make.
    for round in 0...3 {
      let r = cl_session_process(bus)
      guard r >= 0 else {
        lose("the session bus connection failed (\(Self.describe(errno: r)))")
        break
      }
      guard bus.pointee.changed != 0, round < 3 else { break }
      bus.pointee.changed = 0
      read()
    }
    return signals == before ? nil : signals
  }

  /// Asks the bus which names have an owner, and the programs that share a name what runs.
  private func read() {
    var names: Set<String> = []
    for name in DesktopSignals.busNames {
      let r = cl_session_has_owner(bus, name)
      // A call that failed (a busy bus) keeps what was known: never a manager gone by timeout.
      if r > 0 || (r < 0 && signals.busNames.contains(name)) { names.insert(name) }
      if r < 0 { log.warning("session bus: NameHasOwner \(name) failed (\(Self.describe(errno: r)))") }
    }
    var next = DesktopSignals()
    next.busNames = names
    for (name, path, interface) in DesktopSignals.kded where names.contains(name) {
      let r = cl_session_answer_has(bus, name, path, interface, "loadedModules", "kscreen")
      let had = signals.kdedModules?.contains("kscreen") ?? false
      next.kdedModules = (next.kdedModules ?? []) + (r > 0 || (r < 0 && had) ? ["kscreen"] : [])
    }
    if names.contains(DesktopSignals.mate) {
      next.mateXrandr =
        cl_session_answer_has(
          bus, DesktopSignals.mate, DesktopSignals.mateXrandrPath, "org.freedesktop.DBus.Introspectable",
          "Introspect", DesktopSignals.mateXrandrInterface) > 0
    }
    signals = next
  }

  /// Closes the bus for good: the desktop managers it told of count as gone.
  private func lose(_ why: String) {
    log.warning("\(why): desktop display managers are seen only from the X server from now on")
    connected = false
    cl_session_close(bus)
    signals = DesktopSignals()
  }

  private static func describe(errno r: Int32) -> String { String(cString: strerror(-r)) }
}

/// What the session bus says now, for commands that run without the daemon (`check-config`):
/// nothing without a session bus.
public func currentDesktopSignals() -> DesktopSignals {
  DesktopWatcher.start(log: Logger(level: .error))?.signals ?? DesktopSignals()
}
