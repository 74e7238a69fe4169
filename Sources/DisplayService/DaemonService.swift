import DisplayKit
import DisplayModel
import DisplayPorts
import DisplaySupport
import DisplayX11

#if canImport(Glibc)
  import Glibc
#endif

/// The display server as `status` names it.
public struct ServiceBackend {
  /// `x11` or `wayland`.
  public var name: String
  /// The Wayland compositor's process name (`sway`); nil on X.
  public var compositor: String?
  /// The Wayland objects the daemon holds (for leak checks); nil on X.
  public var objects: (() -> Int)?

  public init(name: String = "x11", compositor: String? = nil, objects: (() -> Int)? = nil) {
    (self.name, self.compositor, self.objects) = (name, compositor, objects)
  }
}

/// The daemon as a service: the display manager, its control socket, hooks, systemd
/// notifications and signals, in one event loop that sleeps in `poll()` with no timer (but
/// the watchdog's, when systemd asks for one).
public final class DaemonService {
  public let daemon: Daemon
  /// What `status` says of the display server.
  public var backend = ServiceBackend()
  let log: Logger
  let signals: SignalWatch
  let notifier: SystemdNotifier
  let hooks: HookRunner
  var control: ControlServer?
  var watchdog: DeadlineTimer?
  var logind: LogindWatcher?
  var desktopBus: DesktopWatcher?
  var identify: IdentifyOverlays?
  let loadConfig: () throws -> Config
  let configPath: String?
  var configError: String?
  var stopping = false
  /// The last STATUS= sent, so an unchanged one is not sent again.
  private var shownStatus: String?

  /// `loadConfig` reads the config again on reload; `control` is the control socket, made
  /// before the daemon so a second daemon stops before touching the display.
  public init(
    daemon: Daemon, log: Logger, signals: SignalWatch, configPath: String?,
    control: ControlServer?,
    loadConfig: @escaping () throws -> Config
  ) throws {
    self.daemon = daemon
    self.log = log
    self.signals = signals
    self.configPath = configPath
    self.loadConfig = loadConfig
    notifier = SystemdNotifier()
    hooks = HookRunner(log: log, timeoutSeconds: daemon.config.hooks.timeoutSeconds)
    self.control = control
    control?.handler = { [unowned self] request in self.answer(request) }
    control?.onIdentify = { [unowned self] seconds in self.identify(seconds: seconds) }
    control?.onProfileSwitch = { [unowned self] request in self.switchLayout(request) }
    control?.onApply = { [unowned self] name in self.apply(profile: name) }
    daemon.onProfileApplied = { [unowned self] profile in self.profileApplied(profile) }
    if let interval = notifier.watchdogInterval {
      watchdog = try DeadlineTimer()
      watchdog?.arm(every: interval)
    }
    daemon.onEvents = { [unowned self] events, old, new in self.eventsHappened(events, old, new) }
    daemon.onOtherSurfaceEvent = { [unowned self] event in self.identify?.forget(event) }
  }

  /// Reconciles once, says READY, and serves until SIGTERM or SIGINT.
  public func run() throws {
    try watchLogind(daemon.config)
    try watchDesktop()
    if !daemon.config.usesLid { log.info("the config does not use the lid: not watched, it counts as open") }
    try daemon.start()
    if let path = control?.path { log.info("control socket \(path)") }
    shownStatus = daemon.summary
    notifier.notify("READY=1\nSTATUS=\(SystemdNotifier.fieldValue(daemon.summary))")
    while !stopping {
      daemon.flushServer()
      // Every descriptor is served every turn: with X events already queued the poll only
      // looks, so a storm of them cannot starve signals, clients, hooks or the watchdog.
      let busy = daemon.serverEventsQueued
      for (fd, events) in try pollDescriptors(descriptors(), timeoutMs: busy ? 0 : -1) { try dispatch(fd, events) }
      if !stopping {
        try daemon.handleServerEvents()
        // After the windows: hooks start before them, and the status names them.
        showStatus()
      }
    }
  }

