import DisplayCLI
import DisplayModel
import DisplayService
import DisplaySupport
import DisplayWayland
import DisplayX11

struct ModesCommand: Subcommand {
  let spec = CommandSpec(
    name: "modes", usage: "usage: displayd modes [OUTPUT...] [--json] [--probe] [--display D] [--backend B]",
    help: """
      Lists the modes of every connected output, or of the outputs named, marking the
      current mode with * and preferred ones with +, with refresh computed as xrandr does.

        --json       {"outputs": [{"name", "connected", "modes": [...]}]}
        --probe      ask the server to re-probe connectors first (slow on real hardware)
        --display D  the X display (default: $DISPLAY), or the Wayland socket
      \(backendHelp)
      """,
    flags: ["--json", "--probe"], options: [displayOption, backendOption], maxPositionals: nil)

  func run(_ args: Arguments) throws -> ExitStatus {
    if try args.backend(spec) == .wayland { return try runWayland(args) }
    let connection = try connect(args)
    let options = ReadOptions(probe: args.has("--probe"), properties: false)
    let topology = try connection.readTopology(options)
    if args.has("--json") {
      let heads = try RandROutputManager(connection).snapshot(topology).heads(named: args.positionals)
      write(withBackend(TopologyReport.modesJSON(heads), .x11).serialized() + "\n")
    } else {
      write(TopologyReport.modesText(try topology.outputs(named: args.positionals), in: topology))
    }
    return .success
  }

  private func runWayland(_ args: Arguments) throws -> ExitStatus {
    let manager = try connectWayland(args)
    let snapshot = try manager.heads(probe: args.has("--probe"))
    if args.has("--json") {
      // The bridge's bounds (one head a name, at most 1024 modes a head), as the daemon reads.
      let json = TopologyReport.modesJSON(try snapshot.bounded().snapshot.heads(named: args.positionals))
      write(withBackend(json, .wayland, server: manager.serverName).serialized() + "\n")
    } else {
      let topology = Topology(heads: snapshot)
      write(HeadReport.modesText(try topology.outputs(named: args.positionals), snapshot))
    }
    return .success
  }
}
