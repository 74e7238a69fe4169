import DisplayCLI
import DisplayModel
import DisplayService
import DisplaySupport
import DisplayX11

struct EdidCommand: Subcommand {
  let spec = CommandSpec(
    name: "edid", usage: "usage: displayd edid FILE... [--json] | displayd edid --output NAME [--json] [--display D]",
    help: """
      Decodes EDID blobs: files, or the EDID property of a connected output.
      Text reads like a short edid-decode; defects that leave the EDID decodable are
      listed as warnings. An input that is not an EDID is reported and the status is 1;
      the other inputs are still decoded.

        --json         one JSON object per line, one per input
        --output NAME  read the EDID property of output NAME
        --display D    the X display (default: $DISPLAY)
      """,
    flags: ["--json"], options: ["--output", displayOption], maxPositionals: nil)

  func run(_ args: Arguments) throws -> ExitStatus {
    let json = args.has("--json")
    if let name = args["--output"] {
      guard args.positionals.isEmpty else { throw UsageError("give FILE or --output, not both", usage: spec.usage) }
      let topology = try connect(args).readTopology()
      let output = try topology.outputs(named: [name])[0]
      guard let bytes = output.edid else {
        printError("output \(name) has no EDID property")
        return .failure
      }
      return report(bytes, label: name, json: json) ? .success : .failure
    }
    guard !args.positionals.isEmpty else { throw UsageError("no EDID file given", usage: spec.usage) }
    var ok = true
    for path in args.positionals {
      switch readFile(path, limit: FileLimit.edid) {
      case .success(let bytes): ok = report(bytes, label: path, json: json) && ok
      case .failure(let error):
        ok = false
        emitError(label: path, message: error.description, json: json)
      }
    }
    return ok ? .success : .failure
  }

  private func report(_ bytes: [UInt8], label: String, json: Bool) -> Bool {
    do {
      let edid = try EDID(bytes: bytes)
      if json {
        write(JSON.object([("file", .string(label))] + JSON.record(EDIDRecord(edid)).members).serialized() + "\n")
      } else {
        write(printable("\(label):") + "\n" + EDIDReport.text(edid))
      }
      return true
    } catch {
      emitError(label: label, message: error.description, json: json)
      return false
    }
  }

  private func emitError(label: String, message: String, json: Bool) {
    if json {
      write(JSON.object([("file", .string(label)), ("error", .string(message))]).serialized() + "\n")
    } else {
      printError("\(label): \(message)")
    }
  }
}