  private func descriptors() -> [(fd: FileDescriptor, events: Int16)] {
    var list: [(fd: FileDescriptor, events: Int16)] = [
      (daemon.serverDescriptor, Self.serverEvents(hasUnsent: daemon.serverHasUnsent)), (signals.fileDescriptor, pollIn),
    ]
    list += control?.descriptors ?? []
    list += hooks.descriptors.map { ($0, pollIn) }
    if let watchdog { list.append((watchdog.fileDescriptor, pollIn)) }
    if let frame = daemon.frameTimerDescriptor { list.append((frame, pollIn)) }
    if let bus = logind?.descriptor { list.append(bus) }
    if let bus = desktopBus?.descriptor { list.append(bus) }
    if let grace = daemon.graceTimerDescriptor { list.append((grace, pollIn)) }
    if let identify, identify.timer.isArmed { list.append((identify.timer.fileDescriptor, pollIn)) }
    return list
  }

  /// What to poll the display server's socket for: POLLOUT too only while requests wait for
  /// room (writable wakes an idle loop at once); a writable socket is then flushed at the
  /// server's dispatch and at the loop's top.
  static func serverEvents(_ source: any ChangeSource) -> Int16 {
    serverEvents(hasUnsent: source.hasUnsent)
  }

  /// `serverEvents` of a server whose requests wait (`hasUnsent`) or not.
  static func serverEvents(hasUnsent: Bool) -> Int16 { hasUnsent ? pollIn | pollOut : pollIn }

  private func dispatch(_ fd: FileDescriptor, _ events: Int16) throws {
    if !(control?.owns(fd) ?? false) { control?.resumeListening() }
    if fd == daemon.serverDescriptor {
      try daemon.readServer()
    } else if fd == signals.fileDescriptor {
      while !stopping, let signal = signals.next() { try handleSignal(signal) }
    } else if fd == daemon.frameTimerDescriptor {
      daemon.frameTimerFired()
    } else if fd == daemon.graceTimerDescriptor {
      try daemon.graceTimerFired()
    } else if let identify, fd == identify.timer.fileDescriptor {
      identify.timer.acknowledge()
      identify.remove()
    } else if let logind, logind.owns(fd) {
      let news = logind.handle()
      if let state = news.lid { try daemon.setLid(state) }
      if news.suspending > 0 { log.info("logind: PrepareForSleep(true), going to sleep: nothing to do") }
      // However many came at once, one fresh snapshot tells the truth.
      if news.resumed > 0 { try daemon.resync(reason: "resume (logind PrepareForSleep false)") }
    } else if let desktopBus, desktopBus.owns(fd) {
      if let signals = desktopBus.handle() { try daemon.setDesktopSignals(signals) }
    } else if let watchdog, fd == watchdog.fileDescriptor {
      watchdog.acknowledge()
      notifier.notify("WATCHDOG=1")
    } else if control?.handle(fd: fd, events: events) != true {
      hooks.handle(fd: fd)
    }
  }

  private func handleSignal(_ signal: Int32) throws {
    switch signal {
    case SIGHUP: reload()
    case SIGCHLD: hooks.reap()
    case SIGUSR1: try daemon.resync(reason: "SIGUSR1")
    default:
      log.info("signal \(signal): releasing \(daemon.monitors.count) window(s) and exiting")
      notifier.notify("STOPPING=1")
      daemon.releaseAll()
      stopping = true
    }
  }

  /// Reads the config again: a bad one is logged and the old one stays in force; a good one
  /// is applied by reconciliation.
  @discardableResult
  func reload() -> String? {
    notifier.notify("RELOADING=1\nMONOTONIC_USEC=\(monotonicNanoseconds() / 1000)")
    defer {
      shownStatus = status
      notifier.notify("READY=1\nSTATUS=\(SystemdNotifier.fieldValue(status))")
    }
    do {
      let config = try loadConfig()
      try watchLogind(config)
      try daemon.reload(config)
      try unwatchLid(config)
      hooks.timeoutSeconds = config.hooks.timeoutSeconds
      configError = nil
      log.info("config reloaded")
      return nil
    } catch {
      configError = "\(error)"
      log.error("reload failed, keeping the previous config: \(error)")
      return configError
    }
  }

  /// Starts following logind when `config` uses the lid (before it is applied, so it is
  /// applied with the real lid), or for the resume from suspend on a laptop. Anything else
  /// never loads libsystemd: it and its libraries are about 1.5 MB of the daemon's RSS and
  /// 5 to 13 ms of its start (docs/benchmarks.md); there `SIGUSR1` resyncs.
  private func watchLogind(_ config: Config) throws(DisplayError) {
    let wanted = config.usesLid ? logind?.watchesLid != true : logind == nil && onLaptop(config)
    guard wanted else { return }
    logind = LogindWatcher.start(lid: config.usesLid, log: log)
    if let logind, logind.watchesLid { try daemon.setLid(logind.state, reconcile: false) }
  }

