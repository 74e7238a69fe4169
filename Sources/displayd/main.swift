import DisplayCLI
import DisplayModel
import DisplayService

#if canImport(Glibc)
  import Glibc
#endif

/// Every command, once: the dispatch table, the usage line and `--help` come from this list
/// (HelpTests checks that the shell completions list the same).
let commands: [CommandEntry] = [
  CommandEntry("run", "the display manager: a mode, a place and a window for every monitor") { RunCommand() },
  CommandEntry("status", "what the running daemon manages (through its control socket)") { StatusCommand() },
  CommandEntry("reload", "make the running daemon read its config again") { ReloadCommand() },
  CommandEntry("apply", "arrange the desk once as the daemon would at start, and exit") { ApplyCommand() },
  CommandEntry("check-config", "validate the config and show what each monitor would get") { CheckConfigCommand() },
  CommandEntry("outputs", "list every RandR output with its state") { OutputsCommand() },
  CommandEntry("modes", "list the modes of connected (or named) outputs") { ModesCommand() },
  CommandEntry("watch", "print one line per hot-plug event until interrupted") { WatchCommand() },
  CommandEntry("edid", "decode EDID files, or the EDID of a connected output") { EdidCommand() },
  CommandEntry("screenshot", "save what the screen (or one output) shows as a PNG") { ScreenshotCommand() },
  CommandEntry("identify", "show each lit output's name, monitor and mode on it for a few seconds") {
    IdentifyCommand()
  },
  CommandEntry(
    "profile", "list layout profiles, switch to one, save the current layout, import autorandr's or kanshi's"
  ) { ProfileCommand() },
]

let argv = Array(CommandLine.arguments.dropFirst())
exit(dispatch(argv, commands: commands))
