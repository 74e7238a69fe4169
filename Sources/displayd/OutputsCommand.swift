import DisplayCLI
import DisplayModel
import DisplayService
import DisplaySupport
import DisplayX11

struct OutputsCommand: Subcommand {
  let spec = CommandSpec(
    name: "outputs", usage: "usage: displayd outputs [--json] [--probe] [--display D]",
    help: """
      Lists every RandR output: connection, primary and main, geometry, current mode,
      physical size and, where the output has an EDID, the monitor's identity.

        --json       one JSON object: {"screen": {...}, "outputs": [...]}
        --probe      ask the server to re-probe connectors first (slow on real hardware)
        --display D  the X display (default: $DISPLAY)
      """,
    flags: ["--json", "--probe"], options: [displayOption])

  func run(_ args: Arguments) throws -> ExitStatus {
    let connection = try connect(args)
    let topology = try connection.readTopology(ReadOptions(probe: args.has("--probe")))
    if args.has("--json") {
      write(TopologyReport.outputsJSON(topology).serialized() + "\n")
    } else {
      write(TopologyReport.outputsText(topology))
    }
    return .success
  }
}
