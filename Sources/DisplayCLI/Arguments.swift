/// Exit statuses of the `displayd` command (sysexits.h where one fits).
public enum ExitStatus: Int32, Sendable {
  case success = 0
  /// A runtime failure: an unknown output, an input that is not an EDID, ...
  case failure = 1
  /// EX_USAGE: the command line is wrong.
  case usage = 64
  /// EX_UNAVAILABLE: the X server cannot be opened.
  case unavailable = 69
  /// EX_CONFIG: the configuration is wrong.
  case config = 78
}

/// A command line that does not fit the subcommand's usage.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  public var message: String
  /// The usage line of the (sub)command, printed after the message.
  public var usage: String
  public init(_ message: String, usage: String) {
    self.message = message
    self.usage = usage
  }
  public var description: String { "\(message)\n\(usage)" }
}

/// What a subcommand accepts: boolean flags, options that take a value, positionals.
public struct CommandSpec: Sendable {
  public var name: String
  /// One line: `usage: displayd NAME ...`.
  public var usage: String
  /// The text of `--help` after the usage line.
  public var help: String
  public var flags: Set<String>
  public var options: Set<String>
  /// Maximum count of positional arguments; nil for any number.
  public var maxPositionals: Int?

  public init(
    name: String, usage: String, help: String, flags: Set<String> = [], options: Set<String> = [],
    maxPositionals: Int? = 0
  ) {
    self.name = name
    self.usage = usage
    self.help = help
    self.flags = flags
    self.options = options
    self.maxPositionals = maxPositionals
  }
}

/// A parsed command line: `--flag`, `--option VALUE` / `--option=VALUE`, positionals.
public struct Arguments: Equatable, Sendable {
  public var flags: Set<String> = []
  public var options: [String: String] = [:]
  public var positionals: [String] = []

  public func has(_ flag: String) -> Bool { flags.contains(flag) }
  public subscript(option: String) -> String? { options[option] }

  /// Parses `argv` (without the program and subcommand names) against `spec`. `--help` is
  /// always accepted; `--` ends the options.
  public init(_ argv: [String], spec: CommandSpec) throws(UsageError) {
    var rest = argv[...]
    while let arg = rest.popFirst() {
      if arg == "--" {
        positionals += rest
        break
      }
      guard arg.hasPrefix("-"), arg != "-" else {
        positionals.append(arg)
        continue
      }
      let (name, inlineValue) = Self.split(arg)
      if name == "--help" || name == "-h" {
        flags.insert("--help")
      } else if spec.flags.contains(name), inlineValue == nil {
        flags.insert(name)
      } else if spec.options.contains(name) {
        guard let value = inlineValue ?? rest.popFirst() else {
          throw UsageError("option \(name) needs a value", usage: spec.usage)
        }
        options[name] = value
      } else {
        throw UsageError("unknown option '\(arg)' for \(spec.name)", usage: spec.usage)
      }
    }
    if let max = spec.maxPositionals, positionals.count > max, !flags.contains("--help") {
      throw UsageError("unexpected argument '\(positionals[max])'", usage: spec.usage)
    }
  }

  private static func split(_ arg: String) -> (String, String?) {
    guard arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") else { return (arg, nil) }
    return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
  }
}
