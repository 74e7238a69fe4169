import DisplayCLI
import DisplayModel
import DisplayService
import DisplaySupport
import DisplayX11

#if canImport(Glibc)
  import Glibc
#endif

// The one place the version is written: scripts/version reads this line for the Debian package.
let version = "0.1.0"

/// One command of the tool as `--help` lists it.
struct CommandEntry {
  var name: String
  var summary: String
  // Made only when asked for: each command's argument spec holds sets and strings, and making
  // all of them (and instantiating their types) at every start cost start-up time.
  var make: () -> Subcommand
  init(_ name: String, _ summary: String, _ make: @escaping () -> Subcommand) {
    self.name = name
    self.summary = summary
    self.make = make
  }
}

/// `usage: displayd <run|status|...> [options]`.
func toolUsage(_ commands: [CommandEntry]) -> String {
  "usage: displayd <" + commands.map(\.name).joined(separator: "|") + "> [options]  (displayd COMMAND --help)"
}

/// The tool's `--help` after the usage line: the commands in one aligned column.
func toolHelp(_ commands: [CommandEntry]) -> String {
  let width = (commands.map(\.name.count).max() ?? 0) + 2
  let list = commands.map { "  " + $0.name + String(repeating: " ", count: width - $0.name.count) + $0.summary }
  return """
    displayd: a multi-display manager for X11.

    Commands:
    \(list.joined(separator: "\n"))

    Options:
      --help      show this help (also after a command)
      --version   print the version

    Exit status: 0 success, 1 failure, 64 usage error, 69 X server unavailable,
    78 bad config.
    """
}

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

/// Runs the subcommand named by `argv[0]` and maps every error to an exit status.
func dispatch(_ argv: [String], commands: [CommandEntry]) -> Int32 {
  // Made only for the answers that print it: the key path and the join cost every query
  // start-up time.
  var usage: String { toolUsage(commands) }
  guard let first = argv.first else { return usageFailure("missing command", usage) }
  switch first {
  case "--help", "-h", "help":
    write(usage + "\n\n" + toolHelp(commands) + "\n")
    return ExitStatus.success.rawValue
  case "--version":
    write("displayd \(version)\n")
    return ExitStatus.success.rawValue
  default: break
  }
  guard let command = commands.first(where: { $0.name == first })?.make() else {
    return usageFailure("unknown command '\(first)'", usage)
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
    case .cannotOpen, .extensionMissing, .compositor, .noDisplayServer: return ExitStatus.unavailable.rawValue
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

func printError(_ message: String) { Console.err("displayd: \(printable(message))\n") }

/// Writes to standard output at once.
func write(_ text: String) { Console.out(text) }

/// Opens the display named by `--display`, else `$DISPLAY`. When that fails after the
/// automatic choice passed over a `$WAYLAND_DISPLAY` compositor, the error says why each
/// was not used.
func connect(_ args: Arguments) throws -> XConnection {
  do {
    return try XConnection(name: args.display)
  } catch let error as DisplayError {
    guard case .cannotOpen(let display) = error, let wayland = args.waylandPassedOver() else { throw error }
    throw DisplayError.noDisplayServer(
      tried: [wayland, display.isEmpty ? "DISPLAY is not set" : "cannot open X display '\(display)'"])
  }
}
