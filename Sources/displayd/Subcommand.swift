import DisplayKit
import DisplayService

#if canImport(Glibc)
  import Glibc
#endif

let version = "0.1.0"

let toolUsage =
  "usage: displayd <run|status|reload|check-config|outputs|modes|watch|edid|screenshot|identify> [options]  (displayd COMMAND --help)"

let toolHelp = """
  displayd: a multi-display manager for X11.

  Commands:
    run           the display manager: a mode, a place and a window for every monitor
    status        what the running daemon manages (through its control socket)
    reload        make the running daemon read its config again
    check-config  validate the config and show what each monitor would get
    outputs       list every RandR output with its state
    modes         list the modes of connected (or named) outputs
    watch         print one line per hot-plug event until interrupted
    edid          decode EDID files, or the EDID of a connected output
    screenshot    save what the screen (or one output) shows as a PNG
    identify      show each lit output's name, monitor and mode on it for a few seconds

  Options:
    --help      show this help (also after a command)
    --version   print the version

  Exit status: 0 success, 1 failure, 64 usage error, 69 X server unavailable,
  78 bad config.
  """

/// `--display D`: the X display, for every command that talks to one (declared here once).
let displayOption = "--display"

extension Arguments {
  /// The `--display` value, nil for `$DISPLAY`.
  var display: String? { self[displayOption] }
}

/// One subcommand of the tool: its argument spec and what it does.
protocol Subcommand {
  var spec: CommandSpec { get }
  func run(_ args: Arguments) throws -> ExitStatus
}

/// Runs the subcommand named by `argv[0]` (found by `command`) and maps every error to an exit
/// status.
func dispatch(_ argv: [String], command named: (String) -> Subcommand?) -> Int32 {
  guard let first = argv.first else { return usageFailure("missing command", toolUsage) }
  switch first {
  case "--help", "-h", "help":
    write(toolUsage + "\n\n" + toolHelp + "\n")
    return ExitStatus.success.rawValue
  case "--version":
    write("displayd \(version)\n")
    return ExitStatus.success.rawValue
  default: break
  }
  guard let command = named(first) else {
    return usageFailure("unknown command '\(first)'", toolUsage)
  }
  do {
    let args = try Arguments(Array(argv.dropFirst()), spec: command.spec)
    if args.has("--help") {
      write(command.spec.usage + "\n\n" + command.spec.help + "\n")
      return ExitStatus.success.rawValue
    }
    return try command.run(args).rawValue
  } catch let error as UsageError {
    return usageFailure(error.message, error.usage)
  } catch let error as DaemonClient.Failure {
    printError(error.description)
    return ExitStatus.unavailable.rawValue
  } catch let error as ControlError {
    printError(error.description)
    return ExitStatus.failure.rawValue
  } catch let error as ConfigError {
    printError(error.description)
    return ExitStatus.config.rawValue
  } catch let error as DisplayError {
    printError(error.description)
    switch error {
    case .cannotOpen, .randrMissing: return ExitStatus.unavailable.rawValue
    default: return ExitStatus.failure.rawValue
    }
  } catch {
    printError("\(error)")
    return ExitStatus.failure.rawValue
  }
}

func usageFailure(_ message: String, _ usage: String) -> Int32 {
  printError(message)
  Console.err(usage + "\n")
  return ExitStatus.usage.rawValue
}

func printError(_ message: String) { Console.err("displayd: \(message)\n") }

/// Writes to standard output at once.
func write(_ text: String) { Console.out(text) }

/// Opens the display named by `--display`, else `$DISPLAY`.
func connect(_ args: Arguments) throws -> XConnection {
  try XConnection(name: args.display)
}