  /// Stops watching the lid once `config`, applied, no longer uses it: it then counts as
  /// open. On a laptop the resume is still followed.
  private func unwatchLid(_ config: Config) throws(DisplayError) {
    guard !config.usesLid, let current = logind else { return }
    guard current.watchesLid else {
      if !onLaptop(config) { logind = nil }
      return
    }
    logind = nil
    logind = onLaptop(config) ? LogindWatcher.start(lid: false, log: log) : nil
    log.info("the config does not use the lid: no longer watched, it counts as open")
    try daemon.setLid(.open, reconcile: false)
  }

  /// A laptop, the machine that suspends with monitors that come and go while it sleeps:
  /// one with a `panel` named, or a built-in panel output (connected or not).
  private func onLaptop(_ config: Config) -> Bool {
    config.panel != nil || daemon.heads.heads.contains(where: \.isInternalPanel)
  }

  var status: String {
    configError.map { "config error (previous config in force): \($0); " + daemon.summary } ?? daemon.summary
  }

  private func answer(_ request: String) -> JSON {
    switch request {
    case "status":
      var answer = daemon.statusAnswer(configPath: configPath, configError: configError)
      (answer.backend, answer.compositor) = (backend.name, backend.compositor)
      answer.waylandObjects = backend.objects?()
      guard case .object(let members) = answer.json else { return .null }
      return .object([("ok", .bool(true))] + members)
    case "reload":
      let error = reload()
      return .object([("ok", .bool(error == nil)), ("error", JSON.optional(error) { .string($0) })])
    case "subscribe":
      return .object([("ok", .bool(true)), ("subscribed", .bool(true))])
    case "profile-list": return profileList()
    case "config-path": return .object([("ok", .bool(true)), ("config", JSON.optional(configPath) { .string($0) })])
    default:
      let known =
        "status, reload, subscribe, identify, profile-list, profile-switch, profile-cycle, apply, config-path"
      return .object([("ok", .bool(false)), ("error", .string("unknown request '\(request)' (\(known))"))])
    }
  }

  private func showStatus() {
    let text = status
    guard text != shownStatus else { return }
    shownStatus = text
    notifier.notify("STATUS=\(SystemdNotifier.fieldValue(text))")
  }

  private func eventsHappened(_ events: [HeadEvent], _ old: HeadSnapshot, _ new: HeadSnapshot) {
    for event in events {
      if control?.subscriberCount ?? 0 > 0 { control?.broadcast(JSON.record(EventRecord(event, in: new))) }
      runHooks(for: event, old: old, new: new)
    }
  }

  private func runHooks(for event: HeadEvent, old: HeadSnapshot, new: HeadSnapshot) {
    let hooks = daemon.config.hooks
    let commands: [[String]]
    switch event.kind {
    case .connected: commands = hooks.connected
    case .disconnected: commands = hooks.disconnected
    default: return
    }
    guard !commands.isEmpty else { return }
    // A disconnected head has lost its EDID: use what it had before.
    let head = event.kind == .disconnected ? (old.head(named: event.head.name) ?? event.head) : event.head
    // The EDID's words only, as ever: a head without one (Wayland) names no monitor here.
    let edid = head.edid.flatMap { try? EDID(bytes: $0) }
    let env: [String: String] = [
      "DISPLAYD_EVENT": event.kind.rawValue, "DISPLAYD_OUTPUT": head.name,
      "DISPLAYD_MANUFACTURER": edid?.manufacturer ?? "", "DISPLAYD_PRODUCT_NAME": edid?.productName?.text ?? "",
      "DISPLAYD_SERIAL": edid?.serial ?? "", "DISPLAYD_PROFILE": daemon.activeProfile.name ?? "",
      "DISPLAYD_DPI": daemon.xftDPI.map(String.init) ?? "",
      "DISPLAYD_MODE": new.head(named: event.head.name)?.shownMode?.label ?? "",
    ]
    for argv in commands { self.hooks.start(argv, environment: env) }
  }
}
