import DisplayCLI
import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport
import DisplayWayland
import DisplayX11

struct IdentifyCommand: Subcommand {
  let spec = CommandSpec(
    name: "identify", usage: "usage: displayd identify [--seconds N] [--display D] [--backend B]",
    help: """
      Shows a card on every lit output for N seconds: the output's name, a fifth of the
      monitor's height, with the monitor's name (from its EDID) and mode below. The cards
      never take focus or input and go away by themselves. Through the running daemon when
      there is one, else on its own; either way the command returns when they are gone. On
      Wayland the cards are overlay layer surfaces.

        --seconds N  how long, 1 to 600 (default: 3)
        --display D  the X display (default: $DISPLAY), or the Wayland socket
      \(backendHelp)
      """,
    options: ["--seconds", displayOption, backendOption])

  func run(_ args: Arguments) throws -> ExitStatus {
    var seconds = IdentifyDuration.defaultSeconds
    if let text = args["--seconds"] {
      guard let n = IdentifyDuration.parse(text) else {
        throw UsageError("--seconds: '\(text)' is not a whole number from 1 to 600", usage: spec.usage)
      }
      seconds = n
    }
    // A bad `--backend` is refused even where the daemon answers; the automatic choice is
    // made only without one (it connects to the compositor).
    if args[backendOption] != nil { _ = try args.backend(spec) }
    if let client = try DaemonClient.open(display: args.display) {
      let lines = try throughDaemon(client, seconds: seconds)
      guard !lines.isEmpty else {
        printError("no lit output to identify")
        return .failure
      }
      write(printableLines(lines))
      let timer = try DeadlineTimer()
      timer.arm(after: UInt64(seconds) * 1_000_000_000)
      while timer.isArmed, (try? pollDescriptors([(timer.fileDescriptor, pollIn)])) != nil { timer.acknowledge() }
      return .success
    }
    return try here(openBackend(args, spec, log: Logger(level: .error)), seconds: seconds)
  }

  /// The cards as surfaces of this process (overlay windows on X, overlay layer surfaces on
  /// a compositor), shown until the timer while the server's events are handled.
  private func here(_ backend: DisplayBackend, seconds: Int) throws -> ExitStatus {
    let heads = try backend.layout.read()
    let overlays = try IdentifyOverlays(surfaces: backend.surfaces())
    let (done, failures) = overlays.show(IdentifyCard.cards(in: heads), seconds: seconds)
    for failure in failures { printError(failure) }
    guard !done.isEmpty else {
      printError("no lit output to identify")
      return .failure
    }
    write(printableLines(done.map(\.summary)))
    let server = backend.changes
    while overlays.timer.isArmed {
      let socket = server.hasUnsent ? pollIn | pollOut : pollIn
      for (fd, _) in try pollDescriptors([(overlays.timer.fileDescriptor, pollIn), (server.fileDescriptor, socket)]) {
        guard fd == server.fileDescriptor else {
          overlays.timer.acknowledge()
          continue
        }
        server.flush()
        _ = try server.readAvailable()
        _ = try server.takeChanges {}
      }
    }
    overlays.remove()
    try server.sync()
    return .success
  }

  /// Asks the daemon to show the cards; returns a line per card it shows.
  private func throughDaemon(_ client: DaemonClient, seconds: Int) throws -> [String] {
    let answer = try client.request("identify", arguments: [("seconds", .int(seconds))]).members
    guard case .array(let outputs)? = answer["outputs"] else { return [] }
    if case .array(let errors)? = answer["errors"] {
      for case .string(let error) in errors { printError(error) }
    }
    return outputs.compactMap { item in
      guard case .object(let members) = item else { return nil }
      let fields = Dictionary(members, uniquingKeysWith: { a, _ in a })
      return ["output", "monitor", "mode"].compactMap { key in
        if case .string(let s)? = fields[key] { return s }
        return nil
      }.joined(separator: "  ")
    }
  }
}
