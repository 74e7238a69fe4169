import DisplayModel
import DisplayService
import DisplaySupport

/// What `displayd profile ...` asks for.
public enum ProfileAction: Equatable, Sendable {
  /// `profile list [--json]`.
  case list(json: Bool)
  /// `profile switch NAME`.
  case switchTo(String)
  /// `profile switch --layout NAME`: a built-in layout.
  case switchLayout(BuiltinLayout)
  /// `profile switch --auto`: automatic choice again.
  case switchAutomatic
  /// `profile cycle`: the next matching profile or built-in layout.
  case cycle
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
    "usage: displayd profile <list [--json] | switch NAME | switch --layout LAYOUT | switch --auto | cycle"
    + " | save NAME [--write] | import autorandr|kanshi [PATH] [--write]> [--display D]"

  public static let spec = CommandSpec(
    name: "profile", usage: usage,
    help: """
      Layout profiles (the config's `profiles`).

        list         each profile, whether it matches the monitors present now (and why not),
                     and the one in force; from the running daemon, else from the default
                     config and the display as it is
        switch NAME  asks the running daemon to put the desk in profile NAME; refused, with
                     the reason, when it does not match the monitors present
          --layout LAYOUT
                     a built-in layout computed from the monitors present instead:
                     extend-right, extend-left, extend-above (every monitor lit, in a row
                     from main that way), mirror (every monitor shows main's area),
                     external-only (the built-in panel off), main-only (the others off)
          --auto     automatic choice again at once, putting back what the choices by
                     hand changed (else it resumes when the monitors or the lid change)
        cycle        the next matching profile (config order), then built-in layout
                     (the order above), wrapping around: for a key binding
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
        --display D  the X display (default: $DISPLAY), or the Wayland socket of the daemon
                     to ask; without it, where $WAYLAND_DISPLAY is a wlroots compositor,
                     save and list read its heads (matched by make, model and serial)

      Exit status: 0 success, 1 a refused switch or cycle, a failed reload or a profile that
      cannot be imported (nothing written), 64 usage error, 69 no daemon (switch, cycle) or no
      X server, 78 bad config or a name already taken.
      """,
    flags: ["--json", "--write", "--auto"], options: ["--display", "--layout"], maxPositionals: 3)

  /// The action `args` (parsed with `spec`) names; a usage error when the words do not fit.
  public static func action(_ args: Arguments) throws(UsageError) -> ProfileAction {
    guard let verb = args.positionals.first else { throw UsageError("missing profile command", usage: usage) }
    let rest = Array(args.positionals.dropFirst())
    let action: ProfileAction
    switch verb {
    case "list":
      if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'", usage: usage) }
      action = .list(json: args.has("--json"))
    case "switch" where args.has("--auto") || args["--layout"] != nil:
      action = try switchBuiltin(args, rest)
    case "switch", "save":
      guard let name = rest.first else { throw UsageError("profile \(verb) needs a profile NAME", usage: usage) }
      guard !name.isEmpty else { throw UsageError("the profile NAME is empty", usage: usage) }
      if let extra = rest.dropFirst().first { throw UsageError("unexpected argument '\(extra)'", usage: usage) }
      action = verb == "switch" ? .switchTo(name) : .save(name: name, write: args.has("--write"))
    case "cycle":
      if let extra = rest.first { throw UsageError("unexpected argument '\(extra)'", usage: usage) }
      action = .cycle
    case "import":
      guard let word = rest.first else { throw UsageError("profile import needs autorandr or kanshi", usage: usage) }
      guard let tool = ImportTool(rawValue: word) else {
        throw UsageError("cannot import from '\(word)' (autorandr, kanshi)", usage: usage)
      }
      if let path = rest.dropFirst().first, path.isEmpty { throw UsageError("the PATH is empty", usage: usage) }
      action = .importFrom(tool, path: rest.dropFirst().first, write: args.has("--write"))
    default:
      throw UsageError("unknown profile command '\(verb)' (list, switch, cycle, save, import)", usage: usage)
    }
    if args.has("--auto") || args["--layout"] != nil, verb != "switch" {
      throw UsageError("--layout and --auto go with profile switch", usage: usage)
    }
    if args.has("--json"), verb != "list" { throw UsageError("--json goes with profile list", usage: usage) }
    if args.has("--write"), verb != "save" && verb != "import" {
      throw UsageError("--write goes with profile save or import", usage: usage)
    }
    return action
  }

  /// `switch --layout LAYOUT` or `switch --auto`, alone.
  static func switchBuiltin(_ args: Arguments, _ rest: [String]) throws(UsageError) -> ProfileAction {
    if let extra = rest.first {
      throw UsageError("profile switch takes a NAME, --layout or --auto, not '\(extra)' as well", usage: usage)
    }
    guard let name = args["--layout"] else { return .switchAutomatic }
    guard !args.has("--auto") else { throw UsageError("--layout and --auto exclude each other", usage: usage) }
    guard let layout = BuiltinLayout(rawValue: name) else {
      throw UsageError("unknown layout '\(name)' (layouts: \(BuiltinLayout.names))", usage: usage)
    }
    return .switchLayout(layout)
  }
}
