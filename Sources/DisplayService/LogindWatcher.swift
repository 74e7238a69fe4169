import CLinux
import DisplayModel
import DisplaySupport

#if canImport(Glibc)
  import Glibc
#endif

/// What logind said since the last `handle()`.
struct LogindNews: Equatable {
  /// The lid's new state, when it changed.
  var lid: LidState?
  /// `PrepareForSleep(false)` signals: the machine resumed.
  var resumed = 0
  /// `PrepareForSleep(true)` signals: the machine is about to sleep.
  var suspending = 0
}

/// logind on the system bus: the laptop lid (`LidClosed` of `org.freedesktop.login1`, read
/// and followed through its `PropertiesChanged` signals; logind declares the property
/// `EMITS_CHANGE` and sends the signal on every lid switch edge) and the resume from a
/// suspend (`PrepareForSleep(false)`). No polling: the bus descriptor goes into the service's
/// `poll()`. libsystemd is loaded when a watcher is made, so nothing else pays for it.
/// Without the library, the bus or logind, there is no watcher and the lid counts as open; a
/// bus that fails later is closed and the lid counts as open.
final class LogindWatcher {
  private let bus: UnsafeMutablePointer<cl_logind>
  private let log: Logger
  private var connected = true
  /// Whether the lid is followed (else only the resume is).
  let watchesLid: Bool
  /// The lid as last read or signalled (open when not watched).
  private(set) var state: LidState

  /// Connects and, with `lid`, reads the lid; nil with one info line saying why when it
  /// cannot.
  static func start(lid: Bool, log: Logger) -> LogindWatcher? {
    let bus = UnsafeMutablePointer<cl_logind>.allocate(capacity: 1)
    bus.initialize(to: cl_logind())
    let fail = { (why: String) -> LogindWatcher? in
      log.info(lid ? "\(why): the lid counts as open" : "\(why): no resume from logind (SIGUSR1 still resyncs)")
      cl_logind_close(bus)
      bus.deallocate()
      return nil
    }
    guard cl_logind_load(bus) == 0 else {
      return fail("libsystemd not loaded (\(String(cString: cl_logind_dlerror())))")
    }
    let r = cl_logind_connect(bus, lid ? 1 : 0)
    guard r >= 0 else { return fail("no system bus (\(describe(errno: r)))") }
    guard lid else { return LogindWatcher(bus: bus, log: log, lid: nil) }
    switch read(bus) {
    case .success(let state): return LogindWatcher(bus: bus, log: log, lid: state)
    case .failure(let why): return fail("logind not reachable on the system bus (\(why))")
    }
  }

  private init(bus: UnsafeMutablePointer<cl_logind>, log: Logger, lid: LidState?) {
    self.bus = bus
    self.log = log
    watchesLid = lid != nil
    state = lid ?? .open
    settle()
    if watchesLid {
      log.info("lid \(self.state.rawValue) (logind)")
    } else {
      log.info("following logind's resume from suspend (the config does not use the lid)")
    }
  }

  deinit {
    cl_logind_close(bus)
    bus.deallocate()
  }

  /// The bus descriptor with the events sd-bus waits for; none once the bus is gone.
  var descriptor: (fd: FileDescriptor, events: Int16)? {
    guard connected else { return nil }
    let fd = cl_logind_fd(bus)
    let events = cl_logind_events(bus)
    guard fd >= 0, events >= 0 else { return nil }
    return (FileDescriptor(rawValue: fd), Int16(truncatingIfNeeded: events))
  }

  /// Whether `fd` is the bus descriptor.
  func owns(_ fd: FileDescriptor) -> Bool { connected && cl_logind_fd(bus) == fd.rawValue }

  /// Processes what the bus has: the lid's new state when it changed, and the sleep
  /// signals that came.
  func handle() -> LogindNews {
    let before = state
    var news = LogindNews()
    // A synchronous read queues what arrives meanwhile inside sd-bus, where poll() cannot
    // see it: process again after one.
    for _ in 0..<3 {
      let r = cl_logind_process(bus)
      guard r >= 0 else {
        lose("the system bus connection failed (\(Self.describe(errno: r)))")
        break
      }
      news.resumed = news.resumed.addingReportingOverflow(Int(bus.pointee.resumed)).partialValue
      news.suspending = news.suspending.addingReportingOverflow(Int(bus.pointee.suspending)).partialValue
      (bus.pointee.resumed, bus.pointee.suspending) = (0, 0)
      if bus.pointee.changed != 0 { state = bus.pointee.closed != 0 ? .closed : .open }
      let invalidated = bus.pointee.invalidated != 0
      bus.pointee.changed = 0
      bus.pointee.invalidated = 0
      guard invalidated else { break }
      reread()
    }
    guard state != before else { return news }
    log.info("lid \(state.rawValue) (logind)")
    news.lid = state
    return news
  }

  /// Signals queued during the first read may be older or newer than its answer: if any
  /// came, read again, which is the truth either way.
  private func settle() {
    guard cl_logind_process(bus) >= 0 else { return }
    if bus.pointee.changed != 0 || bus.pointee.invalidated != 0 {
      bus.pointee.changed = 0
      bus.pointee.invalidated = 0
      reread()
    }
  }

  private func reread() {
    switch Self.read(bus) {
    case .success(let new): state = new
    case .failure(let why): log.warning("could not read LidClosed again (\(why)); keeping lid \(state.rawValue)")
    }
  }

  /// Closes the bus for good: the lid counts as open from now on.
  private func lose(_ why: String) {
    log.warning(watchesLid ? "\(why): no more lid events; the lid counts as open" : "\(why): no more resume events")
    connected = false
    cl_logind_close(bus)
    state = .open
  }

  private static func read(_ bus: UnsafeMutablePointer<cl_logind>) -> Result<LidState, LidReadError> {
    var why = [CChar](repeating: 0, count: 512)
    let r = cl_logind_read(bus, &why, why.count)
    guard r >= 0 else {
      let message = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return .failure(LidReadError(message: message.isEmpty ? describe(errno: r) : message))
    }
    return .success(r == 0 ? .open : .closed)
  }

  private static func describe(errno r: Int32) -> String { String(cString: strerror(-r)) }
}

/// Why reading `LidClosed` failed: the bus error's name and message, or the errno's text.
struct LidReadError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// The lid now, for commands that run without the daemon (`check-config`, `profile list`):
/// libsystemd is loaded only when this is called; open without logind.
public func currentLidState() -> LidState {
  LogindWatcher.start(lid: true, log: Logger(level: .error))?.state ?? .open
}
