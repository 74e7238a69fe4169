import DisplayCLI
import DisplayModel
import DisplayService
import DisplayX11

struct CheckConfigCommand: Subcommand {
  let spec = CommandSpec(
    name: "check-config", usage: "usage: displayd check-config [FILE] [--display D]",
    help: """
      Validates a config file (default: the one `displayd run` reads) and, when an X server
      is reachable, prints the profile that would be chosen now (and why the others are
      not) and what each connected monitor would get. Exit status 78 when the
      config is wrong, with the file, the line or key, and what was expected.

        --display D  the X display (default: $DISPLAY)
      """,
    options: [displayOption], maxPositionals: 1)

  func run(_ args: Arguments) throws -> ExitStatus {
    let source = ConfigSource(explicit: args.positionals.first)
    let config = try source.load(log: nil)
    write("\(source.path ?? "built-in defaults"): OK\n")
    guard let connection = try? connect(args) else {
      write("(no X display reachable: monitors and the profile that would be chosen not shown)\n")
      return .success
    }
    // Probe as the daemon does at start-up, so both see the same monitors.
    let topology = try connection.readTopology(ReadOptions(probe: true))
    // By the daemon's rule: logind is asked only when the config uses the lid.
    let lid = config.lid(reading: currentLidState)
    write(CheckReport.text(config: config, topology: topology, lid: lid))
    var desktop = currentDesktopSignals()
    desktop.xwaylandExtension = connection.hasExtension("XWAYLAND")
    desktop.outputNames = topology.outputs.map(\.name)
    write(DesktopState(manager: desktop.manager, policy: config.desktop).summary + "\n")
    return .success
  }
}
