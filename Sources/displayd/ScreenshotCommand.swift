import DisplayCLI
import DisplayModel
import DisplayService
import DisplayX11

struct ScreenshotCommand: Subcommand {
  let spec = CommandSpec(
    name: "screenshot", usage: "usage: displayd screenshot FILE.png [--output NAME] [--display D]",
    help: """
      Saves what the screen shows as a PNG: the whole screen, or one output's rectangle.

        --output NAME  only this output's rectangle
        --display D    the X display (default: $DISPLAY)
      """,
    options: ["--output", displayOption], maxPositionals: 1)

  func run(_ args: Arguments) throws -> ExitStatus {
    guard let path = args.positionals.first else { throw UsageError("no file given", usage: spec.usage) }
    let connection = try connect(args)
    let topology = try connection.readTopology(ReadOptions(properties: false))
    var rect = Rect(x: 0, y: 0, width: topology.screen.width, height: topology.screen.height)
    if let name = args["--output"] {
      let output = try topology.outputs(named: [name])[0]
      guard let geometry = topology.geometry(of: output) else {
        printError("output \(name) is not showing anything")
        return .failure
      }
      rect = geometry
    }
    guard let image = connection.capture(rect), image.writePNG(to: path) else {
      printError("could not capture \(rect) into \(path)")
      return .failure
    }
    write("\(path): \(rect)\n")
    return .success
  }
}
