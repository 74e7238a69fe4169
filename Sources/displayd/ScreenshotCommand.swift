import DisplayCLI
import DisplayModel
import DisplayPorts
import DisplayService
import DisplaySupport

struct ScreenshotCommand: Subcommand {
  let spec = CommandSpec(
    name: "screenshot", usage: "usage: displayd screenshot FILE.png [--output NAME] [--display D] [--backend B]",
    help: """
      Saves what the screen shows as a PNG: the whole screen, or one output's rectangle. On
      Wayland each output is copied through screencopy (without the pointer) and the desk
      composed at the outputs' logical places, at the pixels of its densest output.

        --output NAME  only this output (on Wayland: its own pixels, turned as shown)
        --display D    the X display (default: $DISPLAY), or the Wayland socket
      \(backendHelp)
      """,
    options: ["--output", displayOption, backendOption], maxPositionals: 1)

  func run(_ args: Arguments) throws -> ExitStatus {
    guard let path = args.positionals.first else { throw UsageError("no file given", usage: spec.usage) }
    let backend = try openBackend(args, spec, log: Logger(level: .error))
    guard let screenshots = backend.facilities.screenshots else {
      printError("this display server gives no pictures of its desk")
      return .failure
    }
    let snapshot = try backend.layout.manager.heads(ReadOptions(properties: false))
    var only: Head?
    if let name = args["--output"] {
      guard let head = snapshot.head(named: name) else {
        throw DisplayError.unknownOutput(name: name, available: snapshot.heads.map(\.name))
      }
      guard head.rect != nil else {
        printError("output \(name) is not showing anything")
        return .failure
      }
      only = head
    }
    switch try screenshots.writeScreenshot(snapshot, only: only, to: path) {
    case .success(let line): write(line + "\n")
    case .failure(let failure):
      printError(failure.message)
      return .failure
    }
    return .success
  }
}
