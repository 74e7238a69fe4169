import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayRender
import DisplayService
import DisplaySupport
import DisplayWayland
import DisplayX11

#if canImport(Glibc)
  import Glibc
#endif

struct RunCommand: Subcommand {
  let spec = CommandSpec(
    name: "run", usage: "usage: displayd run [--config FILE] [--display D] [--backend B] [--log-level L]",
    help: """
      Runs the display manager: every connected external monitor gets its chosen mode, a
      place and a window with its content; unplugging releases the window. SIGHUP reloads
      the config (a bad one is logged and the old one kept); SIGUSR1 re-probes the
      connectors and reconciles (as after a resume from suspend); SIGTERM and SIGINT release
      every window and exit 0.

        --config FILE   default: $XDG_CONFIG_HOME/displayd/config.json5, else
                        ~/.config/displayd/config.json5; built-in defaults when absent
        --display D     the X display (default: $DISPLAY), or with --backend wayland the
                        compositor's socket (default: $WAYLAND_DISPLAY)
        --backend B     x11 or wayland (default: Wayland when $WAYLAND_DISPLAY is a wlroots
                        compositor, else X)
        --log-level L   error | warning | info | debug (default: info)

      Exit status: 0 stopped by a signal, 1 runtime failure (the X server went away),
      64 usage error, 69 X server unavailable, 78 bad config.
      """,
    options: ["--config", displayOption, backendOption, "--log-level"])

  func run(_ args: Arguments) throws -> ExitStatus {
    let log = try makeLogger(args)
    let source = ConfigSource(explicit: args["--config"])
    let config = try source.load(log: log)
    // A reader that went away (a control client, the log's pipe) is an error to handle where
    // it happens, never a signal that ends the daemon. Hooks start with default dispositions.
    signal(SIGPIPE, SIG_IGN)
    let signals = try SignalWatch([SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGUSR1])
    let backend = try openBackend(args, spec, log: log)
    // One daemon a display: the lock decides, before the daemon touches the display.
    let location = ControlLocation(display: backend.display, runtimeDir: environment("XDG_RUNTIME_DIR"))
    let lock = try InstanceLock(location)
    if location.socket == nil {
      log.warning("XDG_RUNTIME_DIR is not set: no control socket (status, reload); lock \(lock.path)")
    }
    let control = try location.socket.map { try ControlServer(path: $0, lock: lock) }
    // cairo and pango draw the placeholders, loaded with the first one.
    let daemon = try Daemon(
      changeSource: backend.changes, layoutServer: backend.layout, surfaces: backend.surfaces(),
      painter: CairoPicturePainter(), facilities: backend.facilities, config: config, log: log)
    let service = try DaemonService(
      daemon: daemon, log: log, signals: signals, configPath: source.path,
      control: control
    ) { try source.load(log: log) }
    service.backend = backend.service
    try withExtendedLifetime(lock) { try service.run() }
    return .success
  }

  private func makeLogger(_ args: Arguments) throws -> Logger {
    let name = args["--log-level"] ?? "info"
    guard let level = LogLevel(name: name) else {
      throw UsageError("unknown log level '\(name)' (error, warning, info, debug)", usage: spec.usage)
    }
    return Logger(level: level, journal: getenv("JOURNAL_STREAM") != nil)
  }
}

/// Where the config comes from: `--config`, else the default path, else built-in defaults.
struct ConfigSource {
  let path: String?
  let explicit: Bool

  init(explicit: String?) {
    self.explicit = explicit != nil
    var env: [String: String] = [:]
    for name in ["XDG_CONFIG_HOME", "HOME"] { env[name] = environment(name) }
    path = explicit ?? Config.defaultPath(environment: env)
  }

  func load(log: Logger?) throws -> Config {
    guard let path, explicit || access(path, F_OK) == 0 else {
      log?.info("no config file; using built-in defaults")
      return Config()
    }
    let config = try Config.load(path: path)
    log?.info("config \(path): \(config.monitors.count) rule(s)")
    return config
  }
}

func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
