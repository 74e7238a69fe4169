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
    let backend = try openBackend(args, spec, log: Logger(level: .error))
    // The manager's heads as the server gives them (the listing bounds what it prints).
    let snapshot = try backend.layout.manager.heads(ReadOptions(probe: args.has("--probe")))
    write(HeadListing(backend).outputs(snapshot, json: args.has("--json")))
    return .success
  }
}
