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
    let snapshot = RandROutputManager(connection).snapshot(try connection.readTopology(options))
    let heads = try snapshot.heads(named: args.positionals)
    if args.has("--json") {
      write(withBackend(TopologyReport.modesJSON(heads), .x11).serialized() + "\n")
    } else {
      write(TopologyReport.modesText(heads, in: snapshot))
    }
    return .success
  }

  private func runWayland(_ args: Arguments) throws -> ExitStatus {
    let manager = try connectWayland(args)
    // The bridge's bounds (one head a name, at most 1024 modes a head), as the daemon reads.
    let snapshot = try manager.heads(probe: args.has("--probe")).bounded().snapshot
    let heads = try snapshot.heads(named: args.positionals)
    if args.has("--json") {
      write(withBackend(TopologyReport.modesJSON(heads), .wayland, server: manager.serverName).serialized() + "\n")
    } else {
      write(HeadReport.modesText(heads, snapshot))
    }
    return .success
  }
}
