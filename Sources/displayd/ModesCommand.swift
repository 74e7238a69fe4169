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
    let backend = try openBackend(args, spec, log: Logger(level: .error))
    // No EDIDs to read for modes; the bridge's bounds (one head a name, at most 1024 modes a
    // head), as the daemon reads.
    let options = ReadOptions(probe: args.has("--probe"), properties: false)
    let snapshot = try backend.layout.manager.heads(options).bounded().snapshot
    let heads = try snapshot.heads(named: args.positionals)
    write(HeadListing(backend).modes(heads, in: snapshot, json: args.has("--json")))
    return .success
  }
}
