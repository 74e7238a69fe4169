import DisplayCLI
import DisplayKit
import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import DisplayWayland
import DisplayX11

#if canImport(Glibc)
  import Glibc
#endif

struct WatchCommand: Subcommand {
  let spec = CommandSpec(
    name: "watch", usage: "usage: displayd watch [--json] [--display D] [--backend B]",
    help: """
      Prints one line per hot-plug event as it happens: connected, disconnected,
      mode-changed, primary-changed, edid-changed (and through a running daemon,
      disconnect-pending: a monitor gone, waiting for disconnect_grace). Runs until SIGINT
      or SIGTERM (status 0). Costs no wake-ups while nothing changes.

        --json       one JSON object per line: {"event", "output", "time", ...state}
        --display D  the X display (default: $DISPLAY), or the Wayland socket
      \(backendHelp)
      """,
    flags: ["--json"], options: [displayOption, backendOption])

  func run(_ args: Arguments) throws -> ExitStatus {
    let stop = try SignalWatch([SIGINT, SIGTERM])
    let json = args.has("--json")
    let backend = try openBackend(args, spec, log: Logger(level: .error))
    if let daemon = try DaemonClient.open(display: backend.display) {
      return try watchThroughDaemon(daemon, stop: stop, json: json)
    }
    let watcher = try HeadWatcher(source: backend.changes, layout: backend.layout)
    Console.err("displayd: watching \(backend.description)\n")
    _ = try watcher.run(stop: stop) { events, heads in
      write(Self.lines(events, in: heads, json: json))
      return true
    }
    return .success
  }

  /// One line per event, each ended by a newline: its record (`--json`) or its words.
  static func lines(_ events: [HeadEvent], in heads: HeadSnapshot, json: Bool) -> String {
    var text = ""
    for event in events {
      text += json ? JSON.record(EventRecord(event, in: heads)).serialized() : EventReport.text(event)
      text += "\n"
    }
    return text
  }

  /// The daemon already watches: subscribe to its event stream (the same lines).
  private func watchThroughDaemon(_ daemon: DaemonClient, stop: SignalWatch, json: Bool) throws -> ExitStatus {
    let _: [String: JSON] = try daemon.request("subscribe")
    Console.err("displayd: watching through the running daemon\n")
    while true {
      let ready = try waitReadable([daemon.fileDescriptor, stop.fileDescriptor])
      if ready.contains(1), stop.next() != nil { return .success }
      guard ready.contains(0) else { continue }
      guard let line = daemon.nextRawLine() else {
        printError("the daemon closed the connection")
        return .failure
      }
      if json {
        write(String(decoding: line, as: UTF8.self) + "\n")
      } else if let event = try? EventRecord.decode(line) {
        write(EventReport.text(event) + "\n")
      }
    }
  }
}
