import DisplayKit
import DisplayService

#if canImport(Glibc)
  import Glibc
#endif

// Only the command asked for is made: each one's argument spec holds sets and strings, and a
// dictionary of all ten was built (and its types instantiated) at every start (issue 11).
func command(named name: String) -> Subcommand? {
  switch name {
  case "outputs": OutputsCommand()
  case "modes": ModesCommand()
  case "watch": WatchCommand()
  case "edid": EdidCommand()
  case "run": RunCommand()
  case "check-config": CheckConfigCommand()
  case "screenshot": ScreenshotCommand()
  case "status": StatusCommand()
  case "reload": ReloadCommand()
  case "identify": IdentifyCommand()
  default: nil
  }
}

let argv = Array(CommandLine.arguments.dropFirst())
exit(dispatch(argv, command: command(named:)))
