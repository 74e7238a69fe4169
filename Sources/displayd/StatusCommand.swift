import DisplayCLI
import DisplayModel
import DisplayService
import DisplaySupport

struct StatusCommand: Subcommand {
  let spec = CommandSpec(
    name: "status", usage: "usage: displayd status [--json] [--display D]",
    help: """
      Asks the running daemon (through its control socket) what it manages: each monitor's
      output, identity, mode, window, content and since when, and its counters.

        --json       the daemon's answer as one JSON object
        --display D  the X display whose daemon to ask (default: $DISPLAY)
      """,
    flags: ["--json"], options: [displayOption])

  func run(_ args: Arguments) throws -> ExitStatus {
    let client = try DaemonClient.connect(display: args.display)
    let (line, answer) = try client.status()
    write(args.has("--json") ? line + "\n" : StatusReport.text(answer))
    return .success
  }
}

struct ReloadCommand: Subcommand {
  let spec = CommandSpec(
    name: "reload", usage: "usage: displayd reload [--display D]",
    help: """
      Asks the running daemon to read its config again. A bad config is reported here and in
      the daemon's log, and the daemon keeps the previous one.

        --display D  the X display or Wayland socket whose daemon to ask (default: $DISPLAY,
                     else $WAYLAND_DISPLAY)
      """,
    options: [displayOption])

  func run(_ args: Arguments) throws -> ExitStatus {
    let answer: [String: JSON] = try DaemonClient.connect(display: args.display).request("reload")
    if case .string(let error)? = answer["error"] {
      printError("reload failed, the daemon keeps its previous config: \(error)")
      return .config
    }
    write("reloaded\n")
    return .success
  }
}
