import DisplayCLI
import DisplayModel
import DisplayService
import DisplaySupport
import DisplayWayland
import DisplayX11

struct OutputsCommand: Subcommand {
  let spec = CommandSpec(
    name: "outputs", usage: "usage: displayd outputs [--json] [--probe] [--display D] [--backend B]",
    help: """
      Lists every RandR output (on Wayland every head): connection, primary and main,
      geometry, current mode, physical size and, where the output has an EDID, the monitor's
      identity (on Wayland: make, model and serial, and a scale other than 1).

        --json       one JSON object: {"screen": {...}, "outputs": [...]}
        --probe      ask the server to re-probe connectors first (slow on real hardware)
        --display D  the X display (default: $DISPLAY), or the Wayland socket
      \(backendHelp)
      """,
    flags: ["--json", "--probe"], options: [displayOption, backendOption])

  func run(_ args: Arguments) throws -> ExitStatus {
    if try args.backend(spec) == .wayland { return try runWayland(args) }
    let connection = try connect(args)
    let topology = try connection.readTopology(ReadOptions(probe: args.has("--probe")))
    let heads = RandROutputManager(connection).snapshot(topology)
    if args.has("--json") {
      write(withBackend(TopologyReport.outputsJSON(heads), .x11).serialized() + "\n")
    } else {
      write(TopologyReport.outputsText(heads))
    }
    return .success
  }

  private func runWayland(_ args: Arguments) throws -> ExitStatus {
    let manager = try connectWayland(args)
    let snapshot = try manager.heads(probe: args.has("--probe"))
    if args.has("--json") {
      write(withBackend(HeadReport.outputsJSON(snapshot), .wayland, server: manager.serverName).serialized() + "\n")
    } else {
      write(HeadReport.outputsText(snapshot, server: manager.serverName))
    }
    return .success
  }
}
