import DisplayCLI
import DisplayModel
import DisplayService
import DisplaySupport

struct CheckConfigCommand: Subcommand {
  let spec = CommandSpec(
    name: "check-config", usage: "usage: displayd check-config [FILE] [--display D] [--backend B]",
    help: """
      Validates a config file (default: the one `displayd run` reads) and, when an X server
      or a wlroots compositor is reachable, prints the profile that would be chosen now (and
      why the others are not) and what each connected monitor would get. Exit status 78 when
      the config is wrong, with the file, the line or key, and what was expected.

        --display D  the X display (default: $DISPLAY), or the Wayland socket
      \(backendHelp)
      """,
    options: [displayOption, backendOption], maxPositionals: 1)

  func run(_ args: Arguments) throws -> ExitStatus {
    let source = ConfigSource(explicit: args.positionals.first)
    let config = try source.load(log: nil)
    // A bad `--backend` is a usage error even with a good config.
    let backend = try args.backend(spec)
    write("\(source.path ?? "built-in defaults"): OK\n")
    let desk: DisplayBackend
    do {
      desk = try openBackend(args, spec, log: Logger(level: .error))
    } catch {
      write(
        "(\(backend.unreachable): \(printable("\(error)")); monitors and the profile that would be chosen not shown)\n")
      return .success
    }
    // Probe as the daemon does at start-up, so both see the same monitors.
    let heads = try deskHeads(desk.layout, probe: true)
    // By the daemon's rule: logind is asked only when the config uses the lid.
    let lid = config.lid(reading: currentLidState)
    write(CheckReport.text(config: config, snapshot: heads, lid: lid, vendors: desk.layout.vendors(of: heads)))
    write(deskDesktop(desk, heads, policy: config.desktop).summary + "\n")
    return .success
  }
}
