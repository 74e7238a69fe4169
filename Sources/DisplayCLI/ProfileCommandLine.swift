import DisplayKit
import DisplayService

/// What `displayd profile ...` asks for.
public enum ProfileAction: Equatable, Sendable {
  /// `profile list [--json]`.
  case list(json: Bool)
  /// `profile switch NAME`.
  case switchTo(String)
  /// `profile save NAME [--write]`.
  case save(name: String, write: Bool)
  /// `profile import autorandr|kanshi [PATH] [--write]`.
  case importFrom(ImportTool, path: String?, write: Bool)
}

/// The tools `profile import` reads.
public enum ImportTool: String, Sendable, CaseIterable {
  case autorandr, kanshi
}

/// The `profile` command's line: its spec and the action it names. Pure.
public enum ProfileCommandLine {
  public static let usage =
    "usage: displayd profile <list [--json] | switch NAME | save NAME [--write]"
    + " | import autorandr|kanshi [PATH] [--write]> [--display D]"

  public static let spec = CommandSpec(
    name: "profile", usage: usage,
    help: """
      Layout profiles (the config's `profiles`).

        list         each profile, whether it matches the monitors present now (and why not),
                     and the one in force; from the running daemon, else from the default
                     config and the display as it is
        switch NAME  asks the running daemon to put the desk in profile NAME; refused, with
                     the reason, when it does not match the monitors present
        save NAME    prints the current layout as one profile, a JSON5 object to paste into
                     `profiles: [ ... ]`, and nothing else
          --write    appends it to the config file instead (the running daemon's, else the
                     default path), keeping the rest of the file as it is, and makes the
                     daemon reload
        import autorandr [DIR]
                     prints autorandr's saved profiles (DIR: default
                     $XDG_CONFIG_HOME/autorandr, else ~/.config/autorandr) as displayd
                     profiles, each a JSON5 object followed by a comma, to paste into
                     `profiles: [ ... ]`; what is left out is noted on stderr
        import kanshi [FILE]
                     the same for a kanshi config (default $XDG_CONFIG_HOME/kanshi/config,
                     else ~/.config/kanshi/config)
          --write    (save, import) appends to the config file instead
        --json       (list) the answer as one JSON object
        --display D  the X display (default: $DISPLAY)

      Exit status: 0 success, 1 a refused switch, a failed reload or a profile that cannot
      be imported (nothing written), 64 usage error, 69 no daemon (switch) or no X server,
      78 bad config or a name already taken.
      """,
    flags: ["--json", "--write"], options: ["--display"], maxPositionals: 3)

  /// The action `args` (parsed with `spec`) names; a usage error when the words do not fit.
  public static func action(_ args: Arguments) throws(UsageError) -> ProfileAction {
    guard let verb = args.positionals.first else { throw UsageError("missing profile command", usage: usage) }
    let rest = Array(args.positionals.dropFirst())
    let action: ProfileAction
    switch verb {
    case "list":
      if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'", usage: usage) }
      action = .list(json: args.has("--json"))
    case "switch", "save":
      guard let name = rest.first else { throw UsageError("profile \(verb) needs a profile NAME", usage: usage) }
      guard !name.isEmpty else { throw UsageError("the profile NAME is empty", usage: usage) }
      if let extra = rest.dropFirst().first { throw UsageError("unexpected argument '\(extra)'", usage: usage) }
      action = verb == "switch" ? .switchTo(name) : .save(name: name, write: args.has("--write"))
    case "import":
      guard let word = rest.first else { throw UsageError("profile import needs autorandr or kanshi", usage: usage) }
      guard let tool = ImportTool(rawValue: word) else {
        throw UsageError("cannot import from '\(word)' (autorandr, kanshi)", usage: usage)
      }
      if let path = rest.dropFirst().first, path.isEmpty { throw UsageError("the PATH is empty", usage: usage) }
      action = .importFrom(tool, path: rest.dropFirst().first, write: args.has("--write"))
    default:
      throw UsageError("unknown profile command '\(verb)' (list, switch, save, import)", usage: usage)
    }
    if args.has("--json"), verb != "list" { throw UsageError("--json goes with profile list", usage: usage) }
    if args.has("--write"), verb != "save" && verb != "import" {
      throw UsageError("--write goes with profile save or import", usage: usage)
    }
    return action
  }
}
