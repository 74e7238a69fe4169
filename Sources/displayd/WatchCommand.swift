import DisplayKit

#if canImport(Glibc)
  import Glibc
#endif

struct WatchCommand: Subcommand {
  let spec = CommandSpec(
    name: "watch", usage: "usage: displayd watch [--json] [--display D]",
    help: """
      Prints one line per hot-plug event as it happens: connected, disconnected,
      mode-changed, primary-changed, edid-changed. Runs until SIGINT or SIGTERM (status 0).
      Costs no wake-ups while nothing changes.

        --json       one JSON object per line: {"event", "output", "time", ...state}
        --display D  the X display (default: $DISPLAY)
      """,
    flags: ["--json"], options: ["--display"])

  func run(_ args: Arguments) throws -> ExitStatus {
    let stop = try SignalWatch([SIGINT, SIGTERM])
    let connection = try connect(args)
    let watcher = try TopologyWatcher(connection: connection)
    let json = args.has("--json")
    Console.err("displayd: watching display \(connection.name)\n")
    _ = try watcher.run(stop: stop) { events, topology in
      var text = ""
      for event in events {
        text += json ? EventReport.json(event, in: topology).serialized() : EventReport.text(event)
        text += "\n"
      }
      write(text)
      return true
    }
    return .success
  }
}
