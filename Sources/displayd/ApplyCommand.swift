import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayService
import DisplaySupport
import DisplayX11

#if canImport(Glibc)
  import Glibc
#endif

struct ApplyCommand: Subcommand {
  static let usage =
    "usage: displayd apply [--profile NAME] [--dry-run] [--config FILE] [--display D] [--backend B]"

  let spec = CommandSpec(
    name: "apply", usage: usage,
    help: """
      Applies once what the daemon would apply at start (the profile the monitors and the lid
      choose, else the monitors rules) and exits: for a login screen's display setup script
      (LightDM's display-setup-script, SDDM's Xsetup) and for scripts. No window, no control
      socket, no lock left behind, no renderer loaded, no hooks run. When a daemon runs on
      the display (or the compositor), the request goes through it (with the daemon's config
      and hooks). On Wayland the configuration is tested by the compositor, then applied.

        --profile NAME  this profile instead of the one the monitors choose; refused, with
                        the reason, when it does not match the monitors present
        --dry-run       print the plan (as check-config does) and change nothing
        --config FILE   default: $XDG_CONFIG_HOME/displayd/config.json5, else
                        ~/.config/displayd/config.json5; built-in defaults when absent
        --display D     the X display (default: $DISPLAY), or the Wayland socket
        --backend B     x11 or wayland (default: Wayland when $WAYLAND_DISPLAY is a wlroots
                        compositor, else X)

      Exit status: 0 applied or already in force, 1 refused (the reason on stderr),
      64 usage error, 69 X server or compositor unavailable, 78 bad config.
      """,
    flags: ["--dry-run"], options: ["--profile", "--config", displayOption, backendOption])

  /// The one entry point: every way of applying (here, through the daemon, dry) starts here,
  /// so a check that refuses `apply` goes at its top.
  func run(_ args: Arguments) throws -> ExitStatus {
    if let name = args["--profile"], name.isEmpty { throw UsageError("the profile NAME is empty", usage: spec.usage) }
    let source = ConfigSource(explicit: args["--config"])
    let config = try source.load(log: nil)
    // A bad `--backend` is refused even where the daemon answers; the automatic choice is
    // made only without one (it connects to the compositor).
    if args[backendOption] != nil { _ = try args.backend(spec) }
    if args.has("--dry-run") { return try dryRun(config, args) }
    if let client = try DaemonClient.open(display: args.display) {
      return try throughDaemon(client, source, args)
    }
    return try applyHere(config, args)
  }

  /// The desk arranged by this process, with the daemon's planning and no windows.
  private func applyHere(_ config: Config, _ args: Arguments) throws -> ExitStatus {
    let log = Logger(level: .warning)
    let desk = try openBackend(args, spec, log: log)
    let daemon = try Daemon(
      changeSource: desk.changes, layoutServer: desk.layout, surfaces: nil, facilities: desk.facilities,
      config: config, log: log)
    try daemon.setLid(config.lid(reading: currentLidState), reconcile: false)
    try daemon.setDesktopSignals(currentDesktopSignals(), reconcile: false)
    if let why = daemon.desktop.layoutRefusal {
      printError("apply refused: \(why)")
      return .failure
    }
    return report(try daemon.applyOnce(profile: args["--profile"]))
  }

  /// The outcome in one line; names from the config are shown escaped.
  private func report(_ result: ApplyOnceResult) -> ExitStatus {
    switch result {
    case .applied(let what):
      write("applied \(Logger.escaped(what))\n")
      return .success
    case .inForce(let what):
      write("\(Logger.escaped(what)): already in force, nothing to change\n")
      return .success
    case .refused(let reason):
      printError("apply refused: \(reason)")
      return .failure
    }
  }

  /// The daemon arranges the desk with its own config; a different `--config` is refused.
  private func throughDaemon(_ client: DaemonClient, _ source: ConfigSource, _ args: Arguments) throws -> ExitStatus {
    if source.explicit, let mine = source.path {
      let answer: [String: JSON] = try client.request("config-path")
      guard case .string(let theirs)? = answer["config"], sameFile(theirs, mine) else {
        printError(
          "apply refused: a displayd runs on this display with another config; "
            + "stop it, or drop --config to apply through it")
        return .failure
      }
    }
    let arguments = args["--profile"].map { [("name", JSON.string($0))] } ?? []
    let (_, answer) = try client.request("apply", arguments: arguments)
    if case .bool(true)? = answer["ok"], case .string(let word)? = answer["result"],
      case .string(let what)? = answer["what"]
    {
      return report(word == "applied" ? .applied(what: what + " (through the running daemon)") : .inForce(what: what))
    }
    guard case .string(let error)? = answer["error"] else {
      throw DaemonClient.Failure(message: "the daemon's answer to apply is not understood")
    }
    return report(.refused(reason: error))
  }

  /// What `apply` would do, as `check-config` prints it; nothing is changed.
  private func dryRun(_ config: Config, _ args: Arguments) throws -> ExitStatus {
    let desk = try openBackend(args, spec, log: Logger(level: .error))
    let layout = desk.layout
    let heads = try deskHeads(layout, probe: true)
    let vendors = layout.vendors(of: heads)
    let lid = config.lid(reading: currentLidState)
    var shown = config
    if let name = args["--profile"] {
      guard let profile = config.profiles.first(where: { $0.name == name }) else {
        return report(
          .refused(reason: "\(ProfileSwitchRefusal.unknown(name: name, known: config.profiles.map(\.name)))"))
      }
      if case .failure(let why) = ProfileMatcher.match(profile, snapshot: heads, lid: lid, vendors: vendors) {
        return report(.refused(reason: "\(ProfileSwitchRefusal.mismatch(name: name, why))"))
      }
      shown.profiles = [profile]
    }
    write(
      "dry run: nothing is changed\n" + CheckReport.text(config: shown, snapshot: heads, lid: lid, vendors: vendors))
    // Where the desktop has the layout, `apply` would be refused: the words check-config says.
    let desktop = deskDesktop(desk, heads, policy: config.desktop)
    if desktop.leavesLayout { write(desktop.summary + "\n") }
    return .success
  }

  private func sameFile(_ a: String, _ b: String) -> Bool {
    var (sa, sb) = (stat(), stat())
    guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return a == b }
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
  }
}
