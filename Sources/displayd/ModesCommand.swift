import DisplayCLI
import DisplayModel
import DisplayService
import DisplayX11

struct ModesCommand: Subcommand {
  let spec = CommandSpec(
    name: "modes", usage: "usage: displayd modes [OUTPUT...] [--json] [--probe] [--display D]",
    help: """
      Lists the modes of every connected output, or of the outputs named, marking the
      current mode with * and preferred ones with +, with refresh computed as xrandr does.

        --json       {"outputs": [{"name", "connected", "modes": [...]}]}
        --probe      ask the server to re-probe connectors first (slow on real hardware)
        --display D  the X display (default: $DISPLAY)
      """,
    flags: ["--json", "--probe"], options: [displayOption], maxPositionals: nil)

  func run(_ args: Arguments) throws -> ExitStatus {
    let connection = try connect(args)
    let options = ReadOptions(probe: args.has("--probe"), properties: false)
    let topology = try connection.readTopology(options)
    let outputs = try topology.outputs(named: args.positionals)
    if args.has("--json") {
      write(TopologyReport.modesJSON(outputs, in: topology).serialized() + "\n")
    } else {
      write(TopologyReport.modesText(outputs, in: topology))
    }
    return .success
  }
}
