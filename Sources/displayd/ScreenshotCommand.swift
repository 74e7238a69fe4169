import DisplayCLI
import DisplayModel
import DisplayService
import DisplayWayland
import DisplayX11

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
    if try args.backend(spec) == .wayland { return try runWayland(args, path: path) }
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

  /// Every lit head (or the one named) through screencopy, composed as `grim` does.
  private func runWayland(_ args: Arguments, path: String) throws -> ExitStatus {
    let surfaces = try WaylandSurfaces(socket: args.display)
    let heads = try WaylandOutputManager(sharing: surfaces).heads(probe: false).heads
    var shown = heads.filter { $0.rect != nil }
    if let name = args["--output"] {
      guard let head = heads.first(where: { $0.name == name }) else {
        throw DisplayError.unknownOutput(name: name, available: heads.map(\.name))
      }
      guard head.rect != nil else {
        printError("output \(name) is not showing anything")
        return .failure
      }
      shown = [head]
    }
    var parts: [DeskPicture.Part] = []
    for head in shown {
      guard let rect = head.rect else { continue }
      parts.append(.init(pixels: try surfaces.capture(output: head.name), transform: head.transform, rect: rect))
    }
    guard let desk = DeskPicture(parts) else {
      printError(parts.isEmpty ? "no output is showing anything" : "the desk is too large for one PNG")
      return .failure
    }
    guard desk.writePNG(to: path) else {
      printError("could not write \(desk.width)x\(desk.height) pixels into \(path)")
      return .failure
    }
    let size =
      desk.width == desk.bounds.width && desk.height == desk.bounds.height
      ? "" : " (\(desk.width)x\(desk.height) pixels)"
    write("\(path): \(desk.bounds)\(size)\n")
    return .success
  }
}
