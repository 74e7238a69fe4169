import DisplayCLI
import DisplayKit
import DisplayService

#if canImport(Glibc)
  import Glibc
#endif

let commands: [String: Subcommand] = [
  "outputs": OutputsCommand(), "modes": ModesCommand(), "watch": WatchCommand(),
  "edid": EdidCommand(), "run": RunCommand(), "check-config": CheckConfigCommand(),
  "screenshot": ScreenshotCommand(), "status": StatusCommand(), "reload": ReloadCommand(),
  "identify": IdentifyCommand(),
]

let argv = Array(CommandLine.arguments.dropFirst())
exit(dispatch(argv, commands: commands))
